import assert from 'node:assert/strict';
import { createToolBlockFilter } from '../../../src/agent/model/textToolProtocol';
import { recoverOutsideCode } from '../../../src/agent/model/answerRecovery';
import { recoverToolCalls } from '../../../src/agent/model/toolCallFormats/recoverToolCalls';
import { toolCatalog } from '../../../src/agent/model/toolCallFormats/types';
import type { ToolSpec } from '../../../src/agent/model/types';
import { FORMAT_CASES } from '../../integration/cli/toolFormatCases';

// The per-format parsers, table-driven over the same real-shaped examples the CLI tests use, plus
// the cases that must stay text. The streaming filter must read the same calls wherever the
// stream splits the answer.

const spec = (name: string, properties: Record<string, unknown>): ToolSpec => ({ name, description: name, parameters: { type: 'object', properties } });
const TOOLS: ToolSpec[] = [
  spec('write_file', { path: { type: 'string' }, content: { type: 'string' } }),
  spec('read_file', { path: { type: 'string' }, start_line: { type: 'integer' } }),
  spec('list_files', { path: { type: 'string' }, recursive: { type: 'boolean' } }),
  spec('finish', { summary: { type: 'string' } }),
  spec('edit_file', { path: { type: 'string' }, edits: { type: 'array', items: { type: 'object', properties: { search: { type: 'string' }, replace: { type: 'string' } } } } }),
];
const catalog = toolCatalog(TOOLS);
const parsedCalls = (calls: Array<{ name: string; arguments: string }>) => calls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) as unknown }));

function stream(text: string, cut: number, mode: 'text' | 'native') {
  const filter = createToolBlockFilter(mode, TOOLS);
  const visible = filter.push(text.slice(0, cut)) + filter.push(text.slice(cut)) + filter.end();
  return { visible, calls: filter.calls, problems: filter.problems };
}

