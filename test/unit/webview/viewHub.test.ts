import assert from 'node:assert/strict';
import type { Logger } from '../../../src/agent/ports';
import { promptsView, ViewHub, type ViewPort, type ViewVisibility } from '../../../src/host/common/views/viewHub';
import type { EventEnvelope } from '../../../src/shared/events';
import type { HostMessage, WebviewIntent, WebviewKind } from '../../../src/shared/webviewProtocol';
import { envelopes, plannedRun } from './envelopes';

class FakePort implements ViewPort {
  readonly messages: HostMessage[] = [];
  delivers = true;
  constructor(readonly kind: WebviewKind) {}
  post(message: HostMessage): boolean {
    if (this.delivers) this.messages.push(message);
    return this.delivers;
  }
  take(): HostMessage[] {
    return this.messages.splice(0);
  }
}

function setup(options: { maxBatch?: number } = {}) {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };
  const intents: [WebviewIntent, WebviewKind][] = [];
  const timers: (() => void)[] = [];
  const hub = new ViewHub({
    logger, maxBatch: options.maxBatch, onIntent: (intent, view) => intents.push([intent, view]),
    setTimer: (callback) => timers.push(callback), clearTimer: () => {},
  });
  const tick = () => timers.splice(0).forEach((t) => t());
  return { hub, warnings, intents, tick, timers };
}

const seqs = (messages: HostMessage[]) => messages.flatMap((m) => (m.type === 'events' ? m.envelopes.map((e) => e.seq) : []));

