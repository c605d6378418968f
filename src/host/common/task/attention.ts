import type { AgentEvent, RunOutcome } from '../../../shared/events';

/** What deserves a notification while the user looks elsewhere: a finished run, or the agent waiting for them. */
export type Attention =
  | { kind: 'finished'; outcome: RunOutcome }
  | { kind: 'approval'; title: string }
  | { kind: 'question'; question: string };

/**
 * The notification an event calls for, or `undefined`. Only while the user is not looking
 * (`looking` false: the window is in the background or no Stepwise view is visible): a user who
 * is looking sees the panel and the status bar already.
 */
export function attentionFor(event: AgentEvent, looking: boolean): Attention | undefined {
  if (looking) return undefined;
  switch (event.type) {
    case 'run_finished':
      return { kind: 'finished', outcome: event.outcome };
    case 'approval_requested':
      return { kind: 'approval', title: event.title };
    case 'question_asked':
      return { kind: 'question', question: event.question };
    default:
      return undefined;
  }
}