describe('native tool-call formats', () => {
  for (const testCase of FORMAT_CASES) {
    describe(testCase.format, () => {
      testCase.examples.forEach((example, index) => {
        it(`example ${index + 1}: ${example.calls.map((c) => c.name).join(', ')}`, () => {
          const found = recoverToolCalls(example.text, catalog);
          assert.ok(found, 'recognised');
          assert.deepEqual(found.problems, []);
          assert.deepEqual(parsedCalls(found.calls), example.calls);
          for (const call of example.calls) assert.ok(!found.text.includes(String(call.args.path)), `markup left in the text: ${found.text}`);
        });

        it(`example ${index + 1} streams to the same calls at every split, in both modes`, () => {
          for (const mode of ['text', 'native'] as const) {
            for (let cut = 0; cut <= example.text.length; cut += 3) {
              const result = stream(example.text, cut, mode);
              // Markup after prose on the same line is read after the stream, from the whole text.
              const calls = result.calls.length > 0 ? result.calls : (recoverToolCalls(result.visible, catalog)?.calls ?? []);
              assert.deepEqual(parsedCalls(calls), example.calls, `${mode}, split at ${cut}`);
            }
          }
        });
      });

      it('malformed markup gives a precise note and no call', () => {
        const found = recoverToolCalls(testCase.malformed, catalog);
        assert.ok(found, 'recognised as an attempt');
        assert.deepEqual(found.calls, []);
        assert.equal(found.problems.length, 1);
        assert.match(found.problems[0]!, /could not be read: .+ \(in `.+`\)/);
      });
    });
  }

  it('a well-formed call naming a tool that is not offered is a note listing the offered ones', () => {
    const found = recoverToolCalls('<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>', catalog)!;
    assert.deepEqual(found.calls, []);
    assert.match(found.problems[0]!, /`delete_all`, which is not an available tool\. Available tools: write_file, read_file, list_files, finish/);
  });

  it('harmony: the analysis channel is thinking, not answer, also while streaming', () => {
    const text = '<|channel|>analysis<|message|>Need the file first.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a"}<|call|>';
    assert.equal(recoverToolCalls(text, catalog)!.thinking, 'Need the file first.');
    const filter = createToolBlockFilter('native', TOOLS);
    assert.equal(filter.push(text.slice(0, 30)) + filter.push(text.slice(30)) + filter.end(), '');
    assert.equal(filter.thinking, 'Need the file first.');
  });

  it('markup shown as an example inside a fenced code block is not a call; markup outside one is', () => {
    const example = 'Hermes writes calls like this:\n```xml\n<tool_call>{"name": "read_file", "arguments": {"path": "x"}}</tool_call>\n```\nThat is all.';
    assert.equal(recoverOutsideCode(example, catalog), undefined);
    const mixed = `Reading it now. [read_file(path="a")]\n${example.slice(example.indexOf('```'))}`;
    const found = recoverOutsideCode(mixed, catalog)!;
    assert.deepEqual(parsedCalls(found.calls), [{ name: 'read_file', args: { path: 'a' } }]);
    assert.equal(found.text, `Reading it now.\n${example.slice(example.indexOf('```'))}`);
  });

  const edgeCases: Array<[string, string, Array<{ name: string; args: unknown }>]> = [
    ['GLM call without arguments', '<tool_call>list_files\n</tool_call>', [{ name: 'list_files', args: {} }]],
    ['Kimi K2 ids without the namespace, singular section token', '<|tool_call_section_begin|><|tool_call_begin|>read_file:0<|tool_call_argument_begin|>{"path": "a"}<|tool_call_end|><|tool_call_section_end|>', [{ name: 'read_file', args: { path: 'a' } }]],
    ['MiniMax M2 with single-quoted names and an integer typed by the schema', "<minimax:tool_call><invoke name='read_file'><parameter name='path'>a</parameter><parameter name='start_line'>7</parameter></invoke></minimax:tool_call>", [{ name: 'read_file', args: { path: 'a', start_line: 7 } }]],
    ['Qwen3-Coder XML after Functionary is tried first', '<function=read_file>\n<parameter=path>\na\n</parameter>\n</function>', [{ name: 'read_file', args: { path: 'a' } }]],
    ['Command: thinking and response tokens around a call', '<|START_THINKING|>Plan.<|END_THINKING|><|START_ACTION|>{"tool_name": "read_file", "parameters": {"path": "a"}}<|END_ACTION|>', [{ name: 'read_file', args: { path: 'a' } }]],
  ];
  for (const [label, text, calls] of edgeCases) {
    it(`reads ${label}`, () => {
      const found = recoverToolCalls(text, catalog);
      assert.ok(found, 'recognised');
      assert.deepEqual(found.problems, []);
      assert.deepEqual(parsedCalls(found.calls), calls);
      assert.equal(found.text, '');
    });
  }

  it("Command R+'s `Action: ```json [...]``` ` is read by the fence reader in both modes, the word Action left as text", () => {
    const text = 'I will read it.\nAction: ```json\n[\n    {\n        "tool_name": "read_file",\n        "parameters": {"path": "a.txt"}\n    }\n]\n```';
    for (const mode of ['text', 'native'] as const) {
      const result = stream(text, 20, mode);
      assert.deepEqual(parsedCalls(result.calls), [{ name: 'read_file', args: { path: 'a.txt' } }], mode);
      assert.equal(result.visible.trim(), 'I will read it.\nAction:');
    }
  });

  it('a Kimi K2 or GLM call naming a tool that is not offered is a note, never a call', () => {
    for (const text of ['<|tool_calls_section_begin|><|tool_call_begin|>functions.rm_rf:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>', '<tool_call>rm_rf\n</tool_call>']) {
      const found = recoverToolCalls(text, catalog)!;
      assert.deepEqual(found.calls, []);
      assert.match(found.problems[0]!, /`rm_rf`, which is not an available tool/);
    }
  });

  it('types XML arguments by the schema: integers, booleans, JSON structures, strings kept verbatim', () => {
    const found = recoverToolCalls('<read_file>\n<path>007</path>\n<start_line>12</start_line>\n</read_file>', catalog)!;
    assert.deepEqual(parsedCalls(found.calls), [{ name: 'read_file', args: { path: '007', start_line: 12 } }]);
  });

  const ordinaryText: Array<[string, string]> = [
    ['prose mentioning a tool', 'You can call read_file to see a file, or list_files.'],
    ['JSON that is not a call', '{"name": "my-package", "version": "1.0.0"}'],
    ['a Python list in prose', 'The result is [1, 2, 3] and f(x) = 2.'],
    ['HTML', '<div><p>Hello</p></div>'],
    ['an XML tag of an unknown tool', '<delete_all><path>/</path></delete_all>'],
    ['a markdown link list', '[read the docs](https://example.com)'],
    ['a Python REPL transcript', '>>> import functools\n>>> functools.reduce(max, [1, 2])\n2'],
    ['functools in prose', 'Use functools.lru_cache, or functools[0] in a dict of modules.'],
    ['a JSON list of records named like nothing offered', '[{"name": "alice", "age": 3}, {"name": "bob", "age": 4}]'],
    ['a function tag in HTML docs', 'The <function> element is not HTML; use <code>f()</code>.'],
  ];
  for (const [label, text] of ordinaryText) {
    it(`leaves ordinary text alone: ${label}`, () => {
      assert.equal(recoverToolCalls(text, catalog), undefined);
      for (const mode of ['text', 'native'] as const) {
        const result = stream(text, Math.floor(text.length / 2), mode);
        assert.equal(result.visible, text);
        assert.deepEqual(result.calls, []);
      }
    });
  }
});
