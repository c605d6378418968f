import type { AgentEvent, PlanChange } from '../../shared/events';
import type { Plan } from '../../shared/plan';
import type { FlowState } from './flowState';
import type { Transition, UpdateDecision } from './flowTypes';
import type { Ending } from './reporter';

function next(state: FlowState, change: (draft: FlowState) => AgentEvent[] | void, ending?: Ending): Transition {
  const draft = structuredClone(state);
  const events = change(draft) ?? [];
  return { state: draft, events, ...(ending ? { ending } : {}) };
}

function stepOf(state: FlowState, stepId: string) {
  const step = state.plan.steps.find((s) => s.id === stepId);
  if (!step) throw new Error(`the plan has no step ${stepId}`);
  return step;
}

const planUpdated = (state: FlowState, reason: string, change: PlanChange): AgentEvent => ({ type: 'plan_updated', reason, change, steps: structuredClone(state.plan.steps) });

/** The state of a new plan (no step run yet). */
export function initialState(fields: Pick<FlowState, 'task' | 'language' | 'plan' | 'research' | 'usage'>): Transition {
  const state: FlowState = { v: 1, notes: {}, replans: 0, changedFiles: [], ...fields };
  if (state.research === undefined) delete state.research;
  return { state, events: [{ type: 'plan_created', goal: state.plan.goal, thought: state.plan.thought, steps: structuredClone(state.plan.steps) }] };
}

/** A stored plan taken up again (resume): the new run tells its views the plan as it stands. */
export function restoredState(state: FlowState): Transition {
  return next(state, (draft) => [{ type: 'plan_created', goal: draft.plan.goal, thought: draft.plan.thought, steps: structuredClone(draft.plan.steps) }]);
}

/** The plan the user edited in review replaces the planned one. */
export function applyReviewedPlan(state: FlowState, plan: Plan): Transition {
  return next(state, (draft) => {
    draft.plan = structuredClone(plan);
    // Steps the user skipped in the review: the user chose, and the ending says the task left them undone.
    for (const step of draft.plan.steps) if (step.status === 'skipped') draft.skippedBy = { ...draft.skippedBy, [step.id]: 'user' };
    return [planUpdated(draft, 'plan edited in review', { kind: 'edited' })];
  });
}

/** A step starts running. */
export function applyStepStart(state: FlowState, stepId: string): Transition {
  return next(state, (draft) => {
    stepOf(draft, stepId).status = 'in_progress';
    return [{ type: 'step_started', stepId }];
  });
}

/** A step ended: its status and its one-paragraph note (summary, or why it failed); `budgetReached` when its token budget ended it. */
export function applyStepResult(state: FlowState, stepId: string, result: { status: 'completed' | 'failed' | 'stopped'; summary: string; budgetReached?: boolean }): Transition {
  return next(state, (draft) => {
    stepOf(draft, stepId).status = result.status;
    draft.notes[stepId] = result.summary;
    return [{ type: 'step_finished', stepId, status: result.status, summary: result.summary, ...(result.budgetReached ? { budgetReached: true as const } : {}) }];
  });
}

/** A step goes back to pending to run again: the user's retry, or a resume. */
export function applyRetry(state: FlowState, stepId: string, why: 'retrying' | 'resuming'): Transition {
  return next(state, (draft) => {
    const step = stepOf(draft, stepId);
    step.status = 'pending';
    delete draft.notes[stepId];
    return [planUpdated(draft, `${why} step "${step.title}"`, { kind: why, step: step.title })];
  });
}

/** The plan updater's decision after a step; `ending` is set when the task must stop. */
export function applyDecision(state: FlowState, stepId: string, decision: UpdateDecision): Transition {
  const title = stepOf(state, stepId).title;
  switch (decision.kind) {
    case 'keep':
      return { state, events: decision.notice ? [{ type: 'notice', level: 'warning', code: 'other', message: decision.notice }] : [] };
    case 'update':
      return next(state, (draft) => {
        draft.plan = structuredClone(decision.plan);
        draft.replans++;
        const notices: AgentEvent[] = decision.notices.map((message) => ({ type: 'notice', level: 'warning', code: 'other', message }));
        return [...notices, planUpdated(draft, `plan updated: ${decision.reason}`, { kind: 'revised', why: decision.reason })];
      });
    case 'split':
      return next(state, (draft) => {
        draft.plan = structuredClone(decision.plan);
        // The work goes on in the new steps: the step that ran out is history, not a failure of the task.
        stepOf(draft, stepId).status = 'skipped';
        draft.skippedBy = { ...draft.skippedBy, [stepId]: 'split' };
        draft.notes[stepId] = `${draft.notes[stepId] ?? ''} Split into smaller steps: ${decision.reason}`.trim();
        draft.replans++;
        const notices: AgentEvent[] = decision.notices.map((message) => ({ type: 'notice', level: 'warning', code: 'other', message }));
        return [...notices, planUpdated(draft, `plan updated: split "${title}" (step budget reached): ${decision.reason}`, { kind: 'split', step: title, why: decision.reason })];
      });
    case 'retry':
      return next(state, (draft) => {
        const step = stepOf(draft, stepId);
        step.status = 'pending';
        step.description = decision.description;
        if (decision.title) step.title = decision.title;
        delete draft.notes[stepId];
        draft.replans++;
        return [planUpdated(draft, `plan updated: retry "${step.title}" differently: ${decision.reason}`, { kind: 'retry_differently', step: step.title, why: decision.reason })];
      });
    case 'skip':
      return next(state, (draft) => {
        stepOf(draft, stepId).status = 'skipped';
        draft.skippedBy = { ...draft.skippedBy, [stepId]: 'updater' };
        draft.notes[stepId] = `${draft.notes[stepId] ?? ''} Skipped: ${decision.reason}`.trim();
        return [planUpdated(draft, `plan updated: skipped "${title}": ${decision.reason}`, { kind: 'skipped', step: title, why: decision.reason })];
      });
    case 'stop':
      return { state, events: [], ending: { outcome: 'failed', reason: `Stopped after step "${title}" failed: ${decision.reason}` } };
  }
}
