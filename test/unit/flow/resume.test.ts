import assert from 'node:assert/strict';
import { CONTINUE_NOTE, resumeTask } from '../../../src/agent/flow/resumeTask';
import { runTask } from '../../../src/agent/flow/runTask';
import { flowStateFromEvents } from '../../../src/agent/flow/flowStateFromEvents';
import { call, finish, flowModel, harness, requestsOf } from './flowHarness';

const PLAN = {
  goal: 'Write three notes',
  thought: 'One note per step.',
  steps: [
    { title: 'Note A', description: 'Write a.md.', role: 'reporter' },
    { title: 'Note B', description: 'Write b.md.', role: 'reporter' },
    { title: 'Note C', description: 'Write c.md.', role: 'reporter' },
  ],
};
const REPORT = [call('write_report', { summary: 'Notes written.', findings: [], verification: '', left: [] })];

describe('resumeTask: a stored task continues from its plan', () => {
  it('resumes the step that hit its turn limit with its conversation, then runs the rest and reports', async () => {
    // First run: step 2 reads two files and hits its 2-turn limit; the updater stops the task.
    const first = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Note A': [call('write_file', { path: 'a.md', content: 'A\n' }), finish('Wrote a.md.')],
      'step:Note B': [call('read_file', { path: 'a.md' }), call('list_files', { path: '.' })],
      updater: (request) => (request.messages.some((m) => m.content.includes('failed')) ? call('stop_task', { reason: 'turn limit' }) : call('keep_plan', {})),
      report: REPORT,
    });
    const h1 = harness(first, { task: 'Write the notes', planMode: 'always', agentLimits: { maxTurns: 2 } });
    const r1 = await runTask(h1.options);
    assert.equal(r1.outcome, 'failed');
    assert.deepEqual(r1.plan?.steps.map((s) => s.status), ['completed', 'failed', 'pending']);

    // The stored events alone rebuild the plan and step 2's conversation.
    const stored = flowStateFromEvents(h1.events)!;
    assert.deepEqual(stored.state.plan.steps.map((s) => s.status), ['completed', 'failed', 'pending']);
    assert.equal(stored.state.notes['1'], 'Wrote a.md.');

    const second = flowModel({
      'step:Note B': [call('write_file', { path: 'b.md', content: 'B\n' }), finish('Wrote b.md.')],
      'step:Note C': [call('write_file', { path: 'c.md', content: 'C\n' }), finish('Wrote c.md.')],
      updater: () => call('keep_plan', {}),
      report: REPORT,
    });
    const h2 = harness(second, { task: 'unused', workspace: h1.workspace });
    const { task: _task, planMode: _p, review: _r, ...rest } = h2.options;
    const r2 = await resumeTask({ ...rest, history: h1.events, resumedFrom: 'run-1' });

    assert.equal(r2.outcome, 'finished', r2.reason);
    assert.deepEqual(r2.plan?.steps.map((s) => s.status), ['completed', 'completed', 'completed']);
    assert.equal(requestsOf(second, 'step:Note A').length, 0, 'a completed step does not run again');
    // Step 2 continues its own conversation: its earlier calls, then the note to continue.
    const resumed = requestsOf(second, 'step:Note B')[0]!;
    const calls = resumed.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.name) : []));
    assert.deepEqual(calls, ['read_file', 'list_files']);
    assert.equal(resumed.messages.at(-1)?.content, CONTINUE_NOTE);
    assert.equal(h1.workspace.text('c.md'), 'C\n');
    assert.ok(r2.reportPath && h1.workspace.text(r2.reportPath));
    const [started] = h2.of('run_started');
    assert.equal(started!.task, 'Write the notes');
    assert.equal(started!.resumedFrom, 'run-1');
    assert.equal(h2.of('run_finished').length, 1);
    assert.equal(h2.of('run_finished')[0]!.stepsCompleted, 3);
  });

  it('continues a direct task from its conversation with the new instruction', async () => {
    const first = flowModel({ direct: [call('read_file', { path: 'README.md' }), finish('Read it.')] });
    const h1 = harness(first, { task: 'Read the readme', planMode: 'never', files: { 'README.md': '# Demo\n' } });
    await runTask(h1.options);
    const second = flowModel({ direct: [finish('It is called Demo.')] });
    const h2 = harness(second, { task: 'unused', workspace: h1.workspace });
    const { task: _task, planMode: _p, review: _r, ...rest } = h2.options;
    const r2 = await resumeTask({ ...rest, history: h1.events, resumedFrom: 'run-1', instruction: 'What is it called?' });
    assert.equal(r2.outcome, 'finished');
    const request = requestsOf(second, 'direct')[0]!;
    assert.deepEqual(request.messages.filter((m) => m.role === 'user').map((m) => m.content), ['Read the readme', 'What is it called?']);
    assert.equal(requestsOf(second, 'coordinator').length, 0);
  });
  it('answers a follow-up on a finished plan from the plan and its report, without running the plan again', async () => {
    const first = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Note A': [finish('Wrote a.md.')],
      'step:Note B': [finish('Wrote b.md.')],
      'step:Note C': [finish('Wrote c.md.')],
      updater: () => call('keep_plan', {}),
      report: REPORT,
    });
    const h1 = harness(first, { task: 'Write the notes', planMode: 'always' });
    assert.equal((await runTask(h1.options)).outcome, 'finished');
    const second = flowModel({ direct: [finish('Three notes: A, B and C.')] });
    const h2 = harness(second, { task: 'unused', workspace: h1.workspace });
    const { task: _task, planMode: _p, review: _r, ...rest } = h2.options;
    const r2 = await resumeTask({ ...rest, history: h1.events, resumedFrom: 'run-1', instruction: 'Which notes are there?' });
    assert.equal(r2.outcome, 'finished', r2.reason);
    assert.equal(r2.summary, 'Three notes: A, B and C.');
    for (const caller of ['planner', 'updater', 'report', 'step:Note A'] as const) assert.equal(requestsOf(second, caller).length, 0, `${caller} not asked again`);
    const request = requestsOf(second, 'direct')[0]!;
    assert.deepEqual(request.messages.filter((m) => m.role === 'user').map((m) => m.content), ['Write the notes', 'Which notes are there?']);
    const digest = request.messages.find((m) => m.role === 'assistant')?.content ?? '';
    assert.match(String(digest), /Wrote b\.md\./, 'the step summaries are in the context');
    assert.match(String(digest), /Notes written\./, 'the report is in the context');
    const [started] = h2.of('run_started');
    assert.equal(started!.task, 'Which notes are there?', 'the follow-up is shown as what the user asked');
  });
});
