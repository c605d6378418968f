import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import { initialRunView, reduceAll } from '../../../webview-ui/src/reducer';
import type { Item, OutcomeItem } from '../../../webview-ui/src/viewModel';
import { envelopes } from './envelopes';

const RUN = 'run-o';
const start: AgentEvent[] = [{ type: 'run_started', task: 'Explain the build', workspace: '/w', model: 'm' }];
const view = (events: AgentEvent[]) => reduceAll(initialRunView(), envelopes(RUN, [...start, ...events]));
const kinds = (items: readonly Item[]) => items.map((i) => i.kind);
const outcomeOf = (items: readonly Item[]) => items.find((i): i is OutcomeItem => i.kind === 'outcome')!;

describe('outcome card: one card per moment', () => {
  it('a direct answer is not repeated in the Finished card', () => {
    const v = view([
      { type: 'text_delta', text: 'It uses esbuild.' },
      { type: 'assistant_message', text: 'It uses esbuild.', toolCalls: [] },
      { type: 'run_finished', outcome: 'finished', summary: 'It uses esbuild.', turns: 1 },
    ]);
    assert.equal(outcomeOf(v.items).summary, undefined);
    assert.equal(v.items.filter((i) => i.kind === 'text').length, 1);
  });

  it('a stopped run says why once, not as summary and reason both', () => {
    const v = view([
      { type: 'text_delta', text: 'Essay, part one: ' },
      { type: 'run_finished', outcome: 'cancelled', summary: 'Stopped by the user.', reason: 'Stopped by the user.', turns: 1 },
    ]);
    const card = outcomeOf(v.items);
    assert.deepEqual([card.summary, card.reason], [undefined, 'Stopped by the user.']);
  });

  it("a planned task's summary is not repeated under the report that already says it", () => {
    const v = view([
      { type: 'report', markdown: '# Report\n\nChanged the greeting; the test fails.\n\n## Findings\n- x', path: '.stepwise/reports/r.md' },
      { type: 'run_finished', outcome: 'finished', summary: 'Changed the greeting; the test fails.', turns: 3 },
    ]);
    assert.equal(outcomeOf(v.items).summary, undefined);
  });

  it('a follow-up in the same run gets its own task row and outcome card below the first', () => {
    const v = view([
      { type: 'run_finished', outcome: 'finished', summary: 'First.', turns: 1 },
      { type: 'run_started', task: 'And then?', workspace: '/w', model: 'm', resumedFrom: RUN },
      { type: 'text_delta', text: 'Then this.' },
      { type: 'run_finished', outcome: 'finished', summary: 'Then this.', turns: 1 },
    ]);
    assert.deepEqual(kinds(v.items), ['task', 'outcome', 'task', 'text', 'outcome']);
    assert.equal(v.task, 'Explain the build', 'the run keeps its first task as its title');
    assert.equal(outcomeOf(v.items.slice(2)).summary, undefined, 'the follow-up answer is shown once');
  });

  it("a follow-up's token usage adds to the task's", () => {
    const u = (total: number) => ({ promptTokens: total - 1, completionTokens: 1, totalTokens: total });
    const v = view([
      { type: 'usage', usage: u(100), total: u(100) },
      { type: 'run_finished', outcome: 'finished', turns: 1 },
      { type: 'run_started', task: 'And then?', workspace: '/w', model: 'm', resumedFrom: RUN },
      { type: 'usage', usage: u(30), total: u(30) },
      { type: 'usage', usage: u(20), total: u(50) },
    ]);
    assert.deepEqual(v.usage, { promptTokens: 148, completionTokens: 2, totalTokens: 150 });
  });

  it('a finish summary that says something new is kept', () => {
    const v = view([
      { type: 'assistant_message', text: 'Reading.', toolCalls: [] },
      { type: 'run_finished', outcome: 'finished', summary: 'Renamed the option in 3 files.', turns: 2 },
    ]);
    assert.equal(outcomeOf(v.items).summary, 'Renamed the option in 3 files.');
  });

  it('the error that ended the run joins the outcome card, with its code', () => {
    const v = view([
      { type: 'error', code: 'auth', message: 'The endpoint refused the API key (401).' },
      { type: 'run_finished', outcome: 'failed', reason: 'The endpoint refused the API key (401).', turns: 1 },
    ]);
    assert.deepEqual(kinds(v.items).filter((k) => k === 'error' || k === 'outcome'), ['outcome']);
    assert.equal(outcomeOf(v.items).code, 'auth');
    assert.equal(outcomeOf(v.items).task, 'Explain the build');
  });

  it('an unrelated error earlier in the run stays where it was', () => {
    const v = view([
      { type: 'error', code: 'report_not_saved', message: 'Cannot save the report at r.md: EACCES' },
      { type: 'run_finished', outcome: 'failed', reason: 'the model refused', turns: 1 },
    ]);
    assert.deepEqual(kinds(v.items).filter((k) => k === 'error' || k === 'outcome'), ['error', 'outcome']);
    assert.equal(outcomeOf(v.items).code, undefined);
  });

  const edit = (id: string, isError = false): AgentEvent[] => [{ type: 'tool_call', callId: id, name: 'edit_file', args: {} }, { type: 'tool_result', callId: id, name: 'edit_file', isError, content: isError ? 'old text not found' : 'ok', durationMs: 1 }];
  const undone: AgentEvent = { type: 'notice', level: 'info', code: 'edits_undone', message: 'Undone: a.ts' };
  const changedRows: { name: string; events: AgentEvent[]; after?: AgentEvent[]; changed: boolean }[] = [
    { name: 'an edit that failed (nothing written)', events: edit('f', true), changed: false },
    { name: 'edits the user then undid', events: edit('u'), after: [undone], changed: false },
    { name: 'an edit, with an unrelated note after it', events: edit('n'), after: [{ type: 'notice', level: 'info', code: 'other', message: 'Undone: nothing really' }], changed: true },
    { name: 'nothing ran', events: [], changed: false },
    { name: 'only reads', events: [{ type: 'tool_call', callId: 'r', name: 'read_file', args: {} }, { type: 'tool_result', callId: 'r', name: 'read_file', isError: false, content: 'x', durationMs: 1 }], changed: false },
    { name: 'an edit', events: [{ type: 'tool_call', callId: 'e', name: 'edit_file', args: {} }, { type: 'tool_result', callId: 'e', name: 'edit_file', isError: false, content: 'ok', durationMs: 1 }], changed: true },
    { name: 'a rejected write', events: [{ type: 'tool_call', callId: 'w', name: 'write_file', args: {} }, { type: 'approval_answered', callId: 'w', approved: false }, { type: 'tool_result', callId: 'w', name: 'write_file', isError: true, content: 'rejected', durationMs: 1 }], changed: false },
    { name: 'a command that failed', events: [{ type: 'tool_call', callId: 'c', name: 'run_command', args: {} }, { type: 'tool_result', callId: 'c', name: 'run_command', isError: false, content: 'exit code 1', durationMs: 1, exitCode: 1 }], changed: true },
  ];
  for (const row of changedRows) {
    it(`offers undo only when something may have changed: ${row.name}`, () => {
      const v = view([...row.events, { type: 'run_finished', outcome: 'finished', summary: 'done', turns: 1 }, ...(row.after ?? [])]);
      assert.equal(outcomeOf(v.items).changed, row.changed);
    });
  }

  it('a follow-up that edits again after an undo offers undo on its own card only', () => {
    const v = view([
      ...edit('a'), { type: 'run_finished', outcome: 'finished', summary: 'first', turns: 1 }, undone,
      { type: 'run_started', task: 'Again', workspace: '/w', model: 'm', resumedFrom: RUN },
      ...edit('b'), { type: 'run_finished', outcome: 'finished', summary: 'second', turns: 1 },
    ]);
    assert.deepEqual(v.items.filter((i): i is OutcomeItem => i.kind === 'outcome').map((o) => o.changed), [false, true]);
  });
});
