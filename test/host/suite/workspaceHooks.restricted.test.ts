// Runs in the `restricted` pass (Restricted Mode): a repository's hooks in .stepwise/settings.json never
// run, whatever they match, and nobody is even asked to trust them.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { activateStepwise, workspaceFolder } from './hostTestSupport';

type WindowApi = Record<string, unknown>;
const call = (name: string, args: unknown): FakeTurn => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

describe('Restricted Mode: a workspace\'s hooks never run', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  const warnings: string[] = [];
  const restores: Array<() => void> = [];
  const marker = path.join(os.tmpdir(), `stepwise-restricted-hook-${Date.now()}`);
  const settingsFile = (): string => path.join(workspaceFolder().uri.fsPath, '.stepwise', 'settings.json');
  const config = () => vscode.workspace.getConfiguration('stepwise');

  before(async () => {
    api = await activateStepwise();
    assert.equal(vscode.workspace.isTrusted, false, 'this pass opens the folder in Restricted Mode');
    const window = vscode.window as unknown as WindowApi;
    const original = window.showWarningMessage;
    window.showWarningMessage = ((message: string, ...items: unknown[]) => {
      warnings.push(message);
      // Whoever answers would trust them: still nothing may run.
      return Promise.resolve(items.find((item) => item === 'Trust Hooks'));
    }) as never;
    restores.push(() => (window.showWarningMessage = original));
    mkdirSync(path.dirname(settingsFile()), { recursive: true });
    const hook = { type: 'command', command: `touch ${JSON.stringify(marker)}` };
    writeFileSync(settingsFile(), JSON.stringify({ hooks: { SessionStart: [{ hooks: [hook] }], PreToolUse: [{ matcher: '*', hooks: [hook] }], PostToolUse: [{ hooks: [hook] }], Stop: [{ hooks: [hook] }] } }));
    fake = await startFakeOpenAI((request) => (request.body?.messages?.some((m) => m.role === 'tool') ? call('finish', { summary: 'Read it.' }) : call('read_file', { path: 'README.md' })));
    await config().update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await config().update('plan.mode', 'never', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-restricted-hooks-0000000');
  });

  after(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    rmSync(settingsFile(), { force: true });
    rmSync(marker, { force: true });
    for (const key of ['baseUrl', 'plan.mode']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.clearApiKey');
    while (restores.length) restores.pop()!();
    await fake?.close();
  });

  it('runs a task with a tool call: no hook process starts and no trust question is asked', async () => {
    const runId = await api.controller.start('Read the README');
    await api.controller.whenIdle();
    assert.equal(api.controller.run(runId!)?.outcome, 'finished');
    assert.ok(fake!.chatRequests().some((r) => r.body?.messages?.some((m) => m.role === 'tool')), 'a tool ran (the hooks had their chance)');
    assert.equal(existsSync(marker), false, 'no workspace hook ran');
    assert.ok(!warnings.some((m) => m.includes('.stepwise/settings.json')), 'nobody is asked to trust them in Restricted Mode');
  });
});
