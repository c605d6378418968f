import assert from 'node:assert/strict';
import { ToolError } from '../../../src/agent/errors';
import { decodeText, sameBytes } from '../../../src/agent/tools/builtins/textFile';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('decodeText', () => {
  it('decodes UTF-8 and separates a byte-order mark', () => {
    const plain = decodeText('a', utf8('héllo\n'));
    assert.equal(plain.text, 'héllo\n');
    assert.equal(plain.bom, false);
    const withBom = decodeText('b', utf8('\uFEFFx'));
    assert.equal(withBom.text, 'x');
    assert.equal(withBom.bom, true);
  });

  it('treats a NUL in the first 8 KB as binary, and one later as text', () => {
    assert.throws(() => decodeText('a', new Uint8Array([65, 0, 66])), ToolError);
    const late = new Uint8Array(9000).fill(65);
    late[8500] = 0;
    assert.equal(decodeText('b', late).text.length, 9000);
  });
});

describe('sameBytes', () => {
  it('compares aligned and unaligned views byte for byte', () => {
    const base = utf8('0123456789abcdefghij');
    const copy = new Uint8Array(base);
    assert.ok(sameBytes(base, copy));
    const unaligned = new Uint8Array(21);
    unaligned.set(base, 1);
    assert.ok(sameBytes(base, unaligned.subarray(1)));
    copy[17] = 0;
    assert.ok(!sameBytes(base, copy));
    const first = new Uint8Array(base);
    first[0] = 0;
    assert.ok(!sameBytes(base, first));
    assert.ok(!sameBytes(base, base.subarray(1)));
    assert.ok(!sameBytes(base, undefined));
    assert.ok(sameBytes(undefined, undefined));
  });
});
