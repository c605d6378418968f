import assert from 'node:assert/strict';
import { countToolTokens, o200kCounter } from '../../../src/agent/context/tokenCounter';
import { builtinTools } from '../../../src/agent/tools/builtins/index';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';

/** The tools' share of the 2,000-token budget for the default system prompt plus all tool schemas. */
const TOOL_SCHEMA_BUDGET = 1_000;

describe('builtinTools', () => {
  it('offers the nine tools with their categories', () => {
    const tools = builtinTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.category]),
      [
        ['read_file', 'read'],
        ['list_files', 'read'],
        ['search_files', 'read'],
        ['read_output', 'read'],
        ['write_file', 'edit'],
        ['edit_file', 'edit'],
        ['run_command', 'command'],
        ['ask_user', 'meta'],
        ['finish', 'meta'],
      ],
    );
  });

  it('keeps all tool schemas small enough for the prompt budget', () => {
    const specs = new ToolRegistry(builtinTools()).specs();
    const tokens = countToolTokens(o200kCounter, specs);
    assert.ok(tokens <= TOOL_SCHEMA_BUDGET, `tool schemas take ${tokens} tokens`);
    for (const spec of specs) {
      assert.ok(spec.description.length > 20 && spec.description.length < 160, `${spec.name}: ${spec.description}`);
      assert.equal((spec.parameters as { type?: string }).type, 'object');
    }
  });

  it('names the main parameters as documented', () => {
    const required = Object.fromEntries(
      new ToolRegistry(builtinTools()).specs().map((s) => [s.name, Object.keys((s.parameters as { properties: object }).properties)]),
    );
    assert.deepEqual(required, {
      read_file: ['path', 'start_line', 'end_line'],
      list_files: ['path', 'recursive'],
      search_files: ['pattern', 'path', 'glob'],
      read_output: ['call_id', 'start_line', 'end_line'],
      write_file: ['path', 'content'],
      edit_file: ['path', 'edits'],
      run_command: ['command', 'timeout_seconds', 'outside_sandbox', 'reason'],
      ask_user: ['question', 'options'],
      finish: ['summary'],
    });
  });
});
