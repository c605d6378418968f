import { z } from 'zod';
import type { AgentState, RunOutcome } from './events';

// How every shell reads a run's outcome, declared once: the CLI's exit code, the webview's badge
// and buttons, the status bar and the history all derive from these exhaustive tables, so no shell
// classifies an outcome on its own (one used to call `incomplete` failed, another offered Retry
// after the user's own Stop).

/** What an outcome means to the user: the work is done, partly done, the user stopped it, or it failed. */
export const OutcomeClass = z.enum(['done', 'partial', 'stopped', 'failed']);
export type OutcomeClass = z.infer<typeof OutcomeClass>;

/**
 * The class of each outcome. `partial`: the work ran but is not all there (`incomplete`: a step did
 * not run or was skipped; `unverified`: a check failed after the last change). `stopped`: the user
 * stopped it (never "failed"). Limits (budget, turn limit) and a loop end the run without its work
 * done, so they are failures the user can continue from (see `OUTCOME_ACTIONS`).
 */
export const OUTCOME_CLASS: Record<RunOutcome, OutcomeClass> = {
  finished: 'done',
  incomplete: 'partial',
  unverified: 'partial',
  cancelled: 'stopped',
  failed: 'failed',
  step_limit: 'failed',
  stuck: 'failed',
  budget: 'failed',
  internal: 'failed',
};

/** The CLI's exit code per class: 0 done, 3 partial, 130 stopped (as for SIGINT), 1 failed. */
export const EXIT_CODE_OF_CLASS: Record<OutcomeClass, number> = { done: 0, partial: 3, stopped: 130, failed: 1 };

/** The lifecycle state a run ends in per class (`state` event); badges read the class, not this. */
const STATE_OF_CLASS: Record<OutcomeClass, AgentState> = { done: 'FINISHED', partial: 'FAILED', stopped: 'CANCELLED', failed: 'FAILED' };

/** How a class looks: the badge's tone and icon (the webview's card, the status bar's message kind). */
export const OUTCOME_BADGE: Record<OutcomeClass, { tone: 'ok' | 'warning' | 'neutral' | 'error'; icon: 'check' | 'warning' | 'stop' | 'cross' }> = {
  done: { tone: 'ok', icon: 'check' },
  partial: { tone: 'warning', icon: 'warning' },
  stopped: { tone: 'neutral', icon: 'stop' },
  failed: { tone: 'error', icon: 'cross' },
};

/** What a user can do after an outcome, in the order offered. */
export const OutcomeAction = z.enum(['resume', 'retry_task', 'open_settings', 'show_log']);
export type OutcomeAction = z.infer<typeof OutcomeAction>;

/**
 * The actions each outcome offers. Retry (the task again from scratch) only where the run failed
 * before doing its work (a model or internal failure); everything that stopped part way, the
 * user's Stop included, offers Continue (resume) so no work is thrown away.
 */
export const OUTCOME_ACTIONS: Record<RunOutcome, readonly OutcomeAction[]> = {
  finished: [],
  incomplete: ['resume'],
  unverified: ['resume'],
  cancelled: ['resume'],
  budget: ['resume', 'open_settings'],
  step_limit: ['resume', 'open_settings'],
  stuck: ['resume', 'show_log'],
  failed: ['retry_task', 'show_log'],
  internal: ['retry_task', 'show_log'],
};

/** The class of `outcome`. */
export function outcomeClass(outcome: RunOutcome): OutcomeClass {
  return OUTCOME_CLASS[outcome];
}

/** The CLI's exit code for `outcome` (from its class). */
export function exitCodeForOutcome(outcome: RunOutcome): number {
  return EXIT_CODE_OF_CLASS[OUTCOME_CLASS[outcome]];
}

/** The lifecycle state a run ends in for each outcome: the one mapping shells and webviews use. */
export function stateForOutcome(outcome: RunOutcome): AgentState {
  return STATE_OF_CLASS[OUTCOME_CLASS[outcome]];
}
