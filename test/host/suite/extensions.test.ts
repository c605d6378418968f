// Issue 26 in the real editor (trusted pass): `/name args` typed in VS Code runs the workspace's prompt
// file with its arguments, the workspace's skills are offered, and a custom role's step gets its tools.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { call, finish, flowScript, offeredTools, requestsOf, requestText, systemPrompt } from '../../integration/flow/flowFake';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { activateStepwise, waitFor, workspaceFolder } from './hostTestSupport';

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('stepwise').update(key, value, vscode.ConfigurationTarget.Global);
}

describe('skills, custom roles and prompt files in VS Code (trusted workspace)', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  const root = (): string => workspaceFolder().uri.fsPath;
  const put = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(root(), file)), { recursive: true });
    writeFileSync(path.join(root(), file), text);
  };

  // The shared test workspace is left as found: suites after this one expect no .stepwise/ or .github/.
  let found: { stepwise: boolean; github: boolean };
  before(async () => {
    api = await activateStepwise();
    found = { stepwise: existsSync(path.join(root(), '.stepwise')), github: existsSync(path.join(root(), '.github')) };
    put('.stepwise/prompts/changelog.md', '---\ndescription: Update the changelog\n---\nAdd a CHANGELOG entry for $ARGUMENTS. HOST-PROMPT-MARKER\n');
    put('.github/prompts/explain.prompt.md', 'Explain ${input:topic}. HOST-GH-MARKER\n');
    put('.stepwise/skills/notes/SKILL.md', '---\nname: notes\ndescription: Writes notes HOST-SKILL-DESC\n---\nHOST-SKILL-BODY\n');
    put('.stepwise/agents/reviewer.md', '---\nname: reviewer\ndescription: Reviews HOST-ROLE-DESC\ntools: Read, Grep\n---\nHOST-ROLE-PROMPT\n');
    await setSetting('approvals.autoApprove', ['read']);
  });
  after(async () => {
    for (const dir of ['.stepwise/prompts', '.github/prompts', '.stepwise/skills', '.stepwise/agents']) rmSync(path.join(root(), dir), { recursive: true, force: true });
    if (!found.stepwise) rmSync(path.join(root(), '.stepwise'), { recursive: true, force: true });
    if (!found.github) rmSync(path.join(root(), '.github'), { recursive: true, force: true });
    await setSetting('plan.mode', undefined);
    await setSetting('approvals.autoApprove', undefined);
  });
  afterEach(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    await fake?.close();
    fake = undefined;
    await vscode.commands.executeCommand('stepwise.clearApiKey');
  });

  async function useFake(script: Parameters<typeof flowScript>[0]): Promise<FakeOpenAIServer> {
    fake = await startFakeOpenAI(flowScript(script));
    await setSetting('baseUrl', fake.url);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-ext-000000000000000000');
    return fake;
  }

  it('/changelog 2.1.0 runs the prompt file with its arguments; the skill is offered by description, its body not sent', async () => {
    const server = await useFake({ direct: [finish('done')] });
    const runId = await api.controller.start('/changelog 2.1.0', { planMode: 'never' });
    assert.ok(runId, 'the task started');
    await api.controller.whenIdle();
    const [first] = requestsOf(server.requests, 'direct');
    assert.ok(first);
    assert.match(requestText(first), /Add a CHANGELOG entry for 2\.1\.0\. HOST-PROMPT-MARKER/);
    assert.ok(offeredTools(first).includes('skill'));
    assert.match(JSON.stringify(first.body?.tools), /HOST-SKILL-DESC/);
    assert.doesNotMatch(JSON.stringify(first.body), /HOST-SKILL-BODY/);
  });

  it('/explain with a .github/prompts file fills ${input:…}; an unknown /name starts nothing', async () => {
    const server = await useFake({ direct: [finish('done')] });
    assert.ok(await api.controller.start('/explain the event stream', { planMode: 'never' }));
    await api.controller.whenIdle();
    assert.match(requestText(requestsOf(server.requests, 'direct')[0]!), /Explain the event stream\. HOST-GH-MARKER/);
    const before = server.chatRequests().length;
    assert.equal(await api.controller.start('/nosuch thing', { planMode: 'never' }), undefined);
    assert.equal(server.chatRequests().length, before, 'no model call for an unknown /name');
  });

  it('a follow-up typed as /changelog 3.0.0 runs the prompt file in the same conversation', async () => {
    const server = await useFake({ direct: () => finish('done') });
    const runId = await api.controller.start('Look at the README FIRST-TASK-MARKER', { planMode: 'never' });
    assert.ok(runId);
    await api.controller.whenIdle();
    assert.ok(await api.controller.resume(runId, '/changelog 3.0.0'));
    await api.controller.whenIdle();
    const last = server.chatRequests().at(-1)!;
    assert.match(requestText(last), /FIRST-TASK-MARKER[\s\S]*Add a CHANGELOG entry for 3\.0\.0\. HOST-PROMPT-MARKER/);
  });

  it('a custom role is offered to the planner and its step runs with exactly its tools', async () => {
    const plan = { goal: 'Review', thought: 'x', steps: [{ title: 'Review it', description: 'Review README.md.', role: 'reviewer' }] };
    const server = await useFake({
      planner: [call('create_plan', plan)],
      'step:Review it': [finish('Fine.')],
      updater: () => call('keep_plan', {}),
      report: () => call('write_report', { summary: 'Reviewed.', findings: [], verification: '', left: [] }),
    });
    await setSetting('plan.mode', 'always');
    assert.ok(await api.controller.start('Review the README', { planMode: 'always' }));
    await waitFor('the step ran', () => requestsOf(server.requests, 'step:Review it').length > 0);
    await api.controller.whenIdle();
    assert.match(systemPrompt(requestsOf(server.requests, 'planner')[0]!), /- reviewer: Reviews HOST-ROLE-DESC/);
    const step = requestsOf(server.requests, 'step:Review it')[0]!;
    assert.deepEqual(offeredTools(step).sort(), ['finish', 'read_file', 'search_files']);
    assert.match(systemPrompt(step), /HOST-ROLE-PROMPT/);
  });
});
