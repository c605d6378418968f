import type { AgentEvent, RunOutcome } from '../../shared/events';
import type { Plan } from '../../shared/plan';
import type { FlowState } from './flowState';
import type { Ending } from './reporter';

// The types the plan's state, its updater and its step executor pass to one another, in a file of
// their own so none of those three imports another for a type (no import circles).

/**
 * One change of a planned task's state: the next state (a new object; the old one is untouched),
 * the events that tell the world about it, and an ending when the change stops the task.
 * `planRunner.commit` is the one place that adopts the state, emits the events and saves.
 */
export interface Transition {
  state: FlowState;
  events: AgentEvent[];
  ending?: Ending;
}

/** What the updater decided. */
export type UpdateDecision =
  | { kind: 'keep'; reason?: string; /** Set when the answer was unusable: tell the user. */ notice?: string }
  | { kind: 'update'; reason: string; plan: Plan; notices: string[] }
  /** The step ran out of its token budget: `plan` has new steps for the work it left right after it. */
  | { kind: 'split'; reason: string; plan: Plan; notices: string[] }
  | { kind: 'retry'; reason: string; title?: string; description: string }
  | { kind: 'skip'; reason: string }
  | { kind: 'stop'; reason: string };

/** How one step ended. */
export interface StepRun {
  status: 'completed' | 'failed' | 'stopped';
  /** The agent's one-paragraph summary, or why the step failed. */
  summary: string;
  outcome: RunOutcome;
  /** The step used up its own token budget (from the planner's estimate) before finishing. */
  budgetReached?: boolean;
}
