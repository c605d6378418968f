// The trusted pass: a workspace-level endpoint is used only after the user confirms it once for this workspace,
// and the key stored for one endpoint origin is never sent to another.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { activateStepwise, waitFor, workspaceFolder } from './hostTestSupport';

const finish = (summary: string): FakeTurn => ({ toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary }) }] });
const stamp = Date.now().toString(36);
const USER_KEY = `sk-host-user-origin-${stamp}000000`;
const WORKSPACE_KEY = `sk-host-workspace-origin-${stamp}000000`;

interface Dialog {
  message: string;
  modal: boolean;
  detail: string;
}

describe('workspace endpoints and per-origin keys (trusted workspace)', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  const fakes: FakeOpenAIServer[] = [];
  const dialogs: Dialog[] = [];
  let answer: string | undefined;
  let restore: (() => void) | undefined;
  const config = () => vscode.workspace.getConfiguration('stepwise');
  const fake = async (): Promise<FakeOpenAIServer> => {
    const server = await startFakeOpenAI(() => finish('done'));
    fakes.push(server);
    return server;
  };
  const auth = (server: FakeOpenAIServer): Array<string | undefined> => server.chatRequests().map((r) => r.headers.authorization);
  const runTask = async (): Promise<void> => {
    const runId = await api.controller.start('Say done', { planMode: 'never' });
    assert.ok(runId, 'the task started');
    await api.controller.whenIdle();
    assert.equal(api.controller.run(runId)?.outcome, 'finished');
  };

  before(async () => {
    api = await activateStepwise();
    assert.equal(vscode.workspace.isTrusted, true);
    const window = vscode.window as unknown as Record<string, unknown>;
    const original = window.showWarningMessage;
    window.showWarningMessage = (message: string, options: vscode.MessageOptions | string, ...items: string[]) => {
      const opts = typeof options === 'object' ? options : {};
      dialogs.push({ message, modal: opts.modal === true, detail: opts.detail ?? '' });
      return Promise.resolve(items.find((item) => item === answer) ?? (typeof options === 'string' && options === answer ? options : undefined));
    };
    restore = () => (window.showWarningMessage = original);
  });

  after(async () => {
    restore?.();
    api.controller.stop();
    await api.controller.whenIdle();
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    for (const server of fakes) await server.close();
  });

  it('asks before using the endpoint the workspace settings name; refused, the user\'s endpoint and key are used', async () => {
    const mine = await fake();
    const theirs = await fake();
    await config().update('baseUrl', mine.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', USER_KEY);
    await config().update('baseUrl', theirs.url, vscode.ConfigurationTarget.Workspace);
    assert.equal(config().inspect('baseUrl')?.workspaceValue, theirs.url, 'the workspace sets its own endpoint');

    answer = 'Use My Own Settings';
    await runTask();
    const origin = new URL(theirs.url).origin;
    assert.equal(dialogs.length, 1, 'asked once');
    assert.equal(dialogs[0]!.modal, true);
    assert.equal(dialogs[0]!.message, `This workspace sends your code and key to ${origin}.`);
    assert.ok(dialogs[0]!.detail.includes(`your endpoint: ${new URL(mine.url).origin}`), dialogs[0]!.detail);
    assert.ok(dialogs[0]!.detail.includes(`• stepwise.baseUrl = ${JSON.stringify(theirs.url)}`), 'the value is listed');
    assert.equal(theirs.requests.length, 0, 'refused: the workspace endpoint got nothing');
    assert.deepEqual(auth(mine), [`Bearer ${USER_KEY}`], 'the user\'s endpoint got the task with its own key');

    await runTask();
    assert.equal(dialogs.length, 1, 'the refusal holds for the session: not asked again');
    assert.equal(theirs.requests.length, 0);
  });

  it('confirmed once, uses the workspace endpoint without the key of another origin, then with its own key', async () => {
    const mine = await fake();
    const theirs = await fake();
    await config().update('baseUrl', mine.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', USER_KEY);
    await config().update('baseUrl', theirs.url, vscode.ConfigurationTarget.Workspace);
    dialogs.length = 0;

    answer = 'Use the Workspace Settings';
    await runTask();
    assert.equal(dialogs.length, 1, 'a new workspace endpoint asks again');
    assert.equal(mine.requests.length, 0);
    assert.equal(theirs.chatRequests().length, 1, 'confirmed: the workspace endpoint is used');
    for (const header of auth(theirs)) assert.ok(!header?.includes(USER_KEY), `the user's key never goes to another origin (got ${header})`);

    // "Set API Key" now stores a key for the workspace endpoint's origin only.
    await vscode.commands.executeCommand('stepwise.setApiKey', WORKSPACE_KEY);
    await runTask();
    assert.equal(dialogs.length, 1, 'remembered for this workspace: not asked again');
    assert.equal(auth(theirs).at(-1), `Bearer ${WORKSPACE_KEY}`);
    assert.equal(mine.requests.length, 0);

    // Back to the user's endpoint: its own key, never the workspace endpoint's.
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    await runTask();
    assert.deepEqual(auth(mine), [`Bearer ${USER_KEY}`]);
    assert.ok(workspaceFolder());
  });

  it('a key stored for origin A is never sent to origin B, which gets no key at all', async () => {
    const a = await fake();
    const b = await fake();
    await config().update('baseUrl', a.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', USER_KEY);
    await runTask();
    await config().update('baseUrl', b.url, vscode.ConfigurationTarget.Global);
    await runTask();
    assert.deepEqual(auth(a), [`Bearer ${USER_KEY}`]);
    assert.equal(b.chatRequests().length, 1);
    assert.ok(!auth(b)[0]?.includes(USER_KEY), `origin B got ${auth(b)[0]}`);
    assert.ok(!JSON.stringify(b.requests.map((r) => r.headers)).includes(USER_KEY), 'in no header');
    await vscode.commands.executeCommand('stepwise.clearApiKey');
    await config().update('baseUrl', a.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.clearApiKey');
  });

  it('ignores auto-approval and command lists in the workspace\'s settings, even in a trusted workspace', async () => {
    const settingsFile = path.join(workspaceFolder().uri.fsPath, '.vscode', 'settings.json');
    const before = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    const server = await startFakeOpenAI((_request, index) =>
      index === 0 ? { toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'raised.txt', content: 'x' }) }] } : finish('done'),
    );
    fakes.push(server);
    await config().update('baseUrl', server.url, vscode.ConfigurationTarget.Global);
    await config().update('approvals.autoApprove', ['read'], vscode.ConfigurationTarget.Global);
    try {
      mkdirSync(path.dirname(settingsFile), { recursive: true });
      writeFileSync(settingsFile, JSON.stringify({ 'stepwise.approvals.autoApprove': ['read', 'edit', 'command', 'mcp'], 'stepwise.commands.allow': ['*'], 'stepwise.maxTurns': 9 }));
      await waitFor('VS Code to read the workspace settings', () => config().inspect('maxTurns')?.workspaceValue === 9);
      const runId = await api.controller.start('Write a file', { planMode: 'never' });
      const approval = await waitFor('the edit to ask first', () => api.controller.pending.pendingApprovals()[0]);
      api.controller.decideApproval(approval, { approved: false, reason: 'no' });
      await api.controller.whenIdle();
      assert.ok(runId);
      assert.equal(existsSync(path.join(workspaceFolder().uri.fsPath, 'raised.txt')), false, 'refused: nothing written');
    } finally {
      if (before === undefined) writeFileSync(settingsFile, '{}');
      else writeFileSync(settingsFile, before);
      await config().update('approvals.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
