import { Plan, type PlanStep } from '../../shared/plan';
import type { PlanStepDraft } from '../../shared/webviewProtocol';
import { describeIssues } from '../tools/toolRegistry';
import { nextStepId } from './flowState';

/** A reviewed plan ready to run, or why it cannot run. */
export type Reviewed = { ok: true; plan: Plan; notices: string[] } | { ok: false; error: string };

/**
 * Checks the plan a reviewer handed back (the user may have edited it): it must match the Plan
 * schema; ids are made unique; steps start `pending` unless the user skipped or blocked them; at
 * most `maxSteps` steps are kept (with a notice). A step of `original` that comes back without its
 * estimate (a view that does not carry it) keeps it.
 */
export function acceptReviewedPlan(reviewed: unknown, maxSteps: number, original?: Plan): Reviewed {
  const parsed = Plan.safeParse(reviewed);
  if (!parsed.success) return { ok: false, error: `The reviewed plan is invalid: ${describeIssues(parsed.error)}.` };
  const notices: string[] = [];
  const steps: PlanStep[] = [];
  for (const step of parsed.data.steps) {
    const id = steps.some((s) => s.id === step.id) ? nextStepId([...parsed.data.steps, ...steps]) : step.id;
    const status = step.status === 'skipped' || step.status === 'blocked' ? step.status : 'pending';
    const estimate = step.estimate ?? (id === step.id ? original?.steps.find((s) => s.id === id)?.estimate : undefined);
    steps.push({ ...step, id, status, ...(estimate ? { estimate } : {}) });
  }
  if (steps.length > maxSteps) {
    notices.push(`The reviewed plan had ${steps.length} steps; kept the first ${maxSteps} (the step limit).`);
    steps.length = maxSteps;
  }
  return { ok: true, plan: { ...parsed.data, steps }, notices };
}

/**
 * Turns the steps a user edited in review (a webview's drafts) into a plan: kept steps keep their
 * ids, new ones get fresh ids, all start pending. `runTask` then checks it with `acceptReviewedPlan`.
 */
export function planFromDrafts(original: Plan, drafts: readonly PlanStepDraft[]): Plan {
  const steps: PlanStep[] = [];
  for (const draft of drafts) {
    const known = draft.id !== undefined && !steps.some((s) => s.id === draft.id);
    const id = known ? draft.id! : nextStepId([...original.steps, ...steps]);
    // A kept step keeps what the view does not carry (its estimate), so an untouched plan stays the same plan.
    const before = known ? original.steps.find((s) => s.id === id) : undefined;
    const { agent, ...kept } = before ?? {};
    // A custom role stays with its step unless the user picked another role for it.
    const stillAgent = agent && before?.role === draft.role ? { agent } : {};
    steps.push({ ...kept, ...stillAgent, id, title: draft.title, description: draft.description, role: draft.role, status: 'pending' });
  }
  return { goal: original.goal, thought: original.thought, steps };
}

/**
 * True when `reviewed` is the plan the user was shown, field by field (goal, and each step's id,
 * title, description, role, status and estimate, in order; key order and surrounding spaces aside):
 * only a real edit is "edited in review".
 */
export function samePlan(shown: Plan, reviewed: Plan): boolean {
  if (shown.goal !== reviewed.goal || shown.steps.length !== reviewed.steps.length) return false;
  return shown.steps.every((a, i) => {
    const b = reviewed.steps[i]!;
    // The view trims what it sends back: spaces around a title or description are not an edit.
    const text = (x: string, y: string) => x.trim() === y.trim();
    return a.id === b.id && text(a.title, b.title) && text(a.description, b.description) && a.role === b.role && a.agent === b.agent && a.status === b.status && a.estimate === b.estimate;
  });
}
