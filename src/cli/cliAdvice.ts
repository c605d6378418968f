import type { ErrorCode } from '../shared/errorKinds';
import type { PlanChange, RunOutcome } from '../shared/events';

/** What an error means, in plain words, and what to do next in a terminal (`{id}`: the task id for `stepwise resume`). */
const ERRORS: Record<ErrorCode, { words: string; next: string }> = {
  auth: { words: 'The endpoint refused the API key', next: 'Set the key (OPENAI_API_KEY or STEPWISE_API_KEY) for this endpoint, then run the task again.' },
  rate_limit: { words: 'The provider is rate limiting requests', next: 'Wait a minute and run it again, or pick another model with --model.' },
  context_length: { words: 'The conversation no longer fits the model’s context window', next: 'Run a shorter task or attach less; if the window is known wrong, set it with --context-window.' },
  interrupted: { words: 'The connection to the model dropped in the middle of its answer', next: 'Continue with: stepwise resume {id}' },
  bad_request: { words: 'The endpoint rejected the request', next: 'Check --model and --base-url; the reason above has the server’s answer.' },
  unavailable: { words: 'The model’s server did not answer (down or unreachable)', next: 'Check that the server runs and --base-url is right, then run it again.' },
  server_error: { words: 'The model’s server answered with an error', next: 'Run it again in a moment; if it keeps failing, check the server’s log or pick another model with --model.' },
  model: { words: 'The model call failed', next: 'Run it again; if it fails again, the reason above has the details.' },
  length: { words: 'The model’s answer was cut off at its output limit', next: 'Continue with: stepwise resume {id} "<a smaller next piece>"' },
  content_filter: { words: 'The provider’s content filter stopped the answer', next: 'Rephrase the task and run it again.' },
  invalid_plan: { words: 'The edited plan could not be used', next: 'Run the task again and check the plan’s steps in the review.' },
  report_not_saved: { words: 'The report could not be saved', next: 'Check that the workspace folder is writable.' },
  internal: { words: 'Something went wrong inside Stepwise (a bug)', next: 'Please report it with the output above; running it again may work.' },
};

/** Each outcome in plain words (the CLI's last line names the outcome, never its code). */
const OUTCOME_WORDS: Record<RunOutcome, string> = {
  finished: 'Finished',
  failed: 'Failed',
  cancelled: 'Cancelled',
  step_limit: 'Stopped at the turn limit',
  stuck: 'Stopped: the agent was going in circles',
  budget: 'Stopped: the budget is used up',
  internal: 'Stopped by an internal error',
  incomplete: 'Incomplete: not every step ran',
  unverified: 'Unverified: the checks did not pass',
};

/** An outcome in plain words. */
export function outcomeWordsCli(outcome: RunOutcome): string {
  return OUTCOME_WORDS[outcome];
}

/** What to do next after a run ended this way without an error of its own; none after success. */
const OUTCOMES: Record<RunOutcome, string | undefined> = {
  finished: undefined,
  failed: 'Continue with more guidance: stepwise resume {id} "<what to do>"',
  cancelled: 'Continue where it stopped: stepwise resume {id}',
  step_limit: 'Continue with: stepwise resume {id} (or raise --max-steps)',
  stuck: 'Point it in another direction: stepwise resume {id} "<a different approach>"',
  budget: 'Continue (a follow-up gets the budget afresh) with: stepwise resume {id}, or raise --token-budget / --cost-budget',
  internal: ERRORS.internal.next,
  incomplete: 'Continue the steps that did not run: stepwise resume {id}',
  unverified: 'Fix what the checks found: stepwise resume {id} "fix the failing checks"',
};

/** The plain words for an error `code`; a generic sentence for a code this CLI does not know (never the code itself). */
export function errorWordsCli(code: string): string {
  return code in ERRORS ? ERRORS[code as ErrorCode].words : 'Error';
}

/** The next action after a run ended with `outcome` (and the error `code` that ended it, if any); undefined after success. */
export function nextActionCli(outcome: RunOutcome, code: string | undefined, taskId: string): string | undefined {
  const next = code !== undefined && code in ERRORS ? ERRORS[code as ErrorCode].next : OUTCOMES[outcome];
  return next?.replaceAll('{id}', taskId);
}

/** A plan update as the CLI says it: from its `change`, else (older histories) its reason without a repeated "plan updated:". */
export function planChangeCli(event: { reason: string; change?: PlanChange }): string {
  const c = event.change;
  if (!c) return `Plan updated: ${event.reason.replace(/^plan updated:\s*/i, '')}`;
  switch (c.kind) {
    case 'edited':
      return 'Plan edited in review';
    case 'revised':
      return `Plan revised: ${c.why ?? ''}`;
    case 'split':
      return `Split "${c.step ?? ''}" into smaller steps (its token budget ran out): ${c.why ?? ''}`;
    case 'retry_differently':
      return `Trying "${c.step ?? ''}" again, differently: ${c.why ?? ''}`;
    case 'skipped':
      return `Skipped "${c.step ?? ''}": ${c.why ?? ''}`;
    case 'retrying':
      return `Retrying "${c.step ?? ''}"`;
    case 'resuming':
      return `Resuming at "${c.step ?? ''}"`;
  }
}

/** ", ran 1.3 s, waited for you 96.7 s": the run's time apart from the time it waited for the user; empty when the event has no times. */
export function durationsCli(event: { runningMs?: number; waitingMs?: number }): string {
  if (event.runningMs === undefined) return '';
  const waited = event.waitingMs ? `, waited for you ${(event.waitingMs / 1000).toFixed(1)} s` : '';
  return ` (ran ${(event.runningMs / 1000).toFixed(1)} s${waited})`;
}
