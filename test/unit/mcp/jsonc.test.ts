import assert from 'node:assert/strict';
import { parseJsonc } from '../../../src/mcp/jsonc';

describe('parseJsonc', () => {
  it('strips line and block comments and trailing commas', () => {
    const text = `{
      // a comment
      "servers": { /* inline */ "a": { "args": ["x", "y",], }, },
    }`;
    assert.deepEqual(parseJsonc(text), { servers: { a: { args: ['x', 'y'] } } });
  });

  it('keeps comment markers and commas inside strings', () => {
    const text = '{"url": "http://host/a//b", "glob": "/* not a comment */", "list": "a, ]", "quote": "say \\"hi\\" // still text",}';
    assert.deepEqual(parseJsonc(text), { url: 'http://host/a//b', glob: '/* not a comment */', list: 'a, ]', quote: 'say "hi" // still text' });
  });

  it('accepts a byte order mark', () => {
    assert.deepEqual(parseJsonc('\uFEFF{"a": 1}'), { a: 1 });
  });

  it('reports the line and column of a syntax error', () => {
    assert.throws(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}'), (error: unknown) => {
      assert.ok(error instanceof SyntaxError);
      assert.match(error.message, /line 3, column 3/);
      return true;
    });
  });

  it('rejects an unterminated block comment as invalid JSON instead of guessing', () => {
    assert.throws(() => parseJsonc('{"a": 1 /* open'), SyntaxError);
  });
});
