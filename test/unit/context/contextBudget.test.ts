import assert from 'node:assert/strict';
import { ELIDED_PREFIX, elisionMarker, fitToBudget, summarizeArguments, type BudgetOptions } from '../../../src/agent/context/contextBudget';
import { repairToolPairing } from '../../../src/agent/context/messageHistory';
import { MessageTokenCache } from '../../../src/agent/context/messageTokens';
import { o200kCounter } from '../../../src/agent/context/tokenCounter';
import type { ChatMessage } from '../../../src/agent/model/types';

const tokens = new MessageTokenCache(o200kCounter);
const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i % 50}`).join(' ');

/** system, pinned plan, task, then `turns` turns of (assistant call + big tool output). */
function conversation(turns: number, outputWords = 400) {
  const system: ChatMessage = { role: 'system', content: 'You are a test agent.' };
  const plan: ChatMessage = { role: 'user', content: `Plan: ${filler(300)}` };
  const task: ChatMessage = { role: 'user', content: 'Summarise the files.' };
  const messages: ChatMessage[] = [system, plan, task];
  for (let i = 1; i <= turns; i++) {
    messages.push({ role: 'assistant', content: `Reading file ${i}. ${filler(200)}`, toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: JSON.stringify({ path: `f${i}.txt` }) }] });
    messages.push({ role: 'tool', toolCallId: `c${i}`, name: 'read_file', content: `file ${i}: ${filler(outputWords)}` });
  }
  const protectedSet = new Set<ChatMessage>([system, plan, task]);
  const options = (maxTokens: number, keepRecentTurns = 2): BudgetOptions => ({
    maxTokens,
    count: (m) => tokens.count(m),
    isProtected: (m) => protectedSet.has(m),
    keepRecentTurns,
  });
  return { messages, system, plan, task, options };
}

describe('contextBudget', () => {
  it('leaves a conversation under budget untouched', () => {
    const { messages, options } = conversation(3);
    const result = fitToBudget(messages, options(1_000_000));
    assert.deepEqual(result.messages, messages);
    assert.equal(result.elidedOutputs, 0);
    assert.equal(result.fits, true);
    assert.equal(result.tokensAfter, result.tokensBefore);
  });

  it('elides the oldest tool outputs first and stops as soon as it fits', () => {
    const { messages, options } = conversation(6);
    const total = tokens.countAll(messages);
    const oneOutput = tokens.count(messages[4]!);
    const result = fitToBudget(messages, options(total - oneOutput - 10));
    assert.equal(result.fits, true);
    assert.ok(result.tokensAfter <= total - oneOutput - 10);
    const outputs = result.messages.filter((m) => m.role === 'tool');
    assert.deepEqual(outputs.map((m) => m.content.startsWith(ELIDED_PREFIX)), [true, true, false, false, false, false]);
    assert.equal(result.elidedOutputs, 2);
    assert.equal(outputs[0]!.content, '[output elided to save context: read_file path=f1.txt; call the tool again if needed]');
    assert.equal(tokens.countAll(result.messages), result.tokensAfter);
  });

  it('once over budget, elides in one batch down to the low-water mark, and the next turns only append', () => {
    const { messages, options } = conversation(8);
    const total = tokens.countAll(messages);
    const budget = total - 10;
    const result = fitToBudget(messages, { ...options(budget), lowWaterTokens: Math.floor(budget / 2) });
    assert.ok(result.tokensAfter <= Math.floor(budget / 2), `${result.tokensAfter} > half of ${budget}`);
    assert.ok(result.elidedOutputs >= 3);
    // A later turn appends: the fitted prefix is sent unchanged while the total stays under budget.
    const next = [...result.messages, { role: 'user', content: filler(100) } as ChatMessage];
    const again = fitToBudget(next, { ...options(budget), lowWaterTokens: Math.floor(budget / 2) });
    assert.equal(again.elidedOutputs, 0);
    assert.deepEqual(again.messages.slice(0, result.messages.length), result.messages);
    // Without a low-water mark, the same conversation is only elided until it just fits.
    const justFit = fitToBudget(messages, options(budget));
    assert.equal(justFit.elidedOutputs, 1);
  });

  it('keeps the opening (keepHeadTokens) while the rest is enough: a batch rewrites history only after it', () => {
    const { messages, options } = conversation(10);
    const total = tokens.countAll(messages);
    const budget = total - 10;
    const lowWater = Math.floor(budget * 0.6);
    // The opening: system, plan, task and the first two turns.
    const head = tokens.countAll(messages.slice(0, 7));
    const result = fitToBudget(messages, { ...options(budget), lowWaterTokens: lowWater, keepHeadTokens: head });
    assert.ok(result.tokensAfter <= lowWater);
    for (let i = 0; i < 7; i++) assert.equal(result.messages[i], messages[i], `opening message ${i} is the same object`);
    const outputs = result.messages.filter((m) => m.role === 'tool').map((m) => m.content.startsWith(ELIDED_PREFIX));
    assert.deepEqual(outputs.slice(0, 3), [false, false, true], 'eliding starts right after the opening');
    assert.deepEqual(outputs.slice(-2), [false, false], 'the recent turns stay whole');
    // The next batch starts where this one did: the opening and the earlier markers are unchanged.
    const grown = [...result.messages];
    for (let i = 11; i <= 20; i++) {
      grown.push({ role: 'assistant', content: `Reading file ${i}.`, toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: JSON.stringify({ path: `f${i}.txt` }) }] });
      grown.push({ role: 'tool', toolCallId: `c${i}`, name: 'read_file', content: `file ${i}: ${filler(400)}` });
    }
    const next = fitToBudget(grown, { ...options(budget), lowWaterTokens: lowWater, keepHeadTokens: head });
    assert.ok(tokens.countAll(grown) > budget && next.elidedOutputs > 0);
    const firstChanged = next.messages.findIndex((m, i) => m !== grown[i]);
    assert.ok(firstChanged > 7, `the second batch changes nothing before the first one's markers (first change at ${firstChanged})`);
  });

  it('elides the opening too when the prompt does not fit without it', () => {
    const { messages, options } = conversation(6);
    const everything = tokens.countAll(messages);
    const result = fitToBudget(messages, { ...options(Math.floor(everything / 4)), keepHeadTokens: everything });
    const outputs = result.messages.filter((m) => m.role === 'tool').map((m) => m.content.startsWith(ELIDED_PREFIX));
    assert.deepEqual(outputs, [true, true, true, true, false, false]);
    // With room to spare, the same opening is kept.
    const roomy = fitToBudget(messages, { ...options(everything - 10), keepHeadTokens: tokens.countAll(messages.slice(0, 5)) });
    assert.equal(roomy.messages[4], messages[4], 'the first output is in the kept opening');
    assert.equal(roomy.elidedOutputs, 1);
    // It fits without eliding the opening, but above `keepHeadUnderTokens` (where a compaction would start): the opening goes.
    const opening = tokens.countAll(messages.slice(0, 5));
    const capped = fitToBudget(messages, { ...options(everything - 10), lowWaterTokens: opening, keepHeadTokens: opening, keepHeadUnderTokens: opening + 1 });
    assert.ok(capped.messages[4]!.content.startsWith(ELIDED_PREFIX), 'the output in the opening is elided');
  });

  it('keeps the system prompt, task, pinned messages and the latest turns whole, and every call paired', () => {
    const { messages, options, system, plan, task } = conversation(6);
    const result = fitToBudget(messages, options(1));
    assert.equal(result.fits, false);
    assert.equal(result.messages[0], system);
    assert.equal(result.messages[1], plan);
    assert.equal(result.messages[2], task);
    // The last two turns (4 messages) are the very same objects.
    assert.deepEqual(result.messages.slice(-4), messages.slice(-4));
    for (let i = 0; i < 4; i++) assert.equal(result.messages.at(-1 - i), messages.at(-1 - i));
    assert.equal(result.messages.length, messages.length);
    assert.equal(repairToolPairing(result.messages), result.messages, 'no call lost its answer');
    assert.equal(result.elidedOutputs, 4);
  });

  it('then shortens older assistant texts and long arguments, keeping the arguments valid JSON', () => {
    const { messages, options } = conversation(4, 10);
    const long = messages[3] as Extract<ChatMessage, { role: 'assistant' }>;
    messages[3] = { ...long, toolCalls: [{ ...long.toolCalls![0]!, arguments: JSON.stringify({ path: 'f1.txt', content: filler(500) }) }] };
    const result = fitToBudget(messages, options(1));
    assert.ok(result.shortenedMessages >= 2);
    const first = result.messages[3] as Extract<ChatMessage, { role: 'assistant' }>;
    assert.ok(first.content.length < long.content.length);
    assert.match(first.content, /older text shortened to save context/);
    const args = JSON.parse(first.toolCalls![0]!.arguments) as { elided: string };
    assert.match(args.elided, /characters of arguments elided to save context: path=f1\.txt, content=word0/);
    assert.equal(first.toolCalls![0]!.id, 'c1');
    assert.ok(result.tokensAfter < result.tokensBefore);
  });

  it('does not change its input', () => {
    const { messages, options } = conversation(5);
    const copy = structuredClone(messages);
    const before = [...messages];
    fitToBudget(messages, options(10));
    assert.deepEqual(messages, copy);
    messages.forEach((m, i) => assert.equal(m, before[i]));
  });

  it('does not elide an output twice', () => {
    const { messages, options } = conversation(5);
    const once = fitToBudget(messages, options(1));
    const twice = fitToBudget(once.messages, options(1));
    assert.equal(twice.elidedOutputs, 0);
  });

  it('does not shorten an assistant text twice (a shortened text is longer than the cut, with its note)', () => {
    const { messages, options } = conversation(4, 10);
    const once = fitToBudget(messages, options(1));
    assert.ok(once.shortenedMessages >= 2);
    const twice = fitToBudget(once.messages, options(1));
    assert.equal(twice.shortenedMessages, 0);
    twice.messages.forEach((m, i) => assert.equal(m, once.messages[i]));
  });

  it('summarises arguments on one short line', () => {
    assert.equal(summarizeArguments('{"path":"src/a.ts","start_line":10}'), 'path=src/a.ts, start_line=10');
    assert.equal(summarizeArguments('not json\n at all'), 'not json at all');
    assert.ok(summarizeArguments(JSON.stringify({ content: 'x'.repeat(500) })).length <= 120);
    assert.equal(elisionMarker('list_files', undefined), '[output elided to save context: list_files; call the tool again if needed]');
  });
});
