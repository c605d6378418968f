import assert from 'node:assert/strict';
import { MAX_FORMAT_CORRECTIONS } from '../../../src/agent/loop/answerEnding';
import { runAgent } from '../../../src/agent/loop/runAgent';
import { echoTool, finishTool, makeRun } from './harness';

// Issue 23: an answer holding tool-call markup that nothing reads is never the final answer. The
// model gets a correction naming what it wrote; after MAX_FORMAT_CORRECTIONS corrections in a row
// the run fails with a reason naming the format problem (stop cause `tool_format`).

const userMessages = (h: ReturnType<typeof makeRun>, call: number) =>
  h.model.requests[call]!.messages.filter((m) => m.role === 'user').map((m) => m.content);

describe('runAgent: unreadable tool-call markup', () => {
  it('corrects once, then runs the call the model writes properly, and finishes', async () => {
    const ran: string[] = [];
    const h = makeRun(
      [
        { text: '<|tool_call_start|>echo {"text": "a"}<|tool_call_stop|>' },
        { toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] },
        { toolCalls: [{ name: 'finish', arguments: { summary: 'done' } }] },
      ],
      [echoTool(ran), finishTool],
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished');
    assert.deepEqual(ran, ['a']);
    const note = userMessages(h, 1).at(-1)!;
    assert.match(note, /special token <\|tool_call_start\|>/);
    assert.match(note, /not taken as your final answer/);
    assert.match(h.ofType('notice').map((n) => n.message).join('\n'), /correction 1 of 2/);
  });

  it(`fails after ${MAX_FORMAT_CORRECTIONS} corrections in a row, naming the markup, and never finishes`, async () => {
    const h = makeRun(
      [
        { text: '<function_calls><invoke name="echo"><parameter name="text">a</parameter></invoke></function_calls>' },
        { text: '<function_calls><invoke name="echo"><parameter name="text">a</parameter></invoke></function_calls>' },
        { text: 'Fine: {"name": "echo", "text": "a"}' },
      ],
      [echoTool(), finishTool],
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'failed');
    assert.match(result.reason ?? '', /could not be read after 2 corrections: it wrote a JSON object naming the tool echo/);
    assert.equal(h.model.calls, MAX_FORMAT_CORRECTIONS + 1);
    const finished = h.ofType('run_finished')[0]!;
    assert.equal(finished.outcome, 'failed');
    assert.ok(h.ofType('error').some((e) => e.code === 'model' && /tool calls could not be read/.test(e.message)));
  });

  it('counts corrections in a row: a call that runs in between starts the count again', async () => {
    const bad = { text: '<tool_use>{"tool": "echo"}</tool_use>' };
    const h = makeRun(
      [bad, bad, { toolCalls: [{ name: 'echo', arguments: { text: 'b' } }] }, bad, bad, { toolCalls: [{ name: 'finish', arguments: { summary: 'ok' } }] }],
      [echoTool(), finishTool],
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished');
    assert.equal(h.model.calls, 6);
  });

  it('a plain answer that mentions HTML or shows JSON in a code block is still the final answer', async () => {
    const text = 'Wrap it in a <div> element. The call looks like:\n```json\n{"name": "echo", "arguments": {"text": "a"}}\n```';
    const h = makeRun([{ text }], [echoTool(), finishTool]);
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished');
    assert.equal(result.summary, text);
  });
});
