import assert from 'node:assert/strict';
import { BoundedOutput } from '../../../src/node/boundedOutput';

describe('BoundedOutput', () => {
  it('keeps everything while under the cap', () => {
    const out = new BoundedOutput(100);
    out.append('hello ');
    out.append('world\n');
    assert.equal(out.toString(), 'hello world\n');
    assert.equal(out.omittedChars, 0);
    assert.equal(out.retainedChars, 12);
  });

  it('keeps the first 40% and the last 60% of 10 MB appended in uneven chunks, never holding more than the cap', () => {
    const cap = 1000;
    const out = new BoundedOutput(cap);
    assert.equal(out.headCap, 400);
    assert.equal(out.tailCap, 600);
    // A deterministic stream whose every position is recognisable: line numbers.
    let produced = '';
    let expectedHead = '';
    let lastChunk = '';
    let line = 0;
    let maxRetained = 0;
    let totalLength = 0;
    const sizes = [1, 7, 4096, 65536, 3, 100000, 17];
    let i = 0;
    while (totalLength < 10_000_000) {
      const size = sizes[i++ % sizes.length]!;
      let chunk = '';
      while (chunk.length < size) chunk += `line ${line++}\n`;
      chunk = chunk.slice(0, size);
      out.append(chunk);
      totalLength += chunk.length;
      if (expectedHead.length < 400) expectedHead = (expectedHead + chunk).slice(0, 400);
      produced = (produced + chunk).slice(-600); // the last 600 characters seen
      lastChunk = chunk;
      maxRetained = Math.max(maxRetained, out.retainedChars);
    }
    assert.ok(lastChunk.length > 0);
    assert.ok(maxRetained <= cap, `retained ${maxRetained}`);
    assert.equal(out.retainedChars, cap);
    assert.equal(out.totalChars, totalLength);
    assert.equal(out.omittedChars, totalLength - cap);
    const text = out.toString();
    const marker = `\n[... ${totalLength - cap} characters omitted ...]\n`;
    assert.equal(text, expectedHead + marker + produced);
  });

  it('does not split surrogate pairs at the head or tail boundary', () => {
    const out = new BoundedOutput(10); // head 4, tail 6
    out.append('abc😀'); // 😀 is two UTF-16 units: it would straddle the head's end
    out.append('x'.repeat(20));
    out.append('😀😀😀');
    const text = out.toString();
    assert.ok(text.startsWith('abc\n'), JSON.stringify(text));
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text), JSON.stringify(text));
    assert.ok(text.endsWith('😀😀😀'));
    assert.equal(out.totalChars, 5 + 20 + 6);
    assert.equal(out.omittedChars, out.totalChars - out.retainedChars);
  });

  it('with a cap of zero keeps nothing but counts everything', () => {
    const out = new BoundedOutput(0);
    out.append('abc');
    assert.equal(out.retainedChars, 0);
    assert.equal(out.omittedChars, 3);
    assert.equal(out.toString(), '\n[... 3 characters omitted ...]\n');
  });
});
