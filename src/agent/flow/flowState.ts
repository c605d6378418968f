import { z } from 'zod';
import { Usage } from '../../shared/events';
import { Plan, type PlanStep } from '../../shared/plan';

/**
 * What a planned task knows between steps; serialisable so a host can save it and later re-run a
 * failed step with `retryStep`. `notes` holds each step's one-paragraph summary (or why it failed).
 */
export const FlowState = z.object({
  v: z.literal(1),
  task: z.string(),
  language: z.enum(['zh', 'ja', 'ko', 'en']),
  plan: Plan,
  notes: z.record(z.string(), z.string()),
  replans: z.number().int().nonnegative(),
  changedFiles: z.array(z.string()),
  /** Who skipped each skipped step (the ending counts a step the updater or the user skipped as not done; a split one as replaced). */
  skippedBy: z.record(z.string(), z.enum(['updater', 'user', 'split'])).optional(),
  /** Summary of the look-first pass, if one ran. */
  research: z.string().optional(),
  usage: Usage,
});
export type FlowState = z.infer<typeof FlowState>;

/** A fresh id for a new step: one past the largest numeric id, never colliding. */
export function nextStepId(steps: readonly Pick<PlanStep, 'id'>[]): string {
  const ids = new Set(steps.map((s) => s.id));
  let n = Math.max(0, ...steps.map((s) => Number(s.id)).filter(Number.isInteger)) + 1;
  while (ids.has(String(n))) n++;
  return String(n);
}

/** Deep copy of a state, so callers cannot mutate the running flow. */
export function cloneState(state: FlowState): FlowState {
  return structuredClone(state);
}
