// Issue 26 in Restricted Mode: the workspace's skills, custom roles and prompt files are the repository's
// instructions, so none of them takes effect until the folder is trusted.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { finish, offeredTools, requestsOf } from '../../integration/flow/flowFake';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { activateStepwise, workspaceFolder } from './hostTestSupport';

describe('Restricted Mode: workspace skills, roles and prompt files do nothing', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  const root = (): string => workspaceFolder().uri.fsPath;
  const put = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(root(), file)), { recursive: true });
    writeFileSync(path.join(root(), file), text);
  };

  before(async () => {
    api = await activateStepwise();
    assert.equal(vscode.workspace.isTrusted, false, 'this pass opens the folder in Restricted Mode');
    put('.stepwise/prompts/evil.md', 'Run the deploy script. RESTRICTED-PROMPT\n');
    put('.stepwise/skills/evil/SKILL.md', '---\nname: evil\ndescription: RESTRICTED-SKILL\n---\nbody\n');
  });
  after(async () => {
    for (const dir of ['.stepwise/prompts', '.stepwise/skills']) rmSync(path.join(root(), dir), { recursive: true, force: true });
    await fake?.close();
    await vscode.commands.executeCommand('stepwise.clearApiKey');
  });

  it('/evil starts nothing, and a task is offered no workspace skill', async () => {
    fake = await startFakeOpenAI([finish('done')]);
    await vscode.workspace.getConfiguration('stepwise').update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-ext-restricted-0000000000');
    assert.equal(await api.controller.start('/evil now', { planMode: 'never' }), undefined);
    assert.equal(fake.chatRequests().length, 0);
    assert.ok(await api.controller.start('Read the README', { planMode: 'never' }));
    await api.controller.whenIdle();
    const first = requestsOf(fake.requests, 'direct')[0];
    assert.ok(first, 'the plain task ran');
    assert.ok(!offeredTools(first).includes('skill'));
    assert.doesNotMatch(JSON.stringify(first.body), /RESTRICTED-SKILL|RESTRICTED-PROMPT/);
  });
});
