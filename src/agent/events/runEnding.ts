import type { AgentEvent, RunOutcome } from '../../shared/events';
import { stateForOutcome } from '../../shared/outcomeClass';
import { errorMessage } from '../errors';
import type { EventStream } from './eventStream';

/** How a run (an agent run or a whole task) ended, as the core reports it. */
export interface RunEnding {
  outcome: RunOutcome;
  summary?: string;
  reason?: string;
  /** Turns of every agent run inside it. */
  turns: number;
  /** Plan steps completed; only when a plan ran. */
  stepsCompleted?: number;
  /** Checks that failed after the last change (the facts behind `unverified`). */
  failedChecks?: { command: string; exitCode: number | null }[];
  /** Time running and time waiting for the user, apart. */
  runningMs?: number;
  waitingMs?: number;
}

/**
 * The one place a run ends: emits the final `state` and `run_finished`. Does nothing when the
 * stream already finished, so a run can never show two outcomes.
 */
export function endRun(events: EventStream, ending: RunEnding): void {
  if (events.finished) return;
  events.emit({ type: 'state', state: stateForOutcome(ending.outcome) });
  const event: AgentEvent = {
    type: 'run_finished',
    outcome: ending.outcome,
    ...(ending.summary !== undefined && ending.summary !== '' ? { summary: ending.summary } : {}),
    ...(ending.reason !== undefined ? { reason: ending.reason } : {}),
    turns: ending.turns,
    ...(ending.stepsCompleted !== undefined ? { stepsCompleted: ending.stepsCompleted } : {}),
    ...(ending.failedChecks?.length ? { failedChecks: ending.failedChecks } : {}),
    ...(ending.runningMs !== undefined ? { runningMs: ending.runningMs } : {}),
    ...(ending.waitingMs !== undefined ? { waitingMs: ending.waitingMs } : {}),
  };
  events.emit(event);
}

/**
 * Ends a run that failed with an unexpected error (a bug, ours or an adapter's) as outcome
 * `internal`: one `error` event and one `run_finished`. Shells call it only for errors thrown
 * before the core took over the run; it does nothing once the run has finished.
 */
export function endRunWithInternalError(events: EventStream, error: unknown, turns = 0): RunEnding {
  const message = errorMessage(error);
  const ending: RunEnding = { outcome: 'internal', reason: `internal error: ${message}`, turns };
  if (events.finished) return ending;
  events.emit({ type: 'error', code: 'internal', message });
  endRun(events, ending);
  return ending;
}
