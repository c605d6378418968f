import type { EventEnvelope } from '../../src/shared/events';
import type { RunView } from './viewModel';

/** Events that say the model answered (or the run ended): a retry being waited for is over. */
const ENDS_WAIT: ReadonlySet<string> = new Set(['text_delta', 'assistant_message', 'tool_call', 'error', 'run_finished', 'turn_started']);

/**
 * Pure: the run view after `envelope` as far as a model retry goes. A `retry` notice starts a wait
 * (which attempt, of how many, until when, by the envelope's own clock, so a replay long after shows
 * no countdown); the model's next answer or the run's end clears it.
 */
export function withRetry(view: RunView, envelope: EventEnvelope): RunView {
  const event = envelope.event;
  if (event.type === 'notice' && event.code === 'retry' && event.retry) {
    const { attempt, of, delayMs } = event.retry;
    return { ...view, retrying: { attempt, ...(of ? { of } : {}), until: envelope.ts + delayMs, reason: event.message } };
  }
  if (view.retrying && ENDS_WAIT.has(event.type)) {
    const { retrying: _done, ...rest } = view;
    return rest;
  }
  return view;
}
