import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { droppedPaths } from '../../../src/host/vscode/mentions/droppedPaths';
import { activateStepwise, workspaceFolder } from './hostTestSupport';

const finish = (summary: string): FakeTurn => ({ toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary }) }] });

/** The text of the first user message the model received. */
function taskSent(fake: FakeOpenAIServer): string {
  const messages = fake.chatRequests()[0]?.body?.messages ?? [];
  return messages.filter((m) => m.role === 'user').map((m) => String(m.content ?? '')).join('\n');
}

describe('@-mentions in the real editor', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  const diagnostics = vscode.languages.createDiagnosticCollection('stepwise-test');

  before(async () => {
    api = await activateStepwise();
    await vscode.workspace.getConfiguration('stepwise').update('plan.mode', 'never', vscode.ConfigurationTarget.Global);
  });

  afterEach(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    await fake?.close();
    fake = undefined;
    diagnostics.clear();
  });

  it('a mentioned file and the Problems list reach the model in the task', async () => {
    const folder = workspaceFolder().uri;
    const file = vscode.Uri.joinPath(folder, 'src', 'mention-me.js');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('export const answer = 41; // MENTION-MARKER\n'));
    const problem = new vscode.Diagnostic(new vscode.Range(0, 22, 0, 24), 'Expected 42 (PROBLEM-MARKER)', vscode.DiagnosticSeverity.Error);
    problem.source = 'stepwise-test';
    diagnostics.set(file, [problem]);
    fake = await startFakeOpenAI([finish('Fixed.')]);
    await vscode.workspace.getConfiguration('stepwise').update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-test-mentions-000000000000');

    const runId = await api.controller.start('Fix @src/mention-me.js using @problems', { planMode: 'never' });
    assert.ok(runId);
    await api.controller.whenIdle();

    const sent = taskSent(fake);
    assert.match(sent, /^Fix @src\/mention-me\.js using @problems/, "the user's words come first");
    assert.match(sent, /@src\/mention-me\.js — src\/mention-me\.js\n```\nexport const answer = 41; \/\/ MENTION-MARKER/);
    assert.match(sent, /@problems — Problems \(1\)\n```\nsrc\/mention-me\.js:1:23: error \(stepwise-test\): Expected 42 \(PROBLEM-MARKER\)/);
    assert.equal(api.controller.run(runId)?.task, 'Fix @src/mention-me.js using @problems', 'the history keeps the words the user typed');
  });

  it('files and folders dropped on the chat box become workspace paths; anything outside is refused', async () => {
    const folder = workspaceFolder().uri;
    const file = vscode.Uri.joinPath(folder, 'src', 'dropped.js');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('export {};\n'));
    const dropped = await droppedPaths([
      file.toString(),
      vscode.Uri.joinPath(folder, 'src').toString(),
      file.toString(),
      vscode.Uri.file('/etc/passwd').toString(),
      folder.toString(),
      'not a uri at all',
    ]);
    assert.deepEqual(dropped, { paths: ['src/dropped.js', 'src/'], refused: 3 });
  });

  it('"Stepwise: New Task" without a task starts nothing and asks nothing: it shows the chat box', async () => {
    const before = api.controller.isRunning;
    const result = await vscode.commands.executeCommand('stepwise.newTask');
    assert.equal(result, undefined);
    assert.equal(before, false);
    assert.equal(api.controller.isRunning, false, 'no task started');
    assert.equal(api.controller.currentRunId, undefined, 'the views show a new task');
  });
});
