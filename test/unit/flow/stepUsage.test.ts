import assert from 'node:assert/strict';
import { flowStateFromEvents } from '../../../src/agent/flow/flowStateFromEvents';
import { runTask } from '../../../src/agent/flow/runTask';
import { usageReportDue, type StepSpend } from '../../../src/agent/flow/stepBudget';
import { compactTokens } from '../../../src/shared/compactTokens';
import { AgentEvent } from '../../../src/shared/events';
import { call, finish, flowModel, harness } from './flowHarness';

// Per-step budgets made visible: the core tells the views each budgeted step's spending
// (`step_usage`), the plan events carry the estimates, and `step_finished` says when the budget
// ended a step. These are the figures the plan views and the CLI show.

const usage = (totalTokens: number) => ({ promptTokens: totalTokens - 10, completionTokens: 10, totalTokens });

function plan(estimate: string | number) {
  return {
    goal: 'Describe the project',
    thought: 'Survey it, then write notes.',
    steps: [
      { title: 'Survey', description: 'List the files and say what each is for.', role: 'researcher', estimate },
      { title: 'Write notes', description: 'Write NOTES.md from the survey.', role: 'reporter' },
    ],
  };
}

const NOTES = {
  'step:Write notes': [call('write_file', { path: 'NOTES.md', content: 'Notes.\n' }), finish('Wrote NOTES.md.')],
  report: [call('write_report', { summary: 'Described the project.', findings: [], verification: '', left: [] })],
};

describe('step budgets in the event stream', () => {
  const ok = (spent: number): StepSpend => ({ spent, level: 'ok' });
  const rows: { name: string; last: StepSpend | undefined; now: StepSpend; final?: boolean; due: boolean }[] = [
    { name: 'the first figure (the step starts)', last: undefined, now: ok(0), due: true },
    { name: 'growth of 2% of the budget', last: ok(1_000), now: ok(1_200), due: true },
    { name: 'growth under 2% of the budget', last: ok(1_000), now: ok(1_199), due: false },
    { name: 'no growth', last: ok(1_000), now: ok(1_000), due: false },
    { name: 'a level change however small the growth', last: ok(7_999), now: { spent: 8_000, level: 'low' }, due: true },
    { name: 'the step stopped (over)', last: { spent: 9_000, level: 'low' }, now: { spent: 9_001, level: 'over' }, due: true },
    { name: 'the end of the step with a small change', last: ok(1_000), now: ok(1_001), final: true, due: true },
    { name: 'the end of the step with nothing new', last: ok(1_000), now: ok(1_000), final: true, due: false },
  ];
  for (const row of rows) {
    it(`reports step usage on ${row.name}: ${row.due ? 'yes' : 'no'} (budget 10k)`, () => {
      assert.equal(usageReportDue(row.last, row.now, 10_000, row.final), row.due);
    });
  }

  it('reports at least a whole token of growth even for a tiny budget', () => {
    assert.equal(usageReportDue(ok(10), ok(10.5), 20), false);
    assert.equal(usageReportDue(ok(10), ok(11), 20), true);
  });

  const figures: [number, string][] = [
    [0, '0'], [-5, '0'], [Number.NaN, '0'], [Number.POSITIVE_INFINITY, '0'], [1, '1'], [849.6, '850'], [999, '999'],
    [1_000, '1k'], [1_234, '1.2k'], [9_949, '9.9k'], [9_950, '10k'], [12_400, '12k'], [40_000, '40k'],
    [120_000, '120k'], [999_499, '999k'], [999_500, '1M'], [1_500_000, '1.5M'], [12_345_678, '12.3M'],
  ];
  for (const [count, shown] of figures) {
    it(`shows ${count} tokens as "${shown}"`, () => assert.equal(compactTokens(count), shown));
  }

  it('tells a budgeted step\'s spending as it goes: at the start, throttled, when it runs low, and the last figure at its end', async () => {
    const model = flowModel({
      planner: [call('create_plan', plan(10_000))],
      'step:Survey': [
        call('list_files', { path: '.' }, usage(3000)),
        call('list_files', { path: '.' }, usage(3000)),
        // +100 is under 2% of 10k: not worth an event of its own.
        call('read_file', { path: 'a.ts' }, usage(100)),
        call('list_files', { path: '.' }, usage(3000)),
        call('read_file', { path: 'a.ts' }, usage(300)),
        finish('a.ts is the entry point.', usage(50)),
      ],
      updater: () => call('keep_plan', {}),
      ...NOTES,
    });
    const h = harness(model, { task: 'Describe the project', planMode: 'always', files: { 'a.ts': 'export {};\n' } });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);

    assert.deepEqual(h.of('step_usage').map((e) => [e.stepId, e.spent, e.budget, e.level]), [
      ['1', 0, 10_000, 'ok'],
      ['1', 3000, 10_000, 'ok'],
      ['1', 6000, 10_000, 'ok'],
      ['1', 9100, 10_000, 'low'],
      ['1', 9400, 10_000, 'low'],
      // The finish call's 50 tokens come with the end of the step.
      ['1', 9450, 10_000, 'low'],
    ]);
    const order = h.events.map((e) => e.type).filter((t) => t === 'step_started' || t === 'step_usage' || t === 'step_finished');
    assert.deepEqual(order.slice(0, 8), ['step_started', 'step_usage', 'step_usage', 'step_usage', 'step_usage', 'step_usage', 'step_usage', 'step_finished']);
    assert.equal(h.of('step_finished')[0]!.budgetReached, undefined, 'a step that finished was not ended by its budget');
    assert.equal(h.of('step_finished').length, 2, 'the step without an estimate sends no step_usage');
  });

  it('says a step was ended by its budget, with the figure past it, and carries estimates through the schema and resume', async () => {
    const model = flowModel({
      planner: [call('create_plan', plan('12000'))],
      'step:Survey': [
        call('list_files', { path: '.' }, usage(5000)),
        call('list_files', { path: '.' }, usage(5000)),
        call('list_files', { path: '.' }, usage(5000)),
        finish('never reached'),
      ],
      updater: (request) => (/failed/.test(request.messages.at(-1)!.content) ? call('skip_step', { reason: 'enough is known' }) : call('keep_plan', {})),
      ...NOTES,
    });
    const h = harness(model, { task: 'Describe the project', planMode: 'always' });
    await runTask(h.options);

    assert.deepEqual(h.of('step_usage').map((e) => [e.spent, e.level]), [[0, 'ok'], [5000, 'ok'], [10_000, 'low'], [15_000, 'over']]);
    const finished = h.of('step_finished')[0]!;
    assert.deepEqual([finished.stepId, finished.status, finished.budgetReached], ['1', 'failed', true]);

    // What views and history get is the parsed event: estimates, figures and the flag survive it.
    const parsed = h.events.map((e) => AgentEvent.parse(e));
    assert.deepEqual(parsed, h.events);
    const created = parsed.find((e) => e.type === 'plan_created');
    assert.deepEqual(created?.type === 'plan_created' && created.steps.map((s) => s.estimate), [12_000, undefined]);
    assert.deepEqual(flowStateFromEvents(parsed)?.state.plan.steps.map((s) => s.estimate), [12_000, undefined], 'a resumed task keeps its budgets');
    // A skip is a plan change but not a re-plan: the stored task counts re-plans as the live one did.
    const skipped = parsed.find((e) => e.type === 'plan_updated');
    assert.deepEqual(skipped?.type === 'plan_updated' && skipped.change, { kind: 'skipped', step: 'Survey', why: 'enough is known' });
    assert.equal(flowStateFromEvents(parsed)?.state.replans, 0);
  });
});
