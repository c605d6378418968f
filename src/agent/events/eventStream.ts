import { EVENT_VERSION, type AgentEvent, type EventEnvelope } from '../../shared/events';

/** Receives every envelope of a run, in `seq` order. */
export type EventListener = (envelope: EventEnvelope) => void;

/**
 * Wraps events of one run into envelopes with a monotonic `seq` and hands them to listeners.
 * A throwing listener is isolated: it cannot break the run or the other listeners.
 */
export class EventStream {
  private seq = 0;
  private readonly listeners = new Set<EventListener>();

  constructor(
    readonly runId: string,
    private readonly now: () => number = Date.now,
    private readonly onListenerError: (error: unknown) => void = () => {},
  ) {}

  /** Adds a listener; returns its removal. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stamps and delivers one event; returns its envelope. */
  emit(event: AgentEvent): EventEnvelope {
    const envelope: EventEnvelope = { v: EVENT_VERSION, seq: this.seq++, runId: this.runId, ts: this.now(), event };
    for (const listener of this.listeners) {
      try {
        listener(envelope);
      } catch (error) {
        this.onListenerError(error);
      }
    }
    return envelope;
  }
}
