import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import { initialRunView, reduceAll } from '../../../webview-ui/src/reducer';
import type { RunView, StepItem } from '../../../webview-ui/src/viewModel';
import { budgetedRun, envelopes } from './envelopes';

const RUN = 'run-b';
const step = (id: string, title: string, estimate?: number) => ({ id, title, description: `do ${title}`, role: 'coder', status: 'pending' as const, ...(estimate ? { estimate } : {}) });
const spendOf = (view: RunView) => view.plan!.steps.map((s) => [s.id, s.estimate, s.spend && { ...s.spend }]);

describe('webview reducer: step budgets', () => {
  it('keeps each step\'s estimate, its latest spending and whether its budget ended it, on the plan and the step header', () => {
    const view = reduceAll(initialRunView(), envelopes(RUN, budgetedRun()));
    assert.deepEqual(spendOf(view), [
      ['1', 40_000, { spent: 33_000, budget: 40_000, level: 'low' }],
      ['2', 12_000, { spent: 15_000, budget: 12_000, level: 'over', reached: true }],
      ['4', 40_000, undefined],
      ['3', undefined, undefined],
    ]);
    const headers = view.items.filter((i): i is StepItem => i.kind === 'step');
    assert.deepEqual(headers.map((h) => [h.stepId, h.spend?.spent, h.spend?.reached]), [['1', 33_000, undefined], ['2', 15_000, true]]);
  });

  it('shows the live figure while the step runs', () => {
    const events = budgetedRun();
    const during = reduceAll(initialRunView(), envelopes(RUN, events.slice(0, 5)));
    assert.deepEqual(during.plan!.steps[0]!.spend, { spent: 33_000, budget: 40_000, level: 'low' });
    assert.equal(during.plan!.steps[0]!.status, 'in_progress');
  });

  it('gives a reloaded view the same figures: a replay from any point, or twice, ends the same', () => {
    const all = envelopes(RUN, budgetedRun());
    const live = reduceAll(initialRunView(), all);
    for (let cut = 0; cut <= all.length; cut++) {
      const before = reduceAll(initialRunView(), all.slice(0, cut));
      // A view that had `cut` envelopes asks for the rest; the hub may resend some it already has.
      const replayed = reduceAll(before, all.slice(Math.max(0, cut - 2)));
      assert.deepEqual(spendOf(replayed), spendOf(live), `cut at ${cut}`);
    }
  });

  it('clears a step\'s figures when it goes back to pending to run again, and counts afresh when it does', () => {
    const events: AgentEvent[] = [
      ...budgetedRun().slice(0, 6),
      { type: 'plan_updated', reason: 'retry', steps: [step('1', 'Survey', 40_000), step('2', 'Fix', 12_000), step('3', 'Notes')] },
    ];
    const retried = reduceAll(initialRunView(), envelopes(RUN, events));
    assert.equal(retried.plan!.steps[0]!.spend, undefined);
    const again = reduceAll(retried, envelopes(RUN, [{ type: 'step_started', stepId: '1' }, { type: 'step_usage', stepId: '1', spent: 0, budget: 38_000, level: 'ok' }], events.length));
    assert.deepEqual(again.plan!.steps[0]!.spend, { spent: 0, budget: 38_000, level: 'ok' });
  });
});
