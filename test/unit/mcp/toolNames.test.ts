import assert from 'node:assert/strict';
import { TOOL_NAME_PATTERN } from '../../../src/agent/tools/toolRegistry';
import { exposedToolName, sanitizeNamePart } from '../../../src/mcp/toolNames';

const free = () => false;

describe('MCP tool names', () => {
  it('joins server and tool with a double underscore', () => {
    assert.equal(exposedToolName('everything', 'get-sum', free), 'everything__get-sum');
  });

  it('replaces characters model APIs reject', () => {
    assert.equal(sanitizeNamePart('my server.v2/tool name'), 'my_server_v2_tool_name');
    assert.equal(exposedToolName('my.server', 'read file', free), 'my_server__read_file');
    assert.equal(sanitizeNamePart(''), '_');
  });

  it('cuts long names to 64 characters with a hash that tells different tools apart', () => {
    const a = exposedToolName('server', `${'t'.repeat(80)}a`, free);
    const b = exposedToolName('server', `${'t'.repeat(80)}b`, free);
    assert.equal(a.length, 64);
    assert.equal(b.length, 64);
    assert.notEqual(a, b);
    assert.match(a, TOOL_NAME_PATTERN);
    assert.equal(a, exposedToolName('server', `${'t'.repeat(80)}a`, free), 'the same tool gets the same name');
  });

  it('gives a different name when the plain one is taken (two tools that sanitise alike)', () => {
    const taken = new Set<string>();
    const first = exposedToolName('s', 'a.b', (n) => taken.has(n));
    taken.add(first);
    const second = exposedToolName('s', 'a/b', (n) => taken.has(n));
    taken.add(second);
    assert.equal(first, 's__a_b');
    assert.match(second, /^s__a_b_[0-9a-f]{6}$/);
    // Even the hashed name may be taken: another salt is tried.
    const salted = exposedToolName('s', 'a/b', (n) => n === first || n === second);
    assert.match(salted, /^s__a_b_[0-9a-f]{6}$/);
    assert.notEqual(salted, second);
  });
});
