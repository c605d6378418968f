// The trusted pass: a real .vscode/settings.json in the opened folder sets verify.commands, web.browserPath,
// web.allowHosts and checkpoints.* (the settings trust table's `workspace-confirm` class). Read through the
// extension's own config reader, they do nothing until the user confirms the values the prompt lists; refused, the
// user's own values apply; a changed file asks again. The verify command is also run for real: it leaves a marker
// only once confirmed.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { activateStepwise, waitFor, workspaceFolder } from './hostTestSupport';

const finish: FakeTurn = { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'done' }) }] };
const KEY = `sk-host-setting-trust-${Date.now().toString(36)}00000000`;

interface Dialog {
  message: string;
  detail: string;
}

describe('workspace-confirm settings from .vscode/settings.json (trusted workspace)', function () {
  this.timeout(180_000);
  let api: StepwiseApi;
  const fakes: FakeOpenAIServer[] = [];
  const dialogs: Dialog[] = [];
  let answer: string | undefined;
  let restoreDialogs: (() => void) | undefined;
  let settingsBefore: string | undefined;
  const markers = [1, 2, 3].map((n) => path.join(os.tmpdir(), `stepwise-verify-marker-${Date.now()}-${n}`));
  const settingsFile = (): string => path.join(workspaceFolder().uri.fsPath, '.vscode', 'settings.json');
  const user = async (key: string, value: unknown): Promise<void> => vscode.workspace.getConfiguration('stepwise').update(key, value, vscode.ConfigurationTarget.Global);
  /** What the repository's settings file says; `maxTurns` (workspace-safe) shows when VS Code has read it. */
  const repoSettings = (marker: string, maxTurns: number): Record<string, unknown> => ({
    'stepwise.verify.commands': [`touch ${marker}`],
    'stepwise.web.browserPath': '/tmp/repo-browser',
    'stepwise.web.allowHosts': ['127.0.0.1', 'localhost'],
    'stepwise.checkpoints.enabled': false,
    'stepwise.checkpoints.maxAgeDays': 1,
    'stepwise.checkpoints.maxSizeMB': 50,
    'stepwise.checkpoints.maxFileSizeMB': 0.01,
    'stepwise.maxTurns': maxTurns,
  });
  const writeRepoSettings = async (marker: string, maxTurns: number): Promise<void> => {
    mkdirSync(path.dirname(settingsFile()), { recursive: true });
    writeFileSync(settingsFile(), JSON.stringify(repoSettings(marker, maxTurns), null, 2));
    await waitFor('VS Code to read the workspace settings', () => vscode.workspace.getConfiguration('stepwise').inspect('maxTurns')?.workspaceValue === maxTurns);
  };
  /** A task that changes a file and finishes: the verify commands in use run at its finish. */
  const runChangingTask = async (): Promise<void> => {
    const server = await startFakeOpenAI((_request, index) =>
      index === 0 ? { toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'trust-note.txt', content: `run ${Date.now()}\n` }) }] } : finish,
    );
    fakes.push(server);
    await user('baseUrl', server.url);
    const runId = await api.controller.start('Write a note', { planMode: 'never' });
    assert.ok(runId, 'the task started');
    await api.controller.whenIdle();
    assert.ok(server.chatRequests().length >= 2, 'the task reached the model');
  };
  /** The user's own values of the four settings (and the defaults of the ones the user left unset). */
  const assertUsersValues = (why: string): void => {
    const s = api.settings();
    assert.deepEqual(s.verifyCommands, [], `${why}: verify.commands`);
    assert.equal(s.webBrowserPath, '', `${why}: web.browserPath`);
    assert.deepEqual(s.webAllowHosts, ['user.example'], `${why}: web.allowHosts`);
    assert.equal(s.checkpointsEnabled, true, `${why}: checkpoints.enabled`);
    assert.equal(s.checkpointsMaxAgeDays, 90, `${why}: checkpoints.maxAgeDays`);
    assert.equal(s.checkpointsMaxSizeMB, 2048, `${why}: checkpoints.maxSizeMB`);
    assert.equal(s.checkpointsMaxFileSizeMB, 5, `${why}: checkpoints.maxFileSizeMB`);
  };

  before(async () => {
    api = await activateStepwise();
    assert.equal(vscode.workspace.isTrusted, true);
    settingsBefore = existsSync(settingsFile()) ? readFileSync(settingsFile(), 'utf8') : undefined;
    const window = vscode.window as unknown as Record<string, unknown>;
    const original = window.showWarningMessage;
    window.showWarningMessage = (message: string, options: vscode.MessageOptions | string, ...items: string[]) => {
      dialogs.push({ message, detail: typeof options === 'object' ? (options.detail ?? '') : '' });
      return Promise.resolve(items.find((item) => item === answer));
    };
    restoreDialogs = () => (window.showWarningMessage = original);
    await vscode.commands.executeCommand('stepwise.setApiKey', KEY);
    await user('approvals.autoApprove', ['read', 'edit']);
    await user('web.allowHosts', ['user.example']);
    await user('checkpoints.maxAgeDays', 90);
  });

  after(async () => {
    restoreDialogs?.();
    api.controller.stop();
    await api.controller.whenIdle();
    if (settingsBefore === undefined) writeFileSync(settingsFile(), '{}');
    else writeFileSync(settingsFile(), settingsBefore);
    for (const key of ['approvals.autoApprove', 'web.allowHosts', 'checkpoints.maxAgeDays', 'baseUrl']) await user(key, undefined);
    await vscode.commands.executeCommand('stepwise.clearApiKey');
    rmSync(path.join(workspaceFolder().uri.fsPath, 'trust-note.txt'), { force: true });
    for (const marker of markers) rmSync(marker, { force: true });
    for (const server of fakes) await server.close();
  });

  it('before any answer: the workspace values do nothing (the user\'s values apply), a workspace-safe one does', async () => {
    await writeRepoSettings(markers[0]!, 9);
    assertUsersValues('not yet confirmed');
    assert.equal(api.settings().maxTurns, 9, 'workspace-safe: maxTurns comes from the file');
  });

  it('asks before a run, listing every value; refused, the user\'s values stay and the verify command never runs', async () => {
    answer = 'Use My Own Settings';
    await runChangingTask();
    assert.equal(dialogs.length, 1, 'asked once');
    const { message, detail } = dialogs[0]!;
    assert.equal(message, 'This workspace sets Stepwise settings that need your yes.');
    for (const [key, value] of Object.entries(repoSettings(markers[0]!, 9))) {
      if (key === 'stepwise.maxTurns') assert.ok(!detail.includes(key), 'a workspace-safe setting is not asked about');
      else assert.ok(detail.includes(`• ${key} = ${JSON.stringify(value)} (`), `the prompt lists ${key}: ${detail}`);
    }
    assert.match(detail, /verify\.commands = .*\(commands run without asking\)/);
    assert.match(detail, /web\.browserPath = .*\(a program Stepwise starts\)/);
    assert.match(detail, /Without your yes, your own settings are used\./);
    assertUsersValues('refused');
    assert.equal(existsSync(markers[0]!), false, 'the workspace\'s verify command did not run');

    await runChangingTask();
    assert.equal(dialogs.length, 1, 'the refusal holds for the session');
    assert.equal(existsSync(markers[0]!), false);
  });

  it('a changed file asks again; confirmed, the workspace values apply and its verify command runs', async () => {
    await writeRepoSettings(markers[1]!, 8);
    assertUsersValues('changed, not yet confirmed');
    answer = 'Use the Workspace Settings';
    await runChangingTask();
    assert.equal(dialogs.length, 2, 'the changed values asked again');
    const s = api.settings();
    assert.deepEqual(s.verifyCommands, [`touch ${markers[1]}`]);
    assert.equal(s.webBrowserPath, '/tmp/repo-browser');
    assert.deepEqual(s.webAllowHosts, ['127.0.0.1', 'localhost']);
    assert.deepEqual([s.checkpointsEnabled, s.checkpointsMaxAgeDays, s.checkpointsMaxSizeMB, s.checkpointsMaxFileSizeMB], [false, 1, 50, 0.01]);
    assert.equal(existsSync(markers[1]!), true, 'confirmed: the workspace\'s verify command ran at finish');
  });

  it('after a yes, any change to those values does nothing until confirmed again', async () => {
    await writeRepoSettings(markers[2]!, 7);
    assertUsersValues('changed after the yes');
    answer = 'Use My Own Settings';
    await runChangingTask();
    assert.equal(dialogs.length, 3, 'asked about the new values');
    assert.ok(dialogs[2]!.detail.includes(markers[2]!), 'the prompt shows the new command');
    assert.equal(existsSync(markers[2]!), false, 'the changed verify command did not run');
    assertUsersValues('changed and refused');
  });
});
