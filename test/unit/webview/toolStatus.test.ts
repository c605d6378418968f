import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import { initialRunView, reduceAll } from '../../../webview-ui/src/reducer';
import type { ToolCard } from '../../../webview-ui/src/viewModel';
import { envelopes } from './envelopes';

type Result = Extract<AgentEvent, { type: 'tool_result' }>;

/** How a card ends for each kind of tool result: a command's exit code and a stop are shown as what they are. */
type Ended = Extract<AgentEvent, { type: 'command_ended' }>;
const ROWS: { name: string; result: Partial<Result>; approved?: boolean; ended?: Omit<Ended, 'type' | 'callId'>; status: ToolCard['status']; exitCode?: number | null }[] = [
  { name: 'command exit 0 is done', result: { name: 'run_command', exitCode: 0 }, status: 'done', exitCode: 0 },
  { name: 'command exit 1 (failing tests) is failed, not done', result: { name: 'run_command', exitCode: 1 }, status: 'failed', exitCode: 1 },
  { name: 'command exit 127 is failed', result: { name: 'run_command', exitCode: 127 }, status: 'failed', exitCode: 127 },
  { name: 'command killed by a signal is failed', result: { name: 'run_command', exitCode: null }, status: 'failed', exitCode: null },
  { name: 'command timed out is an error', result: { name: 'run_command', exitCode: null, isError: true }, status: 'error', exitCode: null },
  { name: 'stopped command is stopped, not failed', result: { name: 'run_command', isError: true, stopped: true }, status: 'stopped' },
  { name: 'command stopped alone by the user ("Stop this command") is stopped', result: { name: 'run_command', stopped: true, exitCode: null }, status: 'stopped', exitCode: null },
  { name: 'command sent to the background is "background", not done', result: { name: 'run_command', background: true }, status: 'background' },
  { name: 'a background command that later exited 0 has ended', result: { name: 'run_command', background: true }, ended: { exitCode: 0, stopped: false }, status: 'ended', exitCode: 0 },
  { name: 'a background command that later exited 2 failed with 2', result: { name: 'run_command', background: true }, ended: { exitCode: 2, stopped: false }, status: 'failed', exitCode: 2 },
  { name: 'a background command later killed by a signal failed', result: { name: 'run_command', background: true }, ended: { exitCode: null, stopped: false }, status: 'failed', exitCode: null },
  { name: 'a background command stopped later is stopped', result: { name: 'run_command', background: true }, ended: { exitCode: null, stopped: true }, status: 'stopped' },
  { name: 'an ending for a command that is not in the background changes nothing', result: { name: 'run_command', exitCode: 1 }, ended: { exitCode: 0, stopped: false }, status: 'failed', exitCode: 1 },
  { name: 'stopped read is stopped', result: { name: 'read_file', isError: true, stopped: true }, status: 'stopped' },
  { name: 'read that worked is done', result: { name: 'read_file' }, status: 'done' },
  { name: 'tool error is an error', result: { name: 'edit_file', isError: true }, status: 'error' },
  { name: 'rejected stays rejected', result: { name: 'write_file', isError: true }, approved: false, status: 'rejected' },
];

describe('tool card status', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const events: AgentEvent[] = [{ type: 'tool_call', callId: 'c', name: row.result.name ?? 'x', args: {} }];
      if (row.approved !== undefined) events.push({ type: 'approval_answered', callId: 'c', approved: row.approved });
      events.push({ type: 'tool_result', callId: 'c', name: 'x', isError: false, content: 'out', durationMs: 1, ...row.result });
      if (row.ended) events.push({ type: 'run_finished', outcome: 'finished', turns: 1 }, { type: 'command_ended', callId: 'c', ...row.ended });
      const view = reduceAll(initialRunView(), envelopes('run-1', events));
      const card = view.items.find((i): i is ToolCard => i.kind === 'tool');
      assert.equal(card?.status, row.status);
      assert.equal(card?.exitCode, row.exitCode);
    });
  }
});

describe('tool card images', () => {
  it('keeps the saved image paths of a result for the panel', () => {
    const events: AgentEvent[] = [
      { type: 'tool_call', callId: 'c', name: 'browser', args: { action: 'screenshot' } },
      { type: 'tool_result', callId: 'c', name: 'browser', isError: false, content: 'Screenshot taken', durationMs: 1, images: ['.stepwise/images/r/c-1.png'] },
    ];
    const card = reduceAll(initialRunView(), envelopes('run-1', events)).items.find((i): i is ToolCard => i.kind === 'tool');
    assert.deepEqual(card?.images, ['.stepwise/images/r/c-1.png']);
  });
});
