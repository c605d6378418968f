import { strict as assert } from 'node:assert';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { builtinTools } from '../../../src/agent/tools/builtins';

describe('ToolRegistry.parseArguments with null optionals', () => {
  const registry = new ToolRegistry(builtinTools());

  it('treats null optional parameters as left out', () => {
    const parsed = registry.parseArguments('read_file', '{"path":"a.ts","start_line":null,"end_line":null}');
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.args, { path: 'a.ts' });
  });

  it('still reports a null where a value is required', () => {
    const parsed = registry.parseArguments('read_file', '{"path":null}');
    assert.ok(!parsed.ok);
    assert.match(parsed.message, /`path`/);
  });
});
