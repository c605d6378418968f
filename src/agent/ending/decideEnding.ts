import type { RunOutcome } from '../../shared/events';
import type { CheckFact, EndingFacts, StepFact, StopCause } from './endingFacts';

/** How a run ends: the outcome, why (in words), and the facts it rests on for the shells to show. */
export interface DecidedEnding {
  outcome: RunOutcome;
  reason?: string;
  /** Checks that failed after the last change (the facts behind `unverified`). */
  failedChecks: CheckFact[];
}

const OUTCOME_OF_STOP: Record<StopCause['kind'], RunOutcome> = {
  user: 'cancelled',
  budget: 'budget',
  turn_limit: 'step_limit',
  stuck: 'stuck',
  provider: 'failed',
  tool_format: 'failed',
  plan: 'failed',
  internal: 'internal',
};

/** The outcome a stop cause ends a run with (also an inner agent run's own outcome). */
export function outcomeOfStop(stop: StopCause): RunOutcome {
  return OUTCOME_OF_STOP[stop.kind];
}

/**
 * The one place a task's ending is decided, for every route (direct, planned, follow-up, resume,
 * step retry). In order: what stopped it (the user's Stop is `cancelled`, never a failure; a limit,
 * a loop, the provider, a failed plan, a bug); then a plan step that did not run or was skipped by
 * the updater or the user (`incomplete`: the task did not do all it was asked; a step split into
 * smaller ones is not missing, its work went on in them); then the evidence: any check that ran
 * after the last change and failed makes it `unverified`, named with its exit code. Only then
 * `finished`. Pure: the same facts give the same ending.
 */
export function decideEnding(facts: EndingFacts): DecidedEnding {
  const failedChecks = facts.checksAfterLastChange.filter((c) => c.exitCode !== 0);
  if (facts.stop) return { outcome: OUTCOME_OF_STOP[facts.stop.kind], reason: stopWords(facts.stop), failedChecks };
  const missing = (facts.steps ?? []).map((step, index) => ({ step, number: index + 1 })).filter(({ step }) => notDone(step));
  const checks = failedChecks.length ? `; ${checkWords(failedChecks)}` : '';
  if (missing.length) {
    const list = missing.map(({ step, number }) => `${number}. "${step.title}" (${missingWords(step)})`).join(', ');
    return { outcome: 'incomplete', reason: `Steps not done: ${list}${checks}`, failedChecks };
  }
  if (failedChecks.length) return { outcome: 'unverified', reason: `Unverified: ${checkWords(failedChecks)}`, failedChecks };
  return { outcome: 'finished', failedChecks };
}

function stopWords(stop: StopCause): string {
  return stop.kind === 'user' ? (stop.reason ?? 'Stopped by the user.') : stop.reason;
}

/** A step that is not done: it never ran, is blocked, failed, or was skipped other than by a split. */
function notDone(step: StepFact): boolean {
  if (step.status === 'completed') return false;
  return !(step.status === 'skipped' && step.skippedBy === 'split');
}

function missingWords(step: StepFact): string {
  if (step.status === 'skipped') return step.skippedBy === 'user' ? 'skipped by you' : step.skippedBy === 'updater' ? 'skipped by the plan updater' : 'skipped';
  if (step.status === 'blocked') return 'blocked';
  if (step.status === 'failed') return 'failed';
  if (step.status === 'stopped') return 'stopped by you';
  return 'not run';
}

/** "`npm test` exited 1 after the last change" for each failed check. */
export function checkWords(checks: readonly CheckFact[]): string {
  return checks.map((c) => `\`${c.command.replace(/`/g, "'")}\` ${c.exitCode === null ? 'timed out or was killed' : `exited ${c.exitCode}`}`).join(', ') + ' after the last change';
}
