import assert from 'node:assert/strict';
import { boundedTokenCounter, SAMPLE_ABOVE } from '../../../src/agent/context/boundedCounter';
import { o200kCounter, type TokenCounter } from '../../../src/agent/context/tokenCounter';

/** The real tokenizer, counting the characters it was given. */
function counting(): TokenCounter & { chars: number } {
  const counter = { chars: 0, count: (text: string) => ((counter.chars += text.length), o200kCounter.count(text)) };
  return counter;
}

describe('boundedTokenCounter on huge texts (issue 28: a 50 MB write_file argument is counted on the task\'s path)', () => {
  it('counts a text up to SAMPLE_ABOVE exactly, reading all of it', () => {
    const inner = counting();
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(Math.floor(SAMPLE_ABOVE / 45));
    assert.ok(text.length <= SAMPLE_ABOVE);
    assert.equal(boundedTokenCounter(inner).count(text), o200kCounter.count(text));
    assert.equal(inner.chars, text.length);
  });

  it('reads the same fixed number of characters for 2 MB and for 16 MB', () => {
    const line = 'const value = "write_file bench line with some text in it";\n';
    const read: number[] = [];
    for (const mb of [2, 16]) {
      const inner = counting();
      boundedTokenCounter(inner).count(line.repeat(Math.ceil((mb << 20) / line.length)));
      read.push(inner.chars);
    }
    assert.equal(read[0], read[1]);
    assert.ok(read[0]! <= SAMPLE_ABOVE / 4 + 64, `${read[0]} characters tokenised`);
  });

  const KINDS: Array<[string, (i: number) => string]> = [
    ['code', (i) => `function f${i}(a, b) { return a * ${i} + b; }\n`],
    ['prose', (i) => `Sentence number ${i} says something ordinary about the weather. `],
    ['CJK and emoji', (i) => `第${i}行：这是一个测试😀。\n`],
    ['base64-like runs', (i) => `${Buffer.from(String(i).repeat(90)).toString('base64')}\n`],
  ];
  for (const [kind, make] of KINDS) {
    it(`estimates ${kind} within 3% of the exact count`, () => {
      const parts: string[] = [];
      let length = 0;
      for (let i = 0; length < 1.5 * SAMPLE_ABOVE; i++) length += (parts[parts.length] = make(i)).length;
      const text = parts.join('');
      // Exact, in pieces under the sampling size cut at line or sentence ends (a token or so off per cut).
      const exactCounter = boundedTokenCounter(o200kCounter);
      let exact = 0;
      for (let i = 0; i < parts.length; i += 2000) exact += exactCounter.count(parts.slice(i, i + 2000).join(''));
      const estimate = boundedTokenCounter(o200kCounter).count(text);
      assert.ok(Math.abs(estimate - exact) / exact < 0.03, `${estimate} vs ${exact}`);
    });
  }
});