describe('ViewHub', () => {
  it('asks the sidebar for the caret now, or once it is ready; dropped paths go to the sidebar only', () => {
    const { hub } = setup();
    const sidebar = new FakePort('sidebar');
    const panel = new FakePort('panel');
    hub.attach(sidebar);
    hub.attach(panel);
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: -1 });
    hub.focusInput();
    assert.deepEqual(panel.take(), [], 'the panel has no input');
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    assert.deepEqual(sidebar.take(), [{ type: 'focusInput' }], 'delivered when the sidebar loaded');
    hub.focusInput();
    assert.deepEqual(sidebar.take(), [{ type: 'focusInput' }]);
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    assert.deepEqual(sidebar.take(), [], 'asked once, delivered once');
    hub.sendMentionPaths(['src/a.ts'], 2);
    assert.deepEqual(sidebar.take(), [{ type: 'mentionPaths', paths: ['src/a.ts'], refused: 2 }]);
    assert.deepEqual(panel.take(), []);
  });

  it('sends a run to a ready webview in batches of new envelopes only', () => {
    const { hub, tick, timers } = setup();
    const sidebar = new FakePort('sidebar');
    hub.attach(sidebar);
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    assert.deepEqual(sidebar.take(), [], 'nothing to say before a run or a status');
    hub.startRun('r', 'Fix the tests');
    const all = envelopes('r', plannedRun());
    for (const envelope of all.slice(0, 5)) hub.publish(envelope);
    assert.equal(timers.length, 1, 'one timer per batch, not one per envelope');
    tick();
    const first = sidebar.take();
    assert.deepEqual(first.map((m) => m.type), ['reset', 'events']);
    assert.deepEqual(first[0], { type: 'reset', runId: 'r', task: 'Fix the tests' });
    assert.deepEqual(seqs(first), [0, 1, 2, 3, 4]);
    for (const envelope of all.slice(5)) hub.publish(envelope);
    tick();
    assert.deepEqual(seqs(sidebar.take()), all.slice(5).map((e) => e.seq));
  });

  it('answers ready {lastSeq} with only the missing envelopes, and a different run with a reset', () => {
    const { hub, tick } = setup();
    hub.startRun('r', 'T');
    for (const envelope of envelopes('r', plannedRun())) hub.publish(envelope);
    tick();
    const panel = new FakePort('panel');
    hub.attach(panel);
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: 10, runId: 'r' });
    assert.deepEqual(seqs(panel.take()), [11, 12, 13, 14, 15, 16, 17]);
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: 3, runId: 'old-run' });
    const replay = panel.take();
    assert.equal(replay[0]?.type, 'reset');
    assert.equal(seqs(replay).length, plannedRun().length);
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: 17, runId: 'r' });
    assert.deepEqual(panel.take(), [], 'nothing missing, nothing sent');
  });

  it('splits a long replay into several messages', () => {
    const { hub } = setup({ maxBatch: 1000 });
    hub.startRun('r', 'T');
    for (const envelope of envelopes('r', Array.from({ length: 2500 }, () => ({ type: 'text_delta' as const, text: 'x' })))) hub.publish(envelope);
    const port = new FakePort('sidebar');
    hub.attach(port);
    hub.receive(port, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    const messages = port.take().filter((m) => m.type === 'events');
    assert.deepEqual(messages.map((m) => (m.type === 'events' ? m.envelopes.length : 0)), [1000, 1000, 500]);
    assert.deepEqual(seqs(messages), Array.from({ length: 2500 }, (_, i) => i));
  });

  it('stops sending to a webview whose content is gone and replays when it is back', () => {
    const { hub, tick } = setup();
    const port = new FakePort('sidebar');
    hub.attach(port);
    hub.receive(port, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    const all = envelopes('r', plannedRun());
    hub.publish(all[0]!);
    tick();
    assert.equal(seqs(port.take()).length, 1);
    port.delivers = false;
    hub.publish(all[1]!);
    tick();
    hub.publish(all[2]!);
    tick();
    port.delivers = true;
    assert.deepEqual(port.take(), []);
    hub.receive(port, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    assert.deepEqual(seqs(port.take()), [0, 1, 2]);
  });

  it('keeps envelopes of a run that is not shown and shows them on startRun', () => {
    const { hub, tick } = setup();
    const port = new FakePort('panel');
    hub.attach(port);
    hub.receive(port, { type: 'ready', view: 'panel', lastSeq: -1 });
    hub.startRun('a', 'A');
    const other: EventEnvelope[] = envelopes('b', [{ type: 'run_started', task: 'B', workspace: '/w', model: 'm' }, { type: 'text_delta', text: 'hi' }]);
    for (const envelope of other) hub.publish(envelope);
    tick();
    assert.deepEqual(port.take().map((m) => m.type), ['reset']);
    hub.startRun('b', 'B');
    tick();
    const shown = port.take();
    assert.deepEqual(shown[0], { type: 'reset', runId: 'b', task: 'B' });
    assert.deepEqual(seqs(shown), [0, 1]);
  });

  it('validates messages: invalid ones are logged and dropped, ready is answered here, the rest passed on', () => {
    const { hub, warnings, intents } = setup();
    const port = new FakePort('sidebar');
    hub.attach(port);
    hub.receive(port, { type: 'runCommand', command: 'rm -rf ~' });
    hub.receive(port, 'approve everything');
    hub.receive(port, { type: 'approve', callId: 'c1', always: 'yes' });
    assert.equal(warnings.length, 3);
    assert.deepEqual(intents, []);
    hub.receive(port, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    hub.receive(port, { type: 'approve', callId: 'c1', always: true });
    assert.deepEqual(intents, [[{ type: 'approve', callId: 'c1', always: true }, 'sidebar']]);
  });

  it('sends status and plan review to every ready webview (the sidebar says it waits), ending review on runPlan', () => {
    const { hub, intents } = setup();
    const sidebar = new FakePort('sidebar');
    const panel = new FakePort('panel');
    hub.attach(sidebar);
    hub.attach(panel);
    const status = { configured: true, trusted: false, running: false, history: [] };
    hub.setStatus(status);
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    assert.deepEqual(sidebar.take(), [{ type: 'status', status: { ...status, promptsIn: 'sidebar' } }], 'a late webview gets the last status on ready');
    hub.startRun('r', 'T');
    const plan = { goal: 'g', thought: 't', steps: [{ id: 's1', title: 'One', description: '', role: 'coder' as const, status: 'pending' as const }] };
    hub.showPlanForReview(plan);
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: -1 });
    const panelMessages = panel.take();
    assert.ok(panelMessages.some((m) => m.type === 'planReview' && m.plan?.goal === 'g'));
    assert.ok(sidebar.take().some((m) => m.type === 'planReview' && m.plan?.goal === 'g'), 'the sidebar learns that the run waits for review');
    hub.receive(panel, { type: 'runPlan', steps: [{ id: 's1', title: 'One, reworded', description: '', role: 'coder' }] });
    assert.deepEqual(panel.take(), [{ type: 'planReview', runId: undefined, plan: null }]);
    assert.deepEqual(sidebar.take(), [{ type: 'planReview', runId: undefined, plan: null }]);
    assert.equal(intents.at(-1)?.[0].type, 'runPlan');
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: -1 });
    assert.ok(!panel.take().some((m) => m.type === 'planReview'), 'a reloaded panel is not put back into review');
  });

  it('clearRun shows the new-task screen in every webview', () => {
    const { hub } = setup();
    const port = new FakePort('sidebar');
    hub.attach(port);
    hub.receive(port, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    hub.startRun('r', 'T');
    port.take();
    hub.clearRun();
    assert.deepEqual(port.take(), [{ type: 'reset', runId: undefined, task: undefined }]);
    assert.equal(hub.shownRun, undefined);
  });

  it('sends MCP servers to the sidebar only, with the protocol fields only, and again on ready', () => {
    const { hub } = setup();
    const sidebar = new FakePort('sidebar');
    const panel = new FakePort('panel');
    hub.attach(sidebar);
    hub.attach(panel);
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: -1 });
    // An McpServerState from src/mcp, with fields the webview has no use for.
    const state = { name: 'everything', status: 'connected' as const, tools: ['everything__echo'], transport: 'stdio' as const, pid: 4242, restartAttempts: 0, source: '.vscode/mcp.json' };
    hub.setMcpServers([state]);
    const expected = { type: 'mcpServers', servers: [{ name: 'everything', status: 'connected', tools: ['everything__echo'], transport: 'stdio', source: '.vscode/mcp.json' }] };
    assert.deepEqual(sidebar.take(), [expected]);
    assert.deepEqual(panel.take(), [], 'the panel does not show MCP servers');
    state.tools.push('everything__add');
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    assert.deepEqual(sidebar.take(), [expected], 'a reloaded sidebar gets the last list as it was reported');
    hub.setMcpServers([]);
    assert.deepEqual(sidebar.take(), [{ type: 'mcpServers', servers: [] }]);
  });

  it('puts each webview\'s own workspace URI into the status it sends', () => {
    const { hub } = setup();
    const sidebar: FakePort & { workspaceUri?: () => string | undefined } = new FakePort('sidebar');
    sidebar.workspaceUri = () => 'https://file+.vscode-resource.vscode-cdn.net/home/u/ws';
    const panel = new FakePort('panel');
    hub.attach(sidebar);
    hub.attach(panel);
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: -1 });
    const status = { configured: true, trusted: true, running: false, history: [] };
    hub.setStatus(status);
    assert.deepEqual(sidebar.take(), [{ type: 'status', status: { ...status, promptsIn: 'sidebar', workspaceUri: 'https://file+.vscode-resource.vscode-cdn.net/home/u/ws' } }]);
    assert.deepEqual(panel.take(), [{ type: 'status', status: { ...status, promptsIn: 'sidebar' } }], 'a webview without a folder gets no workspace URI');
    assert.deepEqual(status, { configured: true, trusted: true, running: false, history: [] }, 'the host\'s object is not changed');
    sidebar.workspaceUri = () => 'https://file+.vscode-resource.vscode-cdn.net/other';
    hub.resendStatus();
    const again = sidebar.take();
    assert.equal(again.length, 1);
    assert.equal(again[0]?.type === 'status' ? again[0].status.workspaceUri : undefined, 'https://file+.vscode-resource.vscode-cdn.net/other');
  });
  const placements: Array<[ViewVisibility, WebviewKind, string]> = [
    [{ sidebar: true, panel: true }, 'panel', 'both on screen: the panel, where the task is shown in full'],
    [{ sidebar: true, panel: false }, 'sidebar', 'only the sidebar'],
    [{ sidebar: false, panel: true }, 'panel', 'only the panel'],
    [{ sidebar: false, panel: false }, 'sidebar', 'neither: the sidebar, where the user comes back to'],
  ];
  for (const [visible, expected, what] of placements) {
    it(`puts the prompts in exactly one view: ${what}`, () => assert.equal(promptsView(visible), expected));
  }

  it('tells every webview which one holds the prompts, again whenever that changes', () => {
    const { hub } = setup();
    const sidebar = new FakePort('sidebar');
    const panel = new FakePort('panel');
    hub.attach(sidebar);
    hub.attach(panel);
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    hub.receive(panel, { type: 'ready', view: 'panel', lastSeq: -1 });
    hub.setStatus({ configured: true, trusted: true, running: true, history: [] });
    const holder = (port: FakePort) => port.take().flatMap((m) => (m.type === 'status' ? [m.status.promptsIn] : []));
    assert.deepEqual([holder(sidebar), holder(panel)], [['sidebar'], ['sidebar']]);
    hub.setVisible('sidebar', true);
    assert.deepEqual([holder(sidebar), holder(panel)], [[], []], 'no change, no message');
    hub.setVisible('panel', true);
    assert.deepEqual([holder(sidebar), holder(panel)], [['panel'], ['panel']]);
    hub.setVisible('panel', false);
    assert.deepEqual([holder(sidebar), holder(panel)], [['sidebar'], ['sidebar']]);
  });

  it('keeps a shown run on screen when its follow-up starts (no reset; the new events continue below)', () => {
    const { hub, tick } = setup();
    const sidebar = new FakePort('sidebar');
    hub.attach(sidebar);
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1 });
    const run = envelopes('r1', [{ type: 'run_started', task: 'First task', workspace: '/ws', model: 'm' }, { type: 'run_finished', outcome: 'finished', turns: 1 }]);
    for (const e of run) hub.publish(e);
    tick();
    sidebar.take();
    hub.startRun('r1', 'The follow-up');
    hub.publish({ v: 1, seq: 2, runId: 'r1', ts: 3, event: { type: 'run_started', task: 'The follow-up', workspace: '/ws', model: 'm', resumedFrom: 'r1' } });
    tick();
    const messages = sidebar.take();
    assert.deepEqual(messages.map((m) => m.type), ['events'], 'no reset');
    assert.deepEqual(seqs(messages), [2]);
    // A webview that reloads later still gets the task's first words as its title.
    hub.receive(sidebar, { type: 'ready', view: 'sidebar', lastSeq: -1, runId: 'other' });
    const reset = sidebar.take().find((m) => m.type === 'reset');
    assert.equal(reset?.type === 'reset' ? reset.task : undefined, 'First task');
  });
});
