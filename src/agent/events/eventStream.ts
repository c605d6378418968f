import { EVENT_VERSION, type AgentEvent, type EventEnvelope } from '../../shared/events';
import { rememberEventJson } from './envelopeJson';

/** Receives every envelope of a run, in `seq` order. */
export type EventListener = (envelope: EventEnvelope) => void;

/** Replaces secrets in a text (see `Redactor`). */
export type Redact = (text: string) => string;

/**
 * Wraps events of one run into envelopes with a monotonic `seq` and hands them to listeners.
 * A throwing listener is isolated: it cannot break the run or the other listeners. With `redact`,
 * every event is cleaned of known secrets before any listener (JSON output, history, webviews,
 * report) sees it; inner streams of the same run share it (`redactText`).
 */
export class EventStream {
  private seq: number;
  private ended = false;
  private readonly listeners = new Set<EventListener>();

  constructor(
    readonly runId: string,
    private readonly now: () => number = Date.now,
    private readonly onListenerError: (error: unknown) => void = () => {},
    private readonly redact?: Redact,
    /** The first `seq`: a follow-up continues its task's stored events (one log, one history entry). */
    firstSeq = 0,
  ) {
    this.seq = firstSeq;
  }

  /** Adds a listener; returns its removal. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True once `run_finished` was emitted: a run ends exactly once. */
  get finished(): boolean {
    return this.ended;
  }

  /** The text with known secrets replaced (unchanged without a redactor). */
  redactText(text: string): string {
    return this.redact ? this.redact(text) : text;
  }

  /** This stream's redactor, for inner streams of the same run. */
  get redactor(): Redact | undefined {
    return this.redact;
  }

  /**
   * Stamps and delivers one event (secrets redacted); returns its envelope. A second `run_finished`
   * is a bug of whoever emits it: it is reported to `onListenerError` and not delivered (one outcome card).
   */
  emit(raw: AgentEvent): EventEnvelope {
    return this.deliver(this.clean(raw));
  }

  /**
   * Emits an event that `from` (an inner stream of this run) has just delivered: when both share one
   * redactor it was cleaned there, and a second pass over a multi-megabyte tool argument would only
   * cost time; otherwise it is cleaned here as any event.
   */
  relay(event: AgentEvent, from: EventStream): EventEnvelope {
    return this.deliver(this.redact && from.redact === this.redact ? event : this.clean(event));
  }

  private deliver(event: AgentEvent): EventEnvelope {
    if (event.type === 'run_finished') {
      if (this.ended) {
        this.onListenerError(new Error(`run ${this.runId} already finished; dropped a second run_finished (${event.outcome})`));
        return { v: EVENT_VERSION, seq: this.seq - 1, runId: this.runId, ts: this.now(), event };
      }
      this.ended = true;
    }
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

  private clean(event: AgentEvent): AgentEvent {
    if (!this.redact) return event;
    const json = JSON.stringify(event);
    const clean = this.redact(json);
    if (clean !== json) return JSON.parse(clean) as AgentEvent;
    rememberEventJson(event, json);
    return event;
  }
}
