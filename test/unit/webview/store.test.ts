import assert from 'node:assert/strict';
import { applyHostMessage, initialAppState, salvageEvents, type AppState } from '../../../webview-ui/src/store';
import { envelopes, plannedRun } from './envelopes';

const plan = { goal: 'g', thought: '', steps: [{ id: 's1', title: 'One', description: '', role: 'coder' as const, status: 'pending' as const }] };

function apply(state: AppState, ...messages: Parameters<typeof applyHostMessage>[1][]): AppState {
  return messages.reduce((s, m) => applyHostMessage(s, m).state, state);
}

describe('webview app state', () => {
  it('shows the run named by reset and drops envelopes of any other run', () => {
    const start = initialAppState('sidebar', 'en');
    const shown = apply(start, { type: 'reset', runId: 'a', task: 'Task A' }, { type: 'events', runId: 'a', envelopes: envelopes('a', plannedRun()) });
    assert.equal(shown.run.runId, 'a');
    assert.equal(shown.run.task, 'Task A');
    const stale = applyHostMessage(shown, { type: 'events', runId: 'b', envelopes: envelopes('b', plannedRun()) });
    assert.equal(stale.state, shown);
    assert.equal(stale.changes.run, false);
    const cleared = applyHostMessage(shown, { type: 'reset' });
    assert.equal(cleared.state.run.runId, undefined);
    assert.equal(cleared.changes.reset, true);
  });

  it('adopts the run of the first events when none is shown', () => {
    const state = apply(initialAppState('panel', 'en'), { type: 'events', runId: 'x', envelopes: envelopes('x', plannedRun().slice(0, 3)) });
    assert.equal(state.run.runId, 'x');
    assert.equal(state.run.lastSeq, 2);
  });

  it('ends plan review when a step starts or the run ends, not before', () => {
    const reviewing = apply(initialAppState('panel', 'en'), { type: 'reset', runId: 'a', task: 'T' }, { type: 'planReview', runId: 'a', plan });
    assert.ok(reviewing.review);
    const planned = apply(reviewing, { type: 'events', runId: 'a', envelopes: envelopes('a', [
      { type: 'plan_created', goal: 'g', thought: '', steps: plan.steps },
      { type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, total: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
    ]) });
    assert.ok(planned.review, 'still reviewing while nothing runs');
    const started = apply(planned, { type: 'events', runId: 'a', envelopes: envelopes('a', [{ type: 'step_started', stepId: 's1' }], 2) });
    assert.equal(started.review, undefined);
    const closed = apply(reviewing, { type: 'planReview', plan: null });
    assert.equal(closed.review, undefined);
  });

  it('switches language and status', () => {
    const state = apply(initialAppState('sidebar', 'en'), { type: 'l10n', strings: {}, lang: 'zh-cn' },
      { type: 'status', status: { configured: false, trusted: true, running: false, history: [] } });
    assert.equal(state.t('send'), '发送');
    assert.equal(state.statusKnown, true);
    assert.equal(state.status.configured, false);
  });

  it('salvages the valid envelopes of a batch with a bad one, and nothing else', () => {
    const [a, b] = envelopes('r', [{ type: 'text_delta', text: 'a' }, { type: 'text_delta', text: 'b' }]);
    assert.deepEqual(salvageEvents({ type: 'events', runId: 'r', envelopes: [a, { seq: 'x' }, b] }), { type: 'events', runId: 'r', envelopes: [a, b] });
    assert.equal(salvageEvents({ type: 'events', runId: 'r', envelopes: [{ seq: 'x' }] }), undefined);
    assert.equal(salvageEvents({ type: 'status', status: {} }), undefined);
    assert.equal(salvageEvents(null), undefined);
  });

  it('keeps the MCP servers the host reported, unknown until the first report', () => {
    const start = initialAppState('sidebar', 'en');
    assert.equal(start.mcp, undefined, 'no section before the host says anything');
    const servers = [{ name: 'a', status: 'error' as const, tools: [], lastError: 'boom' }];
    const { state, changes } = applyHostMessage(start, { type: 'mcpServers', servers });
    assert.deepEqual(state.mcp, servers);
    assert.equal(changes.mcp, true);
    assert.equal(changes.run || changes.status || changes.reset, false, 'nothing else is redrawn');
    assert.deepEqual(applyHostMessage(state, { type: 'mcpServers', servers: [] }).state.mcp, [], 'an empty list means none configured');
    const withRun = apply(state, { type: 'reset', runId: 'r', task: 'T' });
    assert.deepEqual(withRun.mcp, servers, 'showing another run keeps the servers');
  });

  it('takes the workspace URI from the status', () => {
    const state = apply(initialAppState('panel', 'en'), { type: 'status', status: { configured: true, trusted: true, running: false, history: [], workspaceUri: 'https://x.example/ws' } });
    assert.equal(state.status.workspaceUri, 'https://x.example/ws');
  });
});
