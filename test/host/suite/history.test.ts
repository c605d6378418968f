import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import type { EventEnvelope } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { activateStepwise, waitFor } from './hostTestSupport';

const call = (name: string, args: unknown): FakeTurn => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('stepwise').update(key, value, vscode.ConfigurationTarget.Global);
}

describe('history commands: export and delete in the real editor', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  let out: string;

  before(async () => {
    api = await activateStepwise();
    await setSetting('plan.mode', 'never');
    await setSetting('approvals.autoApprove', ['read', 'command']);
    out = mkdtempSync(path.join(os.tmpdir(), 'stepwise-export-'));
  });

  after(async () => {
    await setSetting('approvals.autoApprove', undefined);
    rmSync(out, { recursive: true, force: true });
  });

  afterEach(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    await fake?.close();
    fake = undefined;
    await vscode.commands.executeCommand('stepwise.clearApiKey');
  });

  async function runTask(task: string, turns: FakeTurn[]): Promise<string> {
    fake = await startFakeOpenAI(turns);
    await setSetting('baseUrl', fake.url);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-test-0000000000000000');
    const runId = await api.controller.start(task, { planMode: 'never' });
    assert.ok(runId, 'the task started');
    return runId;
  }

  const eventsFile = (runId: string) => path.join(api.historyFolder, `${runId}.jsonl`);

  it('exports a finished task as markdown (command with its exit code, the answer) and as the stored JSON events', async () => {
    const runId = await runTask('Check the history export', [
      call('run_command', { command: 'echo checking; exit 3' }),
      call('finish', { summary: 'The check failed with exit code 3.' }),
    ]);
    await api.controller.whenIdle();
    const mdPath = path.join(out, 'task.md');
    const written = await vscode.commands.executeCommand<string>('stepwise.exportHistoryEntry', runId, 'markdown', mdPath);
    assert.equal(written, mdPath);
    const md = readFileSync(mdPath, 'utf8');
    assert.match(md, /^# Stepwise task/);
    assert.ok(md.includes('Check the history export'), md);
    assert.ok(md.includes('- `echo checking; exit 3` — exit code 3'), md);
    assert.ok(md.includes('The check failed with exit code 3.'), md);
    assert.match(md, /- Outcome: (finished|unverified)/);

    const jsonPath = path.join(out, 'task.json');
    await vscode.commands.executeCommand('stepwise.exportHistoryEntry', runId, 'json', jsonPath);
    const exported = JSON.parse(readFileSync(jsonPath, 'utf8')) as EventEnvelope[];
    const stored = readFileSync(eventsFile(runId), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as EventEnvelope);
    assert.deepEqual(exported, stored, 'the JSON export is the stored events');
    assert.equal(exported[0]?.event.type, 'run_started');
  });

  it('deletes a task: its events, side files and checkpoint list go; the running task is refused', async () => {
    const runId = await runTask('A task to delete', [
      call('run_command', { command: 'echo made > history-delete.txt' }),
      call('finish', { summary: 'Wrote a file.' }),
    ]);
    await api.controller.whenIdle();
    assert.ok(existsSync(eventsFile(runId)));
    const checkpointList = path.join(api.checkpointsHome, 'tasks', runId);
    assert.ok(existsSync(checkpointList), 'the command was checkpointed (git is on PATH here)');
    assert.equal(await vscode.commands.executeCommand('stepwise.deleteHistoryEntry', runId, { confirmed: true }), true);
    assert.equal(existsSync(eventsFile(runId)), false, 'events removed');
    assert.equal(existsSync(path.join(api.historyFolder, `${runId}.state.json`)), false, 'side files removed');
    assert.equal(existsSync(checkpointList), false, 'checkpoint list removed');
    assert.equal(await vscode.commands.executeCommand('stepwise.deleteHistoryEntry', runId, { confirmed: true }), false, 'gone already');
    rmSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'history-delete.txt'), { force: true });

    // A running task is never deleted (nor exported half-way by mistake: it is simply refused to delete).
    const running = await runTask('A long task', [call('run_command', { command: 'sleep 30' }), call('finish', { summary: 'done' })]);
    await waitFor('the command to run', () => existsSync(eventsFile(running)) && readFileSync(eventsFile(running), 'utf8').includes('"approval_answered"'));
    assert.equal(await vscode.commands.executeCommand('stepwise.deleteHistoryEntry', running, { confirmed: true }), false);
    assert.ok(existsSync(eventsFile(running)), 'the running task is kept');
  });
});
