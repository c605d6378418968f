// The restricted pass (Restricted Mode): a real .vscode/settings.json sets verify.commands, web.browserPath,
// web.allowHosts and checkpoints.* (the trust table's `workspace-confirm` class). Nothing asks, and the extension's
// own config reader ignores every one of them — before and after a run; a workspace-safe setting still applies.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { activateStepwise, waitFor, workspaceFolder } from './hostTestSupport';

const KEY = `sk-host-setting-trust-restricted-${Date.now().toString(36)}00000000`;

describe('Restricted Mode: workspace-confirm settings from .vscode/settings.json are ignored', function () {
  this.timeout(180_000);
  let api: StepwiseApi;
  let server: FakeOpenAIServer;
  const prompts: string[] = [];
  let restoreDialogs: (() => void) | undefined;
  const user = async (key: string, value: unknown): Promise<void> => vscode.workspace.getConfiguration('stepwise').update(key, value, vscode.ConfigurationTarget.Global);
  const vscodeDir = (): string => path.join(workspaceFolder().uri.fsPath, '.vscode');

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
    assert.equal(vscode.workspace.isTrusted, false, 'this pass opens the folder in Restricted Mode');
    const window = vscode.window as unknown as Record<string, unknown>;
    const original = window.showWarningMessage;
    window.showWarningMessage = (message: string) => {
      prompts.push(message);
      return Promise.resolve(undefined);
    };
    restoreDialogs = () => (window.showWarningMessage = original);
    server = await startFakeOpenAI(() => ({ toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'looked' }) }] }));
    await user('baseUrl', server.url);
    await user('plan.mode', 'never');
    await user('web.allowHosts', ['user.example']);
    await user('checkpoints.maxAgeDays', 90);
    await vscode.commands.executeCommand('stepwise.setApiKey', KEY);
    mkdirSync(vscodeDir(), { recursive: true });
    writeFileSync(
      path.join(vscodeDir(), 'settings.json'),
      JSON.stringify({
        'stepwise.verify.commands': ['touch /tmp/stepwise-restricted-verify'],
        'stepwise.web.browserPath': '/tmp/repo-browser',
        'stepwise.web.allowHosts': ['127.0.0.1'],
        'stepwise.checkpoints.enabled': false,
        'stepwise.checkpoints.maxAgeDays': 1,
        'stepwise.checkpoints.maxSizeMB': 50,
        'stepwise.checkpoints.maxFileSizeMB': 0.01,
        'stepwise.maxTurns': 6,
      }),
    );
    // maxTurns is workspace-safe (not in restrictedConfigurations): seeing it shows VS Code read the file.
    await waitFor('VS Code to read the workspace settings', () => vscode.workspace.getConfiguration('stepwise').inspect('maxTurns')?.workspaceValue === 6);
  });

  after(async () => {
    restoreDialogs?.();
    api.controller.stop();
    await api.controller.whenIdle();
    for (const key of ['baseUrl', 'plan.mode', 'web.allowHosts', 'checkpoints.maxAgeDays']) await user(key, undefined);
    await vscode.commands.executeCommand('stepwise.clearApiKey');
    rmSync(vscodeDir(), { recursive: true, force: true });
    await server.close();
  });

  it('the config reader ignores them and keeps the user\'s values; the workspace-safe maxTurns applies', () => {
    assertUsersValues('Restricted Mode');
    assert.equal(api.settings().maxTurns, 6);
  });

  it('a run asks nothing about them and they still do nothing afterwards', async () => {
    const runId = await api.controller.start('Look at the project', { planMode: 'never' });
    assert.ok(runId, 'the task started');
    await api.controller.whenIdle();
    assert.equal(api.controller.run(runId)?.outcome, 'finished');
    assert.deepEqual(prompts, [], 'no confirmation is offered in Restricted Mode');
    assert.ok(server.chatRequests().length >= 1);
    assertUsersValues('after a run');
  });
});
