import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import type { UndoReport } from '../../../src/host/vscode/editor/undoTaskEdits';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { activateStepwise, filesContaining, runDir, waitFor, workspaceFolder } from './hostTestSupport';

const ORIGINAL = "export function greet(name) {\n  return 'Hello, ' + name;\n}\n";
const CHANGED = "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n";

const call = (name: string, args: unknown): FakeTurn => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });
const finish = (summary: string): FakeTurn => call('finish', { summary });

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('stepwise').update(key, value, vscode.ConfigurationTarget.Global);
}

function fileOnDisk(rel: string): string | undefined {
  const abs = path.join(workspaceFolder().uri.fsPath, rel);
  return existsSync(abs) ? readFileSync(abs, 'utf8') : undefined;
}

/** Tool results the model was sent (role `tool` messages of the last request). */
function toolMessages(fake: FakeOpenAIServer): string[] {
  const last = fake.chatRequests().at(-1);
  return (last?.body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));
}

describe('tasks in the real editor', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;

  before(async () => {
    api = await activateStepwise();
    await setSetting('plan.mode', 'never');
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(workspaceFolder().uri, 'src', 'greet.js'), new TextEncoder().encode(ORIGINAL));
  });

  afterEach(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    await fake?.close();
    fake = undefined;
    await vscode.commands.executeCommand('stepwise.clearApiKey');
  });

  async function useFake(turns: FakeTurn[], key = 'sk-host-test-0000000000000000'): Promise<FakeOpenAIServer> {
    fake = await startFakeOpenAI(turns);
    await setSetting('baseUrl', fake.url);
    await vscode.commands.executeCommand('stepwise.setApiKey', key);
    return fake;
  }

  it('shows an edit as a diff, applies it through WorkspaceEdit when accepted (Ctrl+Z undoes it), and undoes the task', async () => {
    await setSetting('approvals.autoApprove', ['read']);
    await useFake([
      call('write_file', { path: 'src/greet.js', content: CHANGED }),
      call('write_file', { path: 'src/created.txt', content: 'made by the task\n' }),
      finish('Changed the greeting and added a note.'),
    ]);
    const runId = await api.controller.start('Make the greeting friendlier', { planMode: 'never' });
    assert.ok(runId, 'the task started');

    // 1. the edit waits for approval, shown as a diff editor whose right side is the proposal
    await waitFor('the first approval', () => api.controller.pending.pendingApprovals().length === 1);
    const diffTab = await waitFor('the review diff', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'stepwise-review'),
    );
    const input = diffTab.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), CHANGED);
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), ORIGINAL);
    assert.equal(fileOnDisk('src/greet.js'), ORIGINAL, 'nothing is written before approval');

    // 2. "Accept Edit" (the diff editor's title action) approves it
    assert.equal(await vscode.commands.executeCommand('stepwise.acceptEdit', input.modified), true);
    await waitFor('greet.js written', () => fileOnDisk('src/greet.js') === CHANGED);

    // 3. the second edit is approved the way the webview does it
    const second = await waitFor('the second approval', () => api.controller.pending.pendingApprovals()[0]);
    assert.equal(api.controller.decideApproval(second, { approved: true }), true);
    await api.controller.whenIdle();
    assert.equal(api.controller.run(runId)?.outcome, 'finished');
    assert.equal(fileOnDisk('src/created.txt'), 'made by the task\n');
    assert.ok(
      !vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'stepwise-review'),
      'review diffs are closed once decided',
    );

    // 4. the write went through the editor's undo stack: Ctrl+Z brings the old text back, Ctrl+Y the new
    const greetUri = vscode.Uri.joinPath(workspaceFolder().uri, 'src', 'greet.js');
    const editor = await vscode.window.showTextDocument(greetUri);
    assert.equal(editor.document.getText(), CHANGED);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), ORIGINAL, 'undo in the editor restores the text before the edit');
    await vscode.commands.executeCommand('redo');
    assert.equal(editor.document.getText(), CHANGED);
    assert.equal(editor.document.isDirty, false);

    // 5. "Undo This Task's Edits" restores changed files and deletes created ones
    const report = await vscode.commands.executeCommand<UndoReport>('stepwise.undoTaskEdits', runId, { confirmed: true });
    assert.deepEqual(report.restored, ['src/greet.js']);
    assert.deepEqual(report.deleted, ['src/created.txt']);
    assert.deepEqual(report.skipped, []);
    assert.equal(fileOnDisk('src/greet.js'), ORIGINAL);
    assert.equal(fileOnDisk('src/created.txt'), undefined);
    assert.equal(editor.document.getText(), ORIGINAL);
  });

  it("undo from the journal names the files the user changed in its question, keeps them on 'keep mine', undoes them on 'take all'", async () => {
    await setSetting('approvals.autoApprove', ['read', 'edit']);
    const root = workspaceFolder().uri.fsPath;
    for (const [round, answer] of [[1, 'keep-mine'], [2, 'take-all']] as const) {
      const [mine, theirs] = [`src/undo-mine-${round}.txt`, `src/undo-task-${round}.txt`];
      writeFileSync(path.join(root, mine), 'before\n');
      writeFileSync(path.join(root, theirs), 'before\n');
      await useFake([call('write_file', { path: mine, content: 'task\n' }), call('write_file', { path: theirs, content: 'task\n' }), finish('Wrote both.')]);
      const runId = await api.controller.start(`Write both files (${round})`, { planMode: 'never' });
      assert.ok(runId);
      await api.controller.whenIdle();
      // The user adds a line to one file after the task, in the editor, and saves it.
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, mine)));
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, new vscode.Position(1, 0), 'my line\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await doc.save());
      const asked: Array<[readonly string[], readonly string[]]> = [];
      const report = await api.controller.undo(runId, { keep: [], ask: async (paths, changed) => (asked.push([paths, changed]), answer) });
      assert.deepEqual(asked.map(([p, c]) => [[...p].sort(), c]), [[[mine, theirs].sort(), [mine]]], 'one question, naming the file the user changed apart');
      assert.ok(report && report !== 'declined');
      assert.equal(fileOnDisk(theirs), 'before\n');
      if (answer === 'keep-mine') {
        assert.equal(fileOnDisk(mine), 'task\nmy line\n', "the user's line is kept");
        assert.deepEqual(report.skipped.map((s) => s.path), [mine]);
      } else {
        assert.equal(fileOnDisk(mine), 'before\n', 'undone too, as the user chose');
        assert.deepEqual(report.skipped, []);
      }
    }
  });

  it('never overwrites a document with unsaved changes: the model gets an error result', async () => {
    await setSetting('approvals.autoApprove', ['read', 'edit']);
    // A file of its own, so no save or undo left over from another test can touch it.
    const rel = 'src/notes.js';
    writeFileSync(path.join(workspaceFolder().uri.fsPath, rel), ORIGINAL);
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, 'src', 'notes.js');
    const editor = await vscode.window.showTextDocument(uri);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// my unsaved note\n'));
    assert.equal(editor.document.isDirty, true);
    const server = await useFake([call('write_file', { path: rel, content: CHANGED }), finish('Could not edit: unsaved changes.')]);
    const runId = await api.controller.start('Rewrite notes.js', { planMode: 'never' });
    assert.ok(runId);
    await api.controller.whenIdle();
    const results = toolMessages(server);
    assert.equal(results.length, 1);
    assert.match(results[0]!, /unsaved changes in the editor/);
    assert.equal(editor.document.getText(), '// my unsaved note\n' + ORIGINAL, "the user's unsaved text is intact");
    assert.equal(editor.document.isDirty, true);
    assert.equal(fileOnDisk(rel), ORIGINAL, 'the file on disk is unchanged');
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('keeps the API key out of settings, logs and task history', async () => {
    await setSetting('approvals.autoApprove', ['read']);
    const key = `sk-stepwise-secret-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
    const server = await useFake(
      [
        // A model that repeats the key must not get it stored either.
        { text: `Reading the README (the key you use is ${key}).`, toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: 'README.md' }) }] },
        finish(`Done. (${key})`),
      ],
      key,
    );
    const runId = await api.controller.start('Summarise the README', { planMode: 'never' });
    assert.ok(runId);
    await api.controller.whenIdle();
    assert.equal(api.controller.run(runId)?.outcome, 'finished');
    assert.equal(server.chatRequests()[0]?.headers.authorization, `Bearer ${key}`, 'the key from secret storage reached the endpoint');

    const userData = path.join(runDir(), 'user-data');
    const logs = path.join(userData, 'logs');
    const historyFile = path.join(api.historyFolder, `${runId}.jsonl`);
    // The places we check exist and hold this run, so finding nothing there means something.
    await waitFor('the run in the log', () => filesContaining(logs, `run ${runId} started`).length > 0);
    assert.ok(readFileSync(historyFile, 'utf8').includes('Summarise the README'));
    assert.ok(existsSync(path.join(userData, 'User', 'settings.json')));

    assert.deepEqual(filesContaining(path.join(userData, 'User', 'settings.json'), key), []);
    assert.deepEqual(filesContaining(path.join(workspaceFolder().uri.fsPath, '.vscode'), key), []);
    assert.deepEqual(filesContaining(logs, key), []);
    assert.deepEqual(filesContaining(api.historyFolder, key), []);
    assert.ok(readFileSync(historyFile, 'utf8').includes('[redacted]'), 'the key the model repeated was redacted');
  });

  it('refuses a denied command without running it and tells the model why', async () => {
    await setSetting('approvals.autoApprove', ['read', 'command']);
    await setSetting('commands.deny', ['touch *']);
    const server = await useFake([call('run_command', { command: 'touch denied-marker.txt' }), finish('The command was refused.')]);
    try {
      await api.controller.start('Create a marker', { planMode: 'never' });
      await api.controller.whenIdle();
    } finally {
      await setSetting('commands.deny', undefined);
    }
    const results = toolMessages(server);
    assert.equal(results.length, 1);
    assert.match(results[0]!, /deny list/);
    assert.equal(fileOnDisk('denied-marker.txt'), undefined);
  });

  it('runs an allowed command and mirrors it into the Stepwise terminal', async () => {
    await setSetting('approvals.autoApprove', ['read']);
    await setSetting('commands.allow', ['echo *']);
    const server = await useFake([call('run_command', { command: 'echo mirrored-output' }), finish('Echoed.')]);
    try {
      await api.controller.start('Echo something', { planMode: 'never' });
      await api.controller.whenIdle();
    } finally {
      await setSetting('commands.allow', undefined);
    }
    const results = toolMessages(server);
    assert.equal(results.length, 1);
    assert.match(results[0]!, /mirrored-output/);
    assert.ok(vscode.window.terminals.some((t) => t.name === 'Stepwise'), 'the Stepwise terminal exists');
  });

  it('runs a task on the editor selection, with the selection and its path as context', async () => {
    await setSetting('approvals.autoApprove', ['read']);
    const server = await useFake([finish('Explained.')]);
    const editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(workspaceFolder().uri, 'src', 'greet.js'));
    editor.selection = new vscode.Selection(1, 0, 1, 100);
    const runId = await vscode.commands.executeCommand<string | undefined>('stepwise.runOnSelection', 'Explain this line');
    assert.ok(runId, 'the task started');
    await api.controller.whenIdle();
    const task = String(server.chatRequests()[0]?.body?.messages?.find((m) => m.role === 'user')?.content ?? '');
    assert.match(task, /^Explain this line/);
    assert.match(task, /lines 2-2 of `src\/greet\.js`/);
    assert.ok(task.includes("return 'Hello, ' + name;"), 'the selected text is in the task');
  });

  it('lists the run in the task history and resumes it with the earlier conversation', async () => {
    await setSetting('approvals.autoApprove', ['read']);
    const first = await useFake([finish('First answer.')]);
    const runId = await api.controller.start('Remember the word pineapple', { planMode: 'never' });
    assert.ok(runId);
    await api.controller.whenIdle();
    await first.close();
    assert.ok(existsSync(path.join(api.historyFolder, `${runId}.jsonl`)), 'the run is stored in the history');
    const second = await startFakeOpenAI([finish('The word was pineapple.')]);
    fake = second;
    await setSetting('baseUrl', second.url);
    const resumed = await api.controller.resume(runId, 'Which word?');
    assert.ok(resumed);
    await api.controller.whenIdle();
    const sent = second.chatRequests()[0]?.body?.messages ?? [];
    const texts = sent.map((m) => String(m.content ?? ''));
    assert.ok(texts.some((t) => t.includes('Remember the word pineapple')), 'the earlier task is in the resumed conversation');
    assert.ok(texts.some((t) => t.includes('Which word?')));
    // The follow-up is the same task: the same run, its events after the first run's, one history entry.
    assert.equal(resumed, runId, 'the follow-up continues the same run');
    const lines = readFileSync(path.join(api.historyFolder, `${runId}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { seq: number; event: { type: string } });
    assert.equal(lines.filter((l) => l.event.type === 'run_started').length, 2);
    assert.deepEqual(lines.map((l) => l.seq), lines.map((_, i) => i), 'one seq sequence across both runs');
    assert.ok(!readdirSync(api.historyFolder).some((f) => f.endsWith('.jsonl') && f !== `${runId}.jsonl` && readFileSync(path.join(api.historyFolder, f), 'utf8').includes('Which word?')), 'no second history file');
  });
});
