import type { AgentEventOf } from '../../src/shared/events';
import type { PlanStepView, RunView, StepItem, StepSpendView } from './viewModel';

/**
 * A revised plan's step with what the view knew of its earlier self: its summary, and its
 * spending unless it goes back to pending (it will run again, from zero).
 */
export function carriedStep(step: PlanStepView, old: PlanStepView | undefined): PlanStepView {
  const spend = step.status === 'pending' ? undefined : old?.spend;
  return { ...step, summary: old?.summary, ...(spend ? { spend } : {}) };
}

/** A `step_usage` event applied to the plan's step and to the step's latest section header. */
export function applyStepUsage(view: RunView, event: AgentEventOf<'step_usage'>): RunView {
  const spend: StepSpendView = { spent: event.spent, budget: event.budget, level: event.level };
  return withSpend(view, event.stepId, () => spend);
}

/** A step the core ended at its budget: its spending is marked `reached`. */
export function markBudgetReached(view: RunView, stepId: string): RunView {
  return withSpend(view, stepId, (spend) => (spend ? { ...spend, reached: true } : undefined));
}

function withSpend(view: RunView, stepId: string, change: (spend: StepSpendView | undefined) => StepSpendView | undefined): RunView {
  let next = view;
  const steps = view.plan?.steps;
  const at = steps?.findIndex((s) => s.id === stepId) ?? -1;
  if (steps && at >= 0) {
    const spend = change(steps[at]!.spend);
    if (spend) next = { ...next, plan: { ...next.plan!, steps: steps.map((s, i) => (i === at ? { ...s, spend } : s)) } };
  }
  const header = next.items.findLastIndex((item) => item.kind === 'step' && item.stepId === stepId);
  if (header >= 0) {
    const item = next.items[header] as StepItem;
    const spend = change(item.spend);
    if (spend) next = { ...next, items: next.items.map((it, i) => (i === header ? { ...item, spend } : it)) };
  }
  return next;
}
