import assert from 'node:assert/strict';
import { retryRefusal, retryStep, runTask } from '../../../src/agent/flow/runTask';
import type { FlowState } from '../../../src/agent/flow/flowState';
import type { Plan } from '../../../src/shared/plan';
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
const usage = (totalTokens: number) => ({ promptTokens: totalTokens - 10, completionTokens: 10, totalTokens });

describe('planning flow: Stop, budget, review, retry', () => {
  it('Stop in the middle of a step cancels the task: no more calls, no report', async () => {
    const ref: { controller?: AbortController } = {};
    const model = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Note A': [call('write_file', { path: 'a.md', content: 'A\n' }), finish('Wrote a.md.')],
      'step:Note B': [
        () => {
          ref.controller!.abort();
          return call('write_file', { path: 'b.md', content: 'B\n' });
        },
      ],
      updater: () => call('keep_plan', {}),
    });
    const h = harness(model, { task: 'Write the notes', planMode: 'always' });
    ref.controller = h.controller;
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'cancelled');
    assert.equal(result.reason, 'Stopped by the user.');
    assert.equal(h.workspace.text('b.md'), undefined, 'the aborted call wrote nothing');
    assert.equal(h.workspace.text('a.md'), 'A\n');
    // The user's Stop is not the step's failure: it shows as stopped (no Retry; a resume runs it again).
    assert.deepEqual(result.plan?.steps.map((s) => s.status), ['completed', 'stopped', 'pending']);
    assert.deepEqual(h.of('step_finished').at(-1), { type: 'step_finished', stepId: '2', status: 'stopped', summary: 'Stopped by the user.' });
    assert.match(retryRefusal(result.state!, '2') ?? '', /is stopped; only failed, blocked or skipped steps can be retried/);
    assert.equal(requestsOf(model, 'step:Note C').length, 0);
    assert.equal(requestsOf(model, 'report').length, 0);
    assert.deepEqual(h.of('report'), []);
    assert.equal(h.of('run_finished')[0]!.outcome, 'cancelled');
    assert.equal(h.of('state').at(-1)!.state, 'CANCELLED');
  });

  it('Stop while planning cancels before any step', async () => {
    const ref: { controller?: AbortController } = {};
    const model = flowModel({
      planner: [
        () => {
          ref.controller!.abort();
          return call('create_plan', PLAN);
        },
      ],
    });
    const h = harness(model, { task: 'Write the notes', planMode: 'always' });
    ref.controller = h.controller;
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'cancelled');
    assert.deepEqual(h.of('plan_created'), []);
    assert.equal(h.events.at(-1)?.type, 'run_finished');
  });

  it('stops with outcome budget when the task goes over its token budget, and reports what is left', async () => {
    const model = flowModel({
      planner: [call('create_plan', PLAN, usage(400))],
      'step:Note A': [call('write_file', { path: 'a.md', content: 'A\n' }, usage(300)), finish('Wrote a.md.', usage(300))],
      updater: () => call('keep_plan', {}, usage(100)),
      'step:Note B': [call('write_file', { path: 'b.md', content: 'B\n' }, usage(500)), finish('Wrote b.md.', usage(100))],
    });
    const h = harness(model, { task: 'Write the notes', planMode: 'always', limits: { taskTokenBudget: 1500 } });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'budget');
    assert.equal(result.reason, 'The task used 1600 tokens, over its budget of 1500 tokens; stopped.');
    assert.equal(result.usage.totalTokens, 1600);
    assert.equal(h.workspace.text('b.md'), undefined, 'the budget stopped step 2 before its tool ran');
    assert.deepEqual(result.plan?.steps.map((s) => s.status), ['completed', 'failed', 'pending']);
    // No model call after the budget ran out; the report is assembled from the summaries.
    assert.equal(requestsOf(model, 'report').length, 0);
    const report = h.workspace.text(result.reportPath!)!;
    assert.match(report, /^> stopped at the token budget: The task used 1600 tokens/m);
    assert.match(report, /## What is left\n\n- Note B \(failed\)\n- Note C \(pending\)/);
    assert.equal(h.of('run_finished')[0]!.outcome, 'budget');
  });

  it('review ask: the user edits the plan before it runs', async () => {
    const model = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Note A': [finish('Wrote a.md.')],
      'step:Note C, shorter': [finish('Wrote c.md.')],
      updater: () => call('keep_plan', {}),
      report: REPORT,
    });
    const seen: Plan[] = [];
    const h = harness(model, {
      task: 'Write the notes',
      planMode: 'always',
      review: 'ask',
      reviewPlan: async (plan) => {
        seen.push(plan);
        return { ...plan, steps: [plan.steps[0]!, { ...plan.steps[2]!, title: 'Note C, shorter' }] };
      },
    });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.steps.length, 3);
    assert.deepEqual(h.of('plan_updated')[0]!.reason, 'plan edited in review');
    assert.deepEqual(result.plan?.steps.map((s) => s.title), ['Note A', 'Note C, shorter']);
    assert.equal(requestsOf(model, 'step:Note B').length, 0);
  });

  it('review ask: cancelling the review runs nothing', async () => {
    const model = flowModel({ planner: [call('create_plan', PLAN)] });
    const h = harness(model, { task: 'Write the notes', planMode: 'always', review: 'ask', reviewPlan: async () => undefined });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'cancelled');
    assert.deepEqual(h.of('step_started'), []);
    assert.equal(model.calls, 1);
  });

  it('review ask without a hook is a clear error before anything runs', async () => {
    const model = flowModel({});
    const h = harness(model, { task: 'x', review: 'ask' });
    await assert.rejects(runTask(h.options), /Review mode "ask" needs a reviewPlan hook/);
    assert.equal(h.events.length, 0);
  });

  it('retryStep re-runs a failed step from the saved state and finishes the plan', async () => {
    const states: FlowState[] = [];
    const first = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Note A': [finish('Wrote a.md.')],
      'step:Note B': [call('read_file', { path: 'nope.md' })],
      updater: (request) => (/failed/.test(request.messages.at(-1)!.content) ? call('stop_task', { reason: 'b.md needs a human' }) : call('keep_plan', {})),
      report: REPORT,
    });
    const h1 = harness(first, { task: 'Write the notes', planMode: 'always', limits: { maxTurnsPerStep: 1 }, onState: (s) => states.push(s) });
    const failed = await runTask(h1.options);
    assert.equal(failed.outcome, 'failed');
    const saved = JSON.parse(JSON.stringify(states.at(-1))) as FlowState;
    assert.deepEqual(saved.plan.steps.map((s) => s.status), ['completed', 'failed', 'pending']);
    assert.deepEqual(saved, failed.state);

    const second = flowModel({
      'step:Note B': [call('write_file', { path: 'b.md', content: 'B\n' }), finish('Wrote b.md.')],
      'step:Note C': [call('write_file', { path: 'c.md', content: 'C\n' }), finish('Wrote c.md.')],
      updater: () => call('keep_plan', {}),
      report: REPORT,
    });
    const h2 = harness(second, { task: 'ignored' });
    const { task: _t, planMode: _p, review: _r, ...ports } = { ...h2.options, workspace: h1.workspace };
    const result = await retryStep({ ...ports, models: { default: second } }, saved, '2');
    assert.equal(result.outcome, 'finished', result.reason);
    assert.deepEqual(result.plan?.steps.map((s) => s.status), ['completed', 'completed', 'completed']);
    assert.equal(h1.workspace.text('c.md'), 'C\n');
    assert.equal(h2.of('plan_updated')[0]!.reason, 'retrying step "Note B"');
    // Step B's context carries step A's summary from the saved state.
    assert.match(JSON.stringify(requestsOf(second, 'step:Note B')[0]!.messages), /Wrote a\.md\./);
    assert.ok(result.state!.usage.totalTokens > saved.usage.totalTokens);

    await assert.rejects(retryStep({ ...ports, models: { default: second } }, result.state!, '1'), /only failed, blocked or skipped steps can be retried/);
    await assert.rejects(retryStep({ ...ports, models: { default: second } }, { ...saved, plan: { goal: '' } } as never, '2'), /saved flow state is invalid/);
  });

  it('skips a failed step when the updater says so and goes on; the task ends incomplete, naming the step', async () => {
    const model = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Note A': [finish('Wrote a.md.')],
      'step:Note B': [call('read_file', { path: 'nope.md' })],
      'step:Note C': [finish('Wrote c.md.')],
      updater: (request) => (/failed/.test(request.messages.at(-1)!.content) ? call('skip_step', { reason: 'b is optional' }) : call('keep_plan', {})),
      report: REPORT,
    });
    const h = harness(model, { task: 'Write the notes', planMode: 'always', limits: { maxTurnsPerStep: 1 } });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'incomplete', result.reason);
    assert.equal(result.reason, 'Steps not done: 2. "Note B" (skipped by the plan updater)');
    assert.deepEqual(result.plan?.steps.map((s) => s.status), ['completed', 'skipped', 'completed']);
    assert.ok(h.of('plan_updated').some((e) => e.reason === 'plan updated: skipped "Note B": b is optional'));
  });
});
