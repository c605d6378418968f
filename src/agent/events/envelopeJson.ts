import type { AgentEvent, EventEnvelope } from '../../shared/events';

// Apart from eventStream.ts (which loads the event schema) so the history store can use it in the
// CLI's small bundle (see src/cli/cliEntry.ts).

/** The JSON the redactor passed unchanged, by event: listeners that write JSON lines reuse it (see `envelopeJson`). */
const EVENT_JSON = new WeakMap<AgentEvent, string>();

/** Remembers `json` as the text of `event` (its redaction pass left it unchanged). */
export function rememberEventJson(event: AgentEvent, json: string): void {
  EVENT_JSON.set(event, json);
}

/**
 * `JSON.stringify(envelope)`, reusing the event's JSON text from its redaction pass when it has one,
 * so an event carrying a multi-megabyte tool argument is serialised once for the redactor, the
 * history file and `--json` output together. Call it while the envelope is delivered (events are
 * not changed after they are emitted).
 */
export function envelopeJson(envelope: EventEnvelope): string {
  const event = EVENT_JSON.get(envelope.event);
  if (event === undefined) return JSON.stringify(envelope);
  const { v, seq, runId, ts } = envelope;
  return `{"v":${JSON.stringify(v)},"seq":${JSON.stringify(seq)},"runId":${JSON.stringify(runId)},"ts":${JSON.stringify(ts)},"event":${event}}`;
}
