import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import { initialRunView, OUTPUT_KEEP_CHARS, reduce, reduceAll, RESULT_KEEP_CHARS } from '../../../webview-ui/src/reducer';
import type { Item, RunView, StepItem, TextItem, ToolCard } from '../../../webview-ui/src/viewModel';
import { envelopes, plannedRun } from './envelopes';

const RUN = 'run-1';

function run(events: AgentEvent[], start = initialRunView()): RunView {
  return reduceAll(start, envelopes(RUN, events));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const items = <K extends Item['kind']>(view: RunView, kind: K) => view.items.filter((i): i is Extract<Item, { kind: K }> => i.kind === kind);

describe('webview reducer', () => {
  it('keeps the model\'s thinking on its text item (shown collapsed), also for an answer that is only tool calls', () => {
    const view = run([
      { type: 'run_started', task: 't', workspace: '/w', model: 'm' },
      { type: 'turn_started', turn: 1, maxTurns: 5 },
      { type: 'text_delta', text: 'Reading.' },
      { type: 'assistant_message', text: 'Reading.', toolCalls: [], thinking: 'The file is a.ts.' },
      { type: 'turn_started', turn: 2, maxTurns: 5 },
      { type: 'assistant_message', text: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }], thinking: 'Now read it.' },
    ]);
    const texts = items(view, 'text');
    assert.deepEqual(texts.map((t) => [t.text, t.thinking]), [['Reading.', 'The file is a.ts.'], ['', 'Now read it.']]);
  });

  it('assembles text deltas into one streaming item and settles it on the assistant message', () => {
    const partial = run([
      { type: 'run_started', task: 't', workspace: '/w', model: 'm' },
      { type: 'turn_started', turn: 1, maxTurns: 5 },
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: 'lo **wor' },
      { type: 'text_delta', text: 'ld**' },
    ]);
    const texts = items(partial, 'text');
    assert.equal(texts.length, 1);
    assert.equal(texts[0]!.text, 'Hello **world**');
    assert.equal(texts[0]!.streaming, true);

    const done = reduceAll(partial, envelopes(RUN, [{ type: 'assistant_message', text: 'Hello **world**!', toolCalls: [] }], 5));
    const settled = items(done, 'text');
    assert.equal(settled.length, 1, 'the message replaces the streamed text, it does not add a second copy');
    assert.equal(settled[0]!.text, 'Hello **world**!');
    assert.equal(settled[0]!.streaming, false);
  });

  it('starts a new text item after a tool call and shows text of a model that does not stream', () => {
    const view = run([
      { type: 'text_delta', text: 'first' },
      { type: 'tool_call', callId: 'a', name: 'read_file', args: { path: 'x.ts' } },
      { type: 'text_delta', text: 'second' },
      { type: 'assistant_message', text: 'second', toolCalls: [] },
      { type: 'turn_started', turn: 2, maxTurns: 5 },
      { type: 'assistant_message', text: 'no deltas at all', toolCalls: [] },
      { type: 'turn_started', turn: 3, maxTurns: 5 },
      { type: 'assistant_message', text: '   ', toolCalls: [] },
    ]);
    assert.deepEqual(items(view, 'text').map((t) => [t.text, t.streaming]), [['first', false], ['second', false], ['no deltas at all', false]]);
  });

  it('pairs tool calls, output chunks and results by callId, even interleaved', () => {
    const view = run([
      { type: 'tool_call', callId: 'a', name: 'run_command', args: { command: 'npm test' }, category: 'command' },
      { type: 'tool_call', callId: 'b', name: 'read_file', args: { path: 'src/b.ts' }, category: 'read' },
      { type: 'tool_output', callId: 'a', stream: 'stdout', chunk: 'one ' },
      { type: 'tool_result', callId: 'b', name: 'read_file', isError: false, content: 'B', durationMs: 5 },
      { type: 'tool_output', callId: 'a', stream: 'stderr', chunk: 'two' },
      { type: 'tool_result', callId: 'a', name: 'run_command', isError: true, content: 'exit 1', durationMs: 1500 },
      { type: 'tool_output', callId: 'nobody', stream: 'stdout', chunk: 'lost' },
    ]);
    const cards = items(view, 'tool');
    assert.equal(cards.length, 2);
    const [a, b] = cards as [ToolCard, ToolCard];
    assert.deepEqual([a.callId, a.output, a.result, a.isError, a.status, a.durationMs], ['a', 'one two', 'exit 1', true, 'error', 1500]);
    assert.deepEqual([b.callId, b.output, b.result, b.isError, b.status, b.durationMs], ['b', '', 'B', false, 'done', 5]);
    assert.deepEqual(a.args, { command: 'npm test' });
  });

  it('creates a card for a result whose call it never saw', () => {
    const view = run([{ type: 'tool_result', callId: 'z', name: 'grep', isError: false, content: 'found', durationMs: 3 }]);
    const [card] = items(view, 'tool');
    assert.equal(card?.name, 'grep');
    assert.equal(card?.status, 'done');
  });

  it('ignores replayed envelopes: applying the same batch twice changes nothing', () => {
    const batch = envelopes(RUN, plannedRun());
    const once = reduceAll(initialRunView(), batch);
    const twice = reduceAll(once, batch);
    assert.equal(twice, once, 'a full replay returns the same object');
    const overlapping = reduceAll(reduceAll(initialRunView(), batch.slice(0, 10)), batch.slice(5));
    assert.deepEqual(overlapping, once, 'an overlapping replay ends in the same view');
    assert.equal(once.lastSeq, batch.length - 1);
  });

  it('ignores envelopes of another run', () => {
    const view = run([{ type: 'run_started', task: 't', workspace: '/w', model: 'm' }]);
    const other = reduce(view, envelopes('run-2', [{ type: 'text_delta', text: 'x' }], 99)[0]!);
    assert.equal(other, view);
  });

  it('never mutates the view it is given', () => {
    const events = plannedRun();
    let view = deepFreeze(initialRunView());
    for (const envelope of envelopes(RUN, [...events, { type: 'run_finished', outcome: 'failed', reason: 'x', turns: 2 }])) {
      view = deepFreeze(reduce(view, envelope));
    }
    assert.equal(view.outcome?.outcome, 'failed');
  });

  it('tracks plan step statuses, the current step and step sections', () => {
    const all = envelopes(RUN, plannedRun());
    const atStart = reduceAll(initialRunView(), all.slice(0, 2));
    assert.deepEqual(atStart.plan?.steps.map((s) => s.status), ['pending', 'pending']);
    const during = reduceAll(initialRunView(), all.slice(0, 3));
    assert.deepEqual(during.plan?.steps.map((s) => s.status), ['in_progress', 'pending']);
    assert.equal(during.currentStepId, 's1');
    const view = reduceAll(initialRunView(), all);
    assert.deepEqual(view.plan?.steps.map((s) => [s.status, s.summary]), [['completed', 'Read the failure.'], ['failed', 'Could not fix.']]);
    assert.equal(view.currentStepId, undefined);
    const headers = items(view, 'step') as StepItem[];
    assert.deepEqual(headers.map((h) => [h.stepId, h.index, h.title, h.status]), [['s1', 0, 'Read', 'completed'], ['s2', 1, 'Fix', 'failed']]);
    const tool = items(view, 'tool')[0]!;
    assert.equal(tool.stepId, 's1', 'items remember the step they belong to');
    assert.equal(items(view, 'question')[0]!.stepId, 's2');

    const updated = reduceAll(view, envelopes(RUN, [{
      type: 'plan_updated', reason: 'retry differently',
      steps: [
        { id: 's1', title: 'Read', description: '', role: 'coder', status: 'completed' },
        { id: 's2', title: 'Fix', description: '', role: 'coder', status: 'failed' },
        { id: 's3', title: 'Fix again', description: '', role: 'coder', status: 'pending' },
      ],
    }], all.length));
    assert.deepEqual(updated.plan?.steps.map((s) => [s.id, s.status, s.summary]), [['s1', 'completed', 'Read the failure.'], ['s2', 'failed', 'Could not fix.'], ['s3', 'pending', undefined]]);
    assert.equal(updated.plan?.goal, 'Green tests');
  });

  it('keeps approvals and questions pending until answered, then expires leftovers when the run ends', () => {
    const all = envelopes(RUN, plannedRun());
    const asking = reduceAll(initialRunView(), all.slice(0, 9));
    assert.deepEqual(asking.pending, ['approval:c1']);
    assert.equal(items(asking, 'tool')[0]!.status, 'awaiting_approval');
    const approved = reduceAll(asking, all.slice(9, 10));
    assert.deepEqual(approved.pending, []);
    assert.equal(items(approved, 'approval')[0]!.state, 'approved');
    assert.equal(items(approved, 'tool')[0]!.status, 'running');

    const view = reduceAll(initialRunView(), all);
    assert.deepEqual(view.pending, ['question:q1']);
    const ended = reduceAll(view, envelopes(RUN, [
      { type: 'tool_call', callId: 'c9', name: 'run_command', args: {} },
      { type: 'text_delta', text: 'half' },
      { type: 'run_finished', outcome: 'cancelled', turns: 2 },
    ], all.length));
    assert.deepEqual(ended.pending, []);
    assert.equal(items(ended, 'question')[0]!.state, 'expired');
    assert.equal(items(ended, 'tool').find((c) => c.callId === 'c9')!.status, 'interrupted');
    assert.equal((items(ended, 'text').at(-1) as TextItem).streaming, false);
    assert.equal(ended.state, 'CANCELLED');
    assert.equal(items(ended, 'outcome')[0]!.outcome, 'cancelled');
  });

  it('marks a rejected call and keeps it rejected when its error result arrives', () => {
    const view = run([
      { type: 'tool_call', callId: 'e', name: 'write_file', args: { path: 'a.ts' }, category: 'edit' },
      { type: 'approval_requested', callId: 'e', category: 'edit', title: 'Edit a.ts', detail: '+x', diff: { path: 'a.ts', before: '', after: 'x' } },
      { type: 'approval_answered', callId: 'e', approved: false, reason: 'not now' },
      { type: 'tool_result', callId: 'e', name: 'write_file', isError: true, content: 'rejected: not now', durationMs: 1 },
    ]);
    assert.equal(items(view, 'tool')[0]!.status, 'rejected');
    const approval = items(view, 'approval')[0]!;
    assert.deepEqual([approval.state, approval.reason, approval.diffPath], ['rejected', 'not now', 'a.ts']);
  });

  it('keeps only the tail of a long tool output and the head and tail of a long result', () => {
    const chunk = 'x'.repeat(1023) + '\n';
    const events: AgentEvent[] = [{ type: 'tool_call', callId: 'big', name: 'run_command', args: { command: 'yes' } }];
    for (let i = 0; i < 100; i++) events.push({ type: 'tool_output', callId: 'big', stream: 'stdout', chunk: i === 99 ? 'THE END\n' : chunk });
    events.push({ type: 'tool_result', callId: 'big', name: 'run_command', isError: false, content: `HEAD${'y'.repeat(200_000)}TAIL`, durationMs: 9 });
    const card = items(run(events), 'tool')[0]!;
    assert.equal(card.output.length, OUTPUT_KEEP_CHARS);
    assert.ok(card.output.endsWith('THE END\n'));
    assert.equal(card.outputOmitted, 99 * 1024 + 8 - OUTPUT_KEEP_CHARS);
    assert.ok(card.result!.startsWith('HEAD') && card.result!.endsWith('TAIL'));
    assert.ok(card.result!.length <= RESULT_KEEP_CHARS + 3);
    assert.equal(card.resultOmitted, 200_008 - RESULT_KEEP_CHARS);
  });

  it('shows the task’s cost over its follow-ups: the core’s task figures, or a sum for older histories', () => {
    const call = { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 };
    const turn = (task: string, cost: number, taskFigures?: number): AgentEvent[] => [
      { type: 'run_started', task, workspace: '/w', model: 'm' },
      { type: 'usage', usage: call, total: call, cost: { effectiveTokens: cost, costUsd: cost / 1e6 }, ...(taskFigures ? { task: { effectiveTokens: taskFigures, costUsd: taskFigures / 1e6 } } : {}) },
      { type: 'run_finished', outcome: 'finished', summary: 'ok', turns: 1 },
    ];
    const now = run([...turn('first', 1100, 1100), ...turn('follow-up', 1100, 2200)]);
    assert.deepEqual(now.cost, { effectiveTokens: 2200, costUsd: 0.0022 });
    assert.equal(now.usage?.totalTokens, 2200);
    const older = run([...turn('first', 1100), ...turn('follow-up', 1100)]);
    assert.equal(older.cost?.effectiveTokens, 2200, 'an older history without task figures is summed run by run');
  });

  it('sums usage, records the report and the outcome', () => {
    const view = run([
      { type: 'run_started', task: 'Write a report', workspace: '/w', model: 'm' },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 5, totalTokens: 10 }, total: { promptTokens: 5, completionTokens: 5, totalTokens: 10 } },
      { type: 'usage', usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 }, total: { promptTokens: 12, completionTokens: 8, totalTokens: 20 } },
      { type: 'report', markdown: '# Report', path: 'report.md' },
      { type: 'run_finished', outcome: 'finished', summary: 'Done.', turns: 1 },
    ]);
    assert.deepEqual(view.usage, { promptTokens: 12, completionTokens: 8, totalTokens: 20 });
    assert.deepEqual(view.report, { markdown: '# Report', path: 'report.md' });
    assert.deepEqual(view.outcome, { outcome: 'finished', summary: 'Done.', reason: undefined });
    assert.equal(view.state, 'FINISHED');
    assert.equal(view.task, 'Write a report');
    assert.deepEqual(view.items.map((i) => i.kind), ['task', 'report', 'outcome']);
  });

  it('reduces a 10,000-event run and pairs every card', () => {
    const events: AgentEvent[] = [{ type: 'run_started', task: 'long', workspace: '/w', model: 'm' }];
    for (let i = 0; events.length < 10_000; i++) {
      events.push({ type: 'tool_call', callId: `c${i}`, name: 'run_command', args: { command: `echo ${i}` } });
      for (let j = 0; j < 5; j++) events.push({ type: 'tool_output', callId: `c${i}`, stream: 'stdout', chunk: `line ${j}\n` });
      events.push({ type: 'tool_result', callId: `c${i}`, name: 'run_command', isError: false, content: 'ok', durationMs: 1 });
      events.push({ type: 'text_delta', text: 'thinking ' });
    }
    const view = run(events.slice(0, 10_000));
    assert.equal(view.lastSeq, 9_999);
    assert.ok(items(view, 'tool').every((c, i, all) => i === all.length - 1 || c.status === 'done'));
  });
});
