import assert from 'node:assert/strict';
import { ELIDED_PREFIX } from '../../../src/agent/context/contextBudget';
import { MessageTokenCache } from '../../../src/agent/context/messageTokens';
import { o200kCounter } from '../../../src/agent/context/tokenCounter';
import { runAgent } from '../../../src/agent/loop/runAgent';
import type { ChatMessage, ModelRequest } from '../../../src/agent/model/types';
import { echoTool, finishTool, makeRun, readTool } from './harness';

describe('runAgent: limits, loops and the context budget', () => {
  it('stops with step_limit after maxTurns turns without finishing, with a clear reason and a notice', async () => {
    let n = 0;
    const h = makeRun(() => ({ toolCalls: [{ name: 'echo', arguments: { text: `step ${++n}` } }] }), [echoTool(), finishTool], {
      limits: { maxTurns: 4, maxInputTokens: 100_000, maxToolResultTokens: 1000 },
    });
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'step_limit');
    assert.equal(result.turns, 4);
    assert.equal(h.model.calls, 4);
    assert.match(result.reason!, /^stopped after 4 turns without finishing; /);
    assert.deepEqual(h.ofType('notice').map((e) => e.code), ['step_limit']);
    assert.deepEqual(h.ofType('turn_started').map((e) => [e.turn, e.maxTurns]), [[1, 4], [2, 4], [3, 4], [4, 4]]);
    assert.equal(h.ofType('state').at(-1)!.state, 'FAILED');
    // The last turn's calls were still answered: the history is valid for a resume.
    assert.equal(result.messages.at(-1)!.role, 'tool');
  });

  it('notes a repeated identical call, then stops as stuck naming the call when it goes on', async () => {
    // Same call each time, argument keys in a different order: still the same call.
    const h = makeRun(
      (_request, i) => ({
        text: i % 2 ? 'Let me read it.' : 'Reading again.',
        toolCalls: [{ name: 'read_file', arguments: i % 2 ? '{"path":"a.ts","start_line":1}' : '{"start_line":1, "path":"a.ts"}' }],
      }),
      [readTool(() => 'same content'), finishTool],
      { limits: { maxTurns: 20, maxInputTokens: 100_000, maxToolResultTokens: 1000 } },
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'stuck');
    assert.equal(result.turns, 5);
    assert.match(result.reason!, /read_file \{"path":"a\.ts","start_line":1\}/);
    assert.match(result.reason!, /5 times/);
    // The note went to the model after the third repeat, as a user message.
    const fourth = h.model.requests[3]!.messages;
    const note = fourth.at(-1)!;
    assert.equal(note.role, 'user');
    assert.match(note.content, /Change strategy/);
    assert.match(note.content, /read_file/);
    assert.ok(!h.model.requests[2]!.messages.some((m) => m.role === 'user' && /Change strategy/.test(m.content)));
    assert.deepEqual(h.ofType('notice').map((e) => e.code), ['stuck', 'stuck']);
    assert.equal(result.messages.at(-1)!.role, 'tool');
  });

  it('does not call the model stuck when a note makes it change strategy', async () => {
    const h = makeRun(
      (request) => {
        const noted = request.messages.some((m) => m.role === 'user' && /Change strategy/.test(m.content));
        if (!noted) return { toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] };
        return { toolCalls: [{ name: 'finish', arguments: { summary: 'changed approach' } }] };
      },
      [echoTool(), finishTool],
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished');
    assert.equal(result.turns, 4);
  });

  it('elides the oldest tool outputs when the prompt exceeds the budget, keeping the task, pinned messages and latest turns', async () => {
    const big = (p: string) => `${p}: ${'lorem ipsum dolor sit amet '.repeat(60)}`; // ~360 tokens each
    let n = 0;
    const pinned: ChatMessage = { role: 'user', content: 'Plan: 1. read files 2. summarise' };
    const h = makeRun(
      () => (++n <= 6 ? { toolCalls: [{ name: 'read_file', arguments: { path: `f${n}.txt` } }] } : { text: 'summarised' }),
      [readTool(big)],
      { pinned: [pinned], limits: { maxTurns: 10, maxInputTokens: 1500, maxToolResultTokens: 1000 }, systemPrompt: 'You are a test agent.' },
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished');
    const last: ModelRequest = h.model.requests.at(-1)!;
    const tools = last.messages.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');
    assert.equal(tools.length, 6);
    // Oldest elided first, the last two turns whole.
    assert.ok(tools[0]!.content.startsWith(ELIDED_PREFIX));
    assert.match(tools[0]!.content, /read_file path=f1\.txt; call the tool again if needed\]$/);
    assert.equal(tools[4]!.content, big('f5.txt'));
    assert.equal(tools[5]!.content, big('f6.txt'));
    assert.deepEqual(last.messages.slice(0, 3), [
      { role: 'system', content: 'You are a test agent.' },
      pinned,
      { role: 'user', content: 'Do the task.' },
    ]);
    // Every call still has its answer right after it.
    for (let i = 0; i < last.messages.length; i++) {
      const m = last.messages[i]!;
      if (m.role === 'assistant' && m.toolCalls) {
        assert.deepEqual(m.toolCalls.map((c) => c.id), last.messages.slice(i + 1, i + 1 + m.toolCalls.length).map((t) => (t.role === 'tool' ? t.toolCallId : t.role)));
      }
    }
    const tokens = new MessageTokenCache(o200kCounter);
    for (const request of h.model.requests) {
      assert.ok(tokens.countAll(request.messages) + tokens.countTools(request.tools) <= 1500, 'every prompt fits the budget');
    }
    const notices = h.ofType('notice').filter((e) => e.code === 'context_elided');
    assert.ok(notices.length >= 1);
    assert.match(notices[0]!.message, /elided \d+ older tool outputs?/);
  });
});
