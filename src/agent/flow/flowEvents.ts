import type { AgentEvent, Usage } from '../../shared/events';
import { EventStream } from '../events/eventStream';
import type { ChangeTracker } from './changeTracker';
import { addUsage, ZERO_USAGE } from '../loop/usage';
import type { TaskBudget } from './taskBudget';

/** Events of an inner run that only the task as a whole may emit. */
const TASK_LEVEL = new Set<AgentEvent['type']>(['run_started', 'run_finished', 'state']);

/** An inner run's stream and what it counted. */
export interface InnerStream {
  stream: EventStream;
  /** Usage the run reported through `usage` events. */
  counted(): Usage;
  /** Stops relaying. */
  close(): void;
}

/**
 * A stream for one inner `runAgent` (a step, the look-first pass, a direct run) that relays into the
 * task's stream: the task keeps one run_started / run_finished / state story, `usage` events are
 * counted against the task budget and re-emitted with the task's running total, and tool events
 * feed the change tracker.
 */
export function innerStream(parent: EventStream, budget: TaskBudget, tracker: ChangeTracker): InnerStream {
  const stream = new EventStream(parent.runId, undefined, undefined, parent.redactor);
  let counted = ZERO_USAGE;
  const unsubscribe = stream.subscribe(({ event }) => {
    if (TASK_LEVEL.has(event.type)) return;
    if (event.type === 'usage') {
      counted = addUsage(counted, event.usage);
      budget.add(event.usage);
      parent.emit({ type: 'usage', usage: event.usage, total: budget.usage, cost: budget.figures(), task: budget.taskFigures() });
      return;
    }
    tracker.observe(event);
    parent.relay(event, stream);
  });
  return { stream, counted: () => counted, close: unsubscribe };
}

/** Counts a flow call's own usage against the budget and tells the stream. */
export function emitUsage(parent: EventStream, budget: TaskBudget, usage: Usage): void {
  budget.add(usage);
  parent.emit({ type: 'usage', usage, total: budget.usage, cost: budget.figures(), task: budget.taskFigures() });
}
