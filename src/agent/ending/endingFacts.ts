import type { ErrorCode } from '../../shared/errorKinds';
import type { StepStatus } from '../../shared/events';

/**
 * What stopped a run before its work ran to the end; absent when nothing did. `user`: the user's
 * Stop; `budget` / `turn_limit`: a limit; `stuck`: the loop detector; `provider`: the model's
 * endpoint failed (or refused: content filter, cut-off answers); `tool_format`: the model kept
 * writing tool calls no parser reads, after corrections; `plan`: a step failed with no way on, or the
 * reviewed plan was unusable; `internal`: a bug.
 */
export type StopCause =
  | { kind: 'user'; reason?: string }
  | { kind: 'budget'; reason: string }
  | { kind: 'turn_limit'; reason: string }
  | { kind: 'stuck'; reason: string }
  | { kind: 'provider'; reason: string; code?: ErrorCode }
  | { kind: 'tool_format'; reason: string }
  | { kind: 'plan'; reason: string }
  | { kind: 'internal'; reason: string };

/** Who set a step `skipped`: the plan updater, the user (in the plan review), or a split into smaller steps (the work goes on in them). */
export type SkippedBy = 'updater' | 'user' | 'split';

/** A plan step as the ending sees it. */
export interface StepFact {
  title: string;
  status: StepStatus;
  skippedBy?: SkippedBy;
}

/** A check that ran after the last change: its command and exit code (`null`: timed out or killed). */
export interface CheckFact {
  command: string;
  exitCode: number | null;
}

/** Everything the ending is decided from. */
export interface EndingFacts {
  route: 'direct' | 'plan';
  stop?: StopCause;
  /** The plan's steps (plan route only). */
  steps?: readonly StepFact[];
  /** Checks that ran after the last change, in order (configured, detected, and the agent's own). */
  checksAfterLastChange: readonly CheckFact[];
}
