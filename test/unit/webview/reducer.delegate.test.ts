import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import { conversationFromEvents } from '../../../src/agent/context/conversationFromEvents';
import { initialRunView, reduceAll } from '../../../webview-ui/src/reducer';
import { envelopes } from './envelopes';

/** A direct run that delegates to a reviewer, whose sub-run reads a file, then finishes itself. */
const DELEGATED: AgentEvent[] = [
  { type: 'run_started', task: 'Review it', workspace: '/ws', model: 'm' },
  { type: 'assistant_message', text: 'Asking the reviewer.', toolCalls: [{ id: 'd1', name: 'delegate', arguments: '{"role":"reviewer","task":"check"}' }] },
  { type: 'tool_call', callId: 'd1', name: 'delegate', args: { role: 'reviewer', task: 'check' } },
  { type: 'delegate_started', callId: 'd1', role: 'reviewer', task: 'check' },
  { type: 'text_delta', text: 'Reading.' },
  { type: 'assistant_message', text: 'Reading.', toolCalls: [{ id: 'r1', name: 'read_file', arguments: '{"path":"a"}' }] },
  { type: 'tool_call', callId: 'r1', name: 'read_file', args: { path: 'a' }, category: 'read' },
  { type: 'tool_result', callId: 'r1', name: 'read_file', isError: false, content: 'text of a', durationMs: 1 },
  { type: 'delegate_finished', callId: 'd1', role: 'reviewer', outcome: 'finished', summary: 'fine' },
  { type: 'tool_result', callId: 'd1', name: 'delegate', isError: false, content: 'reviewer finished: fine', durationMs: 5 },
  { type: 'text_delta', text: 'All good.' },
  { type: 'assistant_message', text: 'All good.', toolCalls: [] },
];

describe('a delegated sub-run', () => {
  it('the timeline nests the sub-run\'s items under the delegate call; what follows is the outer run\'s again', () => {
    const view = reduceAll(initialRunView(), envelopes('run-1', DELEGATED));
    const rows = view.items.filter((i) => i.kind === 'tool' || i.kind === 'text').map((i) => [i.kind === 'tool' ? i.name : i.text, i.nestedIn]);
    assert.deepEqual(rows, [
      ['Asking the reviewer.', undefined],
      ['delegate', undefined],
      ['Reading.', 'd1'],
      ['read_file', 'd1'],
      ['All good.', undefined],
    ]);
    assert.equal(view.delegating, undefined);
  });

  it('a resume rebuilds the outer conversation only: the sub-run had its own fresh context', () => {
    const messages = conversationFromEvents(DELEGATED);
    assert.deepEqual(messages.map((m) => `${m.role}:${m.content}`), [
      'user:Review it',
      'assistant:Asking the reviewer.',
      'tool:reviewer finished: fine',
      'assistant:All good.',
    ]);
  });
});
