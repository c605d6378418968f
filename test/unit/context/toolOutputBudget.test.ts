import assert from 'node:assert/strict';
import { boundedTokenCounter } from '../../../src/agent/context/boundedCounter';
import { MessageTokenCache } from '../../../src/agent/context/messageTokens';
import { o200kCounter, type TokenCounter } from '../../../src/agent/context/tokenCounter';
import { fitToolOutput, readMoreHint } from '../../../src/agent/context/toolOutputBudget';
import type { ChatMessage } from '../../../src/agent/model/types';

function countingCounter(inner: TokenCounter = o200kCounter) {
  const texts: string[] = [];
  return { texts, count: (text: string) => (texts.push(text), inner.count(text)) };
}

describe('toolOutputBudget', () => {
  it('keeps an output that fits, without tokenising a short one', () => {
    const counter = countingCounter();
    assert.deepEqual(fitToolOutput('short output', 100, counter, 'hint'), { text: 'short output', omittedChars: 0 });
    assert.equal(counter.texts.length, 0);
    const medium = 'word '.repeat(100);
    assert.equal(fitToolOutput(medium, 200, counter, 'hint').text, medium);
  });

  it('cuts to the token budget keeping head and tail, with the hint in the marker', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `${i + 1}: ${i % 7 === 0 ? 'error' : 'ok'} in module_${i}`);
    const fitted = fitToolOutput(lines.join('\n'), 500, o200kCounter, 'call read_file again with start_line/end_line');
    assert.ok(o200kCounter.count(fitted.text) <= 500);
    assert.ok(o200kCounter.count(fitted.text) > 350, 'the budget is used, not wasted');
    assert.ok(fitted.text.startsWith('1: error in module_0\n'));
    assert.ok(fitted.text.endsWith('3000: ok in module_2999'));
    assert.match(fitted.text, /\[\.\.\. \d+ characters omitted; call read_file again with start_line\/end_line \.\.\.\]/);
    assert.ok(fitted.omittedChars > 0);
  });

  it('handles huge outputs and multi-token characters', () => {
    const huge = '数据处理完成 '.repeat(200_000);
    const fitted = fitToolOutput(huge, 1000, o200kCounter, 'narrow it');
    assert.ok(o200kCounter.count(fitted.text) <= 1000);
    assert.match(fitted.text, /characters omitted; narrow it/);
  });

  it('words the hint for the tool that produced the output', () => {
    assert.match(readMoreHint('read_file'), /read_file again with start_line/);
    assert.match(readMoreHint('search_files'), /narrow the search/);
    assert.match(readMoreHint('run_command'), /filtered/);
    assert.match(readMoreHint('mcp_weather'), /smaller part/);
    assert.match(readMoreHint('openapi_thread'), /smaller part/);
  });
});

describe('messageTokens and boundedTokenCounter', () => {
  it('tokenises each message object once', () => {
    const counter = countingCounter();
    const cache = new MessageTokenCache(counter);
    const a: ChatMessage = { role: 'user', content: 'hello there' };
    const b: ChatMessage = { role: 'assistant', content: 'hi', toolCalls: [{ id: '1', name: 'echo', arguments: '{"text":"x"}' }] };
    const first = cache.countAll([a, b]);
    const calls = counter.texts.length;
    const second = cache.countAll([a, b, a]);
    assert.equal(counter.texts.length, calls, 'nothing tokenised again');
    assert.equal(second, first + cache.count(a));
    // Content, name and arguments; the call id; framing of the message (4) and of the call (3).
    assert.equal(cache.count(b), o200kCounter.count('hiecho{"text":"x"}') + o200kCounter.count('1') + 4 + 3);
    const spec = { name: 'echo', description: 'Echo.', parameters: { type: 'object' } };
    const tools = cache.countTools([spec]);
    assert.equal(cache.countTools([spec]), tools);
    assert.equal(counter.texts.length, calls + 1);
  });

  it('counts ordinary text exactly and long unbroken runs in slices, within a token per slice', () => {
    const inner = countingCounter();
    const bounded = boundedTokenCounter(inner);
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    assert.equal(bounded.count(prose), o200kCounter.count(prose));
    for (const run of ['='.repeat(8000), 'abc'.repeat(3000), 'x'.repeat(8000)]) {
      inner.texts.length = 0;
      const line = `start ${run} end`;
      const counted = bounded.count(line);
      assert.ok(inner.texts.every((t) => t.length <= 257), 'no piece longer than a slice');
      const slices = Math.ceil(run.length / 256);
      const exact = o200kCounter.count(line);
      assert.ok(Math.abs(counted - exact) <= slices, `${counted} vs exactly ${exact} (${slices} slices)`);
    }
  });
});
