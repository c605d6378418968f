/**
 * Why a run ends: the words themselves, without a schema, so code that runs at the CLI's start (the
 * history list) can check them without loading zod (see src/shared/events.ts's `RunOutcome`).
 * `step_limit` and `stuck` are failures with a reason the user can act on.
 */
export const RUN_OUTCOMES = [
  'finished',
  'failed',
  'cancelled',
  'step_limit',
  'stuck',
  'budget',
  /** An unexpected error inside Stepwise (a bug), not the model's or a tool's failure. */
  'internal',
  /** A planned task whose steps did not all complete (blocked, never run). */
  'incomplete',
  /** The work was done but its checks failed or never passed. */
  'unverified',
] as const;

/** True for one of the RUN_OUTCOMES. */
export function isRunOutcome(value: unknown): value is (typeof RUN_OUTCOMES)[number] {
  return (RUN_OUTCOMES as readonly unknown[]).includes(value);
}
