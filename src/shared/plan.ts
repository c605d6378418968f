import { z } from 'zod';
import { StepStatus } from './events';

/** Which team member runs a step: `coder` edits and runs, `researcher` only reads, `reporter` writes documents, `analyst` works on data in Python. */
export const StepRole = z.enum(['coder', 'researcher', 'reporter', 'browser', 'analyst']);
export type StepRole = z.infer<typeof StepRole>;

/** One step of a plan; the same fields as the `PlanStep` of plan events (there `role` is any string). */
export const PlanStep = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  description: z.string(),
  role: StepRole,
  /** A custom role's name (`.stepwise/agents/…`): the step runs with that role's tools and prompt; `role` is then `coder`. */
  agent: z.string().optional(),
  status: StepStatus,
  /** The planner's size estimate in effective tokens; the step's own token budget (none when absent). */
  estimate: z.number().int().positive().optional(),
});
export type PlanStep = z.infer<typeof PlanStep>;

/** A plan: the goal never changes once made; steps run in order. */
export const Plan = z.object({
  goal: z.string().min(1),
  thought: z.string(),
  steps: z.array(PlanStep).min(1),
});
export type Plan = z.infer<typeof Plan>;

/** Statuses after which a step is history: the plan updater may not change such a step. */
export const DONE_STATUSES: readonly StepStatus[] = ['completed', 'failed', 'skipped'];

/** True when the step has run (or was skipped) and so can no longer be revised. */
export function isDone(step: Pick<PlanStep, 'status'>): boolean {
  return DONE_STATUSES.includes(step.status);
}
