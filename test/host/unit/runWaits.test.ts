import assert from 'node:assert/strict';
import { RunWaits, type RunWait } from '../../../src/host/common/task/runWaits';
import type { AgentEvent } from '../../../src/shared/events';

const call = (callId: string, command: string): AgentEvent => ({ type: 'tool_call', callId, name: 'run_command', args: { command } });
const asked = (callId: string): AgentEvent => ({ type: 'approval_requested', callId, category: 'command', title: 'Run', detail: '' });
const answered = (callId: string, approved = true): AgentEvent => ({ type: 'approval_answered', callId, approved });
const result = (callId: string): AgentEvent => ({ type: 'tool_result', callId, name: 'run_command', isError: false, content: '', durationMs: 1 });

/** What the status bar says after each sequence of events. */
const ROWS: { name: string; events: AgentEvent[]; expected: RunWait }[] = [
  { name: 'nothing yet', events: [], expected: undefined },
  { name: 'a command waiting for approval', events: [call('a', 'npm test'), asked('a')], expected: { kind: 'approval' } },
  { name: 'the command runs once approved (not "waiting for your approval")', events: [call('a', 'npm test'), asked('a'), answered('a')], expected: { kind: 'command', command: 'npm test' } },
  { name: 'auto-approved: requested and answered at once, then running', events: [call('a', 'npm run dev'), asked('a'), answered('a')], expected: { kind: 'command', command: 'npm run dev' } },
  { name: 'the command ended', events: [call('a', 'npm test'), asked('a'), answered('a'), result('a')], expected: undefined },
  { name: 'rejected: a result follows, nothing is running', events: [call('a', 'rm -rf x'), asked('a'), answered('a', false), result('a')], expected: undefined },
  { name: 'a question is waiting', events: [{ type: 'question_asked', callId: 'q', question: 'Port?' }], expected: { kind: 'question' } },
  { name: 'a question answered', events: [{ type: 'question_asked', callId: 'q', question: 'Port?' }, { type: 'question_answered', callId: 'q', answer: '80' }], expected: undefined },
  { name: 'an approval while another command runs comes first', events: [call('a', 'dev'), asked('a'), answered('a'), call('b', 'make'), asked('b')], expected: { kind: 'approval' } },
  { name: 'the run ended: nothing', events: [call('a', 'dev'), asked('a'), answered('a'), { type: 'run_finished', outcome: 'cancelled', turns: 1 }], expected: undefined },
  { name: 'an edit approval answered leaves nothing', events: [{ type: 'tool_call', callId: 'e', name: 'edit_file', args: { path: 'a' } }, asked('e'), answered('e'), result('e')], expected: undefined },
];

describe('RunWaits: what the status bar says while a task runs', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const waits = new RunWaits();
      for (const event of row.events) waits.observe(event);
      assert.deepEqual(waits.current(), row.expected);
    });
  }
  it('tells whether one approval is still open', () => {
    const waits = new RunWaits();
    waits.observe(asked('a'));
    assert.equal(waits.awaitingApproval('a'), true);
    waits.observe(answered('a'));
    assert.equal(waits.awaitingApproval('a'), false);
  });
});
