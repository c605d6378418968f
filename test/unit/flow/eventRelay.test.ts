import assert from 'node:assert/strict';
import { EventStream } from '../../../src/agent/events/eventStream';
import { envelopeJson } from '../../../src/agent/events/envelopeJson';
import { ChangeTracker } from '../../../src/agent/flow/changeTracker';
import { innerStream } from '../../../src/agent/flow/flowEvents';
import { TaskBudget } from '../../../src/agent/flow/taskBudget';
import { Redactor } from '../../../src/agent/secrets/redactor';
import type { AgentEvent, EventEnvelope } from '../../../src/shared/events';

/** A redactor that counts its passes and the characters it read. */
function countingRedact(secret = 'sk-test-registered-secret') {
  const redactor = new Redactor();
  redactor.add(secret);
  const work = { passes: 0, chars: 0 };
  const redact = (text: string) => {
    work.passes++;
    work.chars += text.length;
    return redactor.redact(text);
  };
  return { redact, work };
}

describe('event relay: one redaction pass per event, its JSON written once', () => {
  it('an inner stream\'s event is redacted once, however many streams it passes (issue 28: a 50 MB write_file argument)', () => {
    const { redact, work } = countingRedact();
    const parent = new EventStream('run-1', () => 1, undefined, redact);
    const seen: EventEnvelope[] = [];
    parent.subscribe((envelope) => seen.push(envelope));
    const inner = innerStream(parent, new TaskBudget(undefined), new ChangeTracker());
    const content = 'const value = "line";\n'.repeat(50_000);
    const event: AgentEvent = { type: 'tool_call', callId: 'c1', name: 'write_file', args: { path: 'big.txt', content } };
    inner.stream.emit(event);
    assert.equal(seen.length, 1);
    assert.equal(work.passes, 1, 'cleaned in the inner stream only');
    assert.equal(work.chars, JSON.stringify(event).length);
  });

  it('a relayed event still loses its secrets, and a parent with another redactor cleans it again', () => {
    const { redact } = countingRedact('sk-test-registered-secret');
    const other = countingRedact('another-secret-value');
    const parent = new EventStream('run-1', () => 1, undefined, other.redact);
    const seen: string[] = [];
    parent.subscribe((envelope) => seen.push(envelopeJson(envelope)));
    const inner = new EventStream('run-1', () => 1, undefined, redact);
    inner.subscribe(({ event }) => parent.relay(event, inner));
    inner.emit({ type: 'assistant_message', text: 'keys sk-test-registered-secret and another-secret-value', toolCalls: [] });
    assert.equal(other.work.passes, 1);
    assert.doesNotMatch(seen[0]!, /sk-test-registered-secret|another-secret-value/);
  });

  it('envelopeJson is JSON.stringify(envelope): reused, redacted, and without a redactor', () => {
    const { redact } = countingRedact();
    const events: AgentEvent[] = [
      { type: 'assistant_message', text: 'plain "quoted" text\n\twith \u2028 and emoji 😀', toolCalls: [] },
      { type: 'assistant_message', text: 'a secret sk-test-registered-secret here', toolCalls: [] },
      { type: 'tool_call', callId: 'c1', name: 'write_file', args: { path: 'a.txt', content: 'x\\y' } },
    ];
    for (const stream of [new EventStream('run-"1"', () => 1_700_000_000_123, undefined, redact), new EventStream('run-2')]) {
      const envelopes: EventEnvelope[] = [];
      stream.subscribe((envelope) => envelopes.push(envelope));
      for (const event of events) stream.emit(event);
      for (const envelope of envelopes) assert.equal(envelopeJson(envelope), JSON.stringify(envelope));
    }
  });
});
