import type { ErrorCode } from '../../shared/errorKinds';
import type { RunOutcome } from '../../shared/events';
import { errorMessage, isCancellation } from '../errors';
import { ContextLengthError, ModelError } from '../model/modelErrors';
import type { StopCause } from './endingFacts';

/** What was already known to have stopped the task when an error arrived. */
export interface KnownStops {
  /** The user pressed Stop (the task's own signal). */
  user: boolean;
  /** Why the task's budget stopped it, when it did. */
  budget?: string;
}

/**
 * The one mapping from a thrown error to what stopped the run (used by the agent loop, the plan
 * runner and the task wrapper alike): the user's Stop first (a cancellation, or any error after
 * Stop), then the budget, then a model failure (`provider`, with its code), else a bug (`internal`).
 */
export function stopCauseFromError(error: unknown, known: KnownStops): StopCause {
  if (known.user || (isCancellation(error) && known.budget === undefined)) return { kind: 'user' };
  if (known.budget !== undefined) return { kind: 'budget', reason: known.budget };
  if (error instanceof ModelError) {
    const reason =
      error instanceof ContextLengthError
        ? `the conversation does not fit the model's context window, even after eliding older tool outputs (${error.message})`
        : error.message;
    return { kind: 'provider', reason, code: error.code as ErrorCode };
  }
  return { kind: 'internal', reason: `internal error: ${errorMessage(error)}` };
}

/** What stopped an inner agent run, from its own outcome; `undefined` when it finished. */
export function stopCauseOfRun(outcome: RunOutcome, reason: string | undefined, known: KnownStops): StopCause | undefined {
  if (known.user) return { kind: 'user' };
  if (known.budget !== undefined && outcome !== 'finished') return { kind: 'budget', reason: known.budget };
  const why = reason ?? outcome;
  switch (outcome) {
    case 'finished':
    case 'incomplete':
    case 'unverified':
      return undefined;
    case 'cancelled':
      return { kind: 'user', ...(reason ? { reason } : {}) };
    case 'budget':
      return { kind: 'budget', reason: why };
    case 'step_limit':
      return { kind: 'turn_limit', reason: why };
    case 'stuck':
      return { kind: 'stuck', reason: why };
    case 'failed':
      return { kind: 'provider', reason: why };
    case 'internal':
      return { kind: 'internal', reason: why };
  }
}
