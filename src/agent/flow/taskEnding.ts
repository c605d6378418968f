import type { RunOutcome } from '../../shared/events';
import { decideEnding, type DecidedEnding } from '../ending/decideEnding';
import type { StepFact } from '../ending/endingFacts';
import { stopCauseOfRun, type KnownStops } from '../ending/stopCause';
import type { FlowContext } from './flowContext';
import type { FlowState } from './flowState';

/** What the task's body ended with before the ending is decided: an inner run's or the plan runner's outcome. */
export interface RawEnding {
  outcome: RunOutcome;
  reason?: string;
}

/** What is already known to have stopped the task: the user's Stop, the budget. */
export function knownStops(ctx: FlowContext): KnownStops {
  return { user: ctx.options.signal.aborted, ...(ctx.budget.exceeded ? { budget: ctx.budget.reason() } : {}) };
}

/**
 * The task's ending from the facts: what stopped it (known stops first, then the body's own
 * outcome), the plan's steps with who skipped them, and the checks after the last change. Every
 * route calls it through `settle` (and the plan runner, for the report, with the same facts).
 */
export function taskEnding(ctx: FlowContext, route: 'direct' | 'plan', state: FlowState | undefined, raw: RawEnding): DecidedEnding {
  const stop = stopCauseOfRun(raw.outcome, raw.reason, knownStops(ctx));
  return decideEnding({
    route,
    ...(stop ? { stop } : {}),
    ...(state ? { steps: stepFacts(state) } : {}),
    checksAfterLastChange: ctx.guards.evidence.checksAfterLastChange(),
  });
}

/** The plan's steps as the ending sees them. */
export function stepFacts(state: FlowState): StepFact[] {
  return state.plan.steps.map((s) => {
    const by = state.skippedBy?.[s.id];
    return { title: s.title, status: s.status, ...(s.status === 'skipped' && by ? { skippedBy: by } : {}) };
  });
}
