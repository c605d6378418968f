// UI end-to-end: the task history in the sidebar (search, export, delete) and "Stop this command" on a
// running command's card, in the packaged VSIX inside a real workbench (code-server + chromium).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { isRunning } from '../support/processes';
import { ARTIFACTS, hideBottomPanel, openSidebar, openWorkbench, panelFrame, pickColorTheme, runCommand, screenshots, showTaskPanel, until, type Workbench, screenshotIfFailed } from './support/workbench';

const call = (name: string, args: unknown, text?: string): FakeTurn => ({ ...(text ? { text } : {}), toolCalls: [{ name, arguments: JSON.stringify(args) }] });
const finish = (summary: string): FakeTurn => call('finish', { summary });

/** The model's answers, by the first words of the task and the turn. */
const SCRIPTS: Record<string, FakeTurn[]> = {
  'Start the dev server': [
    call('run_command', { command: 'echo $$ > .pids; sleep 319 & echo $! >> .pids; echo listening on 5173; wait', timeout_seconds: 600 }, 'Starting it.'),
    finish('The server was stopped by the user; nothing else to do.'),
  ],
  'Start the watcher': [
    call('run_command', { command: 'echo $$ > .bg-pids; sleep 321 & echo $! >> .bg-pids; echo watching; wait', timeout_seconds: 600 }, 'Starting the watcher.'),
    finish('The watcher runs in the background.'),
  ],
  'Start the preview server': [
    call('run_command', { command: 'echo $$ > .keep-pids; sleep 322 & echo $! >> .keep-pids; echo serving; wait', timeout_seconds: 600 }, 'Starting the preview.'),
    finish('The preview server keeps running.'),
  ],
  // Goes to the background, then fails by itself once the model's next command lets it (.go) and
  // waits for it to be gone; two more turns follow, so the ending reaches a later request.
  'Build in the background': [
    call('run_command', { command: 'echo $$ > .build-pids; echo building; while [ ! -f .go ]; do sleep 0.1; done; echo broken; exit 3', timeout_seconds: 600 }, 'Building.'),
    call('run_command', { command: 'touch .go; while kill -0 $(cat .build-pids) 2>/dev/null; do sleep 0.1; done; echo gone' }),
    call('list_files', { path: '.' }),
    call('list_files', { path: '.' }),
    finish('The build failed in the background with exit code 3.'),
  ],
  'Write the release notes': [finish('Release notes written for version 2.0.')],
  'Fix the login form': [finish('The form now rejects tokens that expire before submission.')],
};

function scriptFor(request: RecordedRequest): FakeTurn {
  const messages = request.body?.messages ?? [];
  const task = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const key = Object.keys(SCRIPTS).find((k) => task.startsWith(k));
  if (!key) return { status: 500, body: { error: { message: `e2e fake: no script for task ${JSON.stringify(task.slice(0, 80))}` } } };
  const turn = messages.filter((m) => m.role === 'assistant').length;
  return SCRIPTS[key]![turn] ?? finish('Done.');
}

async function textOf(frame: Frame): Promise<string> {
  try {
    return await frame.evaluate(() => document.body.innerText);
  } catch {
    return '';
  }
}

/** Files named `name` anywhere under `dir`. */
function findFiles(dir: string, name: string): string[] {
  const hits: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current)) {
      const full = path.join(current, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === name) hits.push(full);
    }
  };
  walk(dir);
  return hits;
}

describe('task history and command controls in a real VS Code workbench', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench;
  let sidebar: Frame;

  before(async () => {
    fake = await startFakeOpenAI((request) => scriptFor(request));
    wb = await openWorkbench({
      settings: {
        'stepwise.baseUrl': fake.url,
        'stepwise.plan.mode': 'never',
        'stepwise.approvals.autoApprove': ['read', 'command'],
        'stepwise.verify.mode': 'off',
      },
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
    });
    sidebar = await openSidebar(wb.page);
  });

  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, wb, 'history-failed');
  });

  after(async () => {
    // Anything the stop test left (only if it failed) is killed by PID.
    for (const name of ['.pids', '.bg-pids', '.keep-pids', '.build-pids']) {
      const pidsFile = wb ? path.join(wb.workspace, name) : '';
      if (!pidsFile || !existsSync(pidsFile)) continue;
      for (const pid of readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
    }
    await wb?.close();
    await fake?.close();
  });

  async function panelText(): Promise<string> {
    return textOf(await panelFrame(wb.page));
  }

  async function submitTask(text: string): Promise<void> {
    const newTask = sidebar.locator('[data-action="new-task"]');
    if (await newTask.isVisible()) await newTask.click();
    await sidebar.selectOption('[data-role="plan-mode"]', 'never');
    const input = sidebar.locator('[data-role="task-input"]');
    await input.fill(text);
    await input.press('Enter');
    await until(`the sidebar to show "${text}"`, async () => (await textOf(sidebar)).includes(text));
    await showTaskPanel(wb.page, sidebar);
    await until(`the panel to show "${text}"`, async () => (await panelText()).includes(text));
  }

  async function finished(): Promise<void> {
    await until('the finished outcome', async () => (await (await panelFrame(wb.page)).$('.outcome-finished')) !== null);
  }

  it('"Stop this command" on a running command kills its processes and the task goes on to finish', async () => {
    await submitTask('Start the dev server');
    const pidsFile = path.join(wb.workspace, '.pids');
    await until('the server to start', () => existsSync(pidsFile) && readFileSync(pidsFile, 'utf8').trim().split('\n').length === 2);
    const pids = readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number);
    await until('its output in the panel', async () => (await panelText()).includes('listening on 5173'));
    assert.ok(pids.every(isRunning), 'the command runs');
    const panel = await panelFrame(wb.page);
    const stop = panel.locator('.tool-running [data-action="stop-command"]');
    await stop.waitFor({ timeout: 30_000 });
    assert.equal(await panel.locator('.tool-running [data-action="background-command"]').count(), 1, 'the background choice is offered beside it');
    await hideBottomPanel(wb.page);
    await screenshots(wb.page, 'command-running');
    await stop.click();
    await until('the processes to be gone', () => pids.every((pid) => !isRunning(pid)));
    await finished();
    const card = panel.locator('details.tool.tool-stopped');
    assert.equal(await card.count(), 1, 'the card says Stopped');
    if (!(await card.evaluate((d) => (d as HTMLDetailsElement).open))) await card.locator('summary').click();
    await until('the result the model read', async () => (await card.innerText()).includes('stopped by the user (this command only'));
    assert.equal(await panel.locator('[data-action="stop-command"]').count(), 0, 'no Stop button once it ended');
    assert.match(await panelText(), /The server was stopped by the user/, 'the task went on to its answer');
    await screenshots(wb.page, 'command-stopped');
  });

  it('"Let it run in the background": the task goes on while the command runs; at the end Stepwise asks, and "Stop" ends it', async () => {
    await submitTask('Start the watcher');
    const pidsFile = path.join(wb.workspace, '.bg-pids');
    await until('the watcher to start', () => existsSync(pidsFile) && readFileSync(pidsFile, 'utf8').trim().split('\n').length === 2);
    const pids = readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number);
    await until('its output in the panel', async () => (await panelText()).includes('watching'));
    const panel = await panelFrame(wb.page);
    await panel.locator('.tool-running [data-action="background-command"]').click();
    // The task ends while the command still runs: Stepwise asks whether to keep it.
    const stopThem = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Stop$/ }).first();
    await stopThem.waitFor({ timeout: 60_000 });
    assert.ok(pids.every(isRunning), 'still running after the call returned and the task ended');
    assert.match(await panelText(), /The watcher runs in the background/);
    await screenshots(wb.page, 'background-keep-question');
    await stopThem.click();
    await until('the watcher to be gone', () => pids.every((pid) => !isRunning(pid)));
    const card = panel.locator('details.tool', { hasText: 'run_command' }).last();
    if (!(await card.evaluate((d) => (d as HTMLDetailsElement).open))) await card.locator('summary').click();
    await until('the result the model read', async () => /still running in the background \(pid \d+\)/.test(await card.innerText()));
    // Once stopped, the card no longer says "In the background" (nor Done): it says Stopped.
    await until('the card to say Stopped', async () => (await panel.locator('details.tool.tool-stopped').count()) === 1);
    assert.equal((await card.locator('summary .badge').innerText()).trim(), 'Stopped');
    assert.equal(await panel.locator('details.tool.tool-background').count(), 0);
    await screenshots(wb.page, 'background-command-stopped');
  });

  it('"Keep Running" leaves a background command running after the task; "Stepwise: Stop Background Commands" stops it later', async () => {
    await submitTask('Start the preview server');
    const pidsFile = path.join(wb.workspace, '.keep-pids');
    await until('the server to start', () => existsSync(pidsFile) && readFileSync(pidsFile, 'utf8').trim().split('\n').length === 2);
    const pids = readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number);
    await until('its output in the panel', async () => (await panelText()).includes('serving'));
    await (await panelFrame(wb.page)).locator('.tool-running [data-action="background-command"]').click();
    const keep = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Keep Running$/ }).first();
    await keep.waitFor({ timeout: 60_000 });
    await keep.click();
    await until('the dialog to close', async () => !(await keep.isVisible()));
    assert.ok(pids.every(isRunning), 'kept running after the task');
    await runCommand(wb.page, 'Stepwise: Stop Background Commands');
    const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'sleep 322' }).first();
    await row.waitFor({ timeout: 30_000 });
    // (screenshots() waits for the palette to close; this one is of the open pick list.)
    await wb.page.screenshot({ path: path.join(ARTIFACTS, 'background-stop-command-window.png') });
    await wb.page.locator('.quick-input-widget .quick-input-box input').press('Enter');
    await until('the kept server to be gone', () => pids.every((pid) => !isRunning(pid)));
    const panel = await panelFrame(wb.page);
    await until('its card to say Stopped', async () => (await panel.locator('details.tool.tool-stopped').count()) === 1);
    assert.equal(await panel.locator('details.tool.tool-background').count(), 0, 'no longer "In the background"');
  });

  it('a background command that fails by itself: its card says Exit 3, and the model is told at a later turn', async () => {
    await submitTask('Build in the background');
    await until('its output in the panel', async () => (await panelText()).includes('building'));
    const panel = await panelFrame(wb.page);
    await panel.locator('.tool-running [data-action="background-command"]').click();
    await finished();
    const told = fake.requests.filter((r) => JSON.stringify(r.body?.messages ?? []).includes('failed: exit code 3'));
    assert.ok(told.length > 0, 'a later request tells the model how the background command ended');
    const note = (told[0]!.body?.messages ?? []).map((m) => String(m.content)).find((c) => c.includes('failed: exit code 3'))!;
    assert.match(note, /have ended since/);
    assert.match(note, /echo building/);
    const card = panel.locator('details.tool', { hasText: 'echo building' }).first();
    await until('the card to say Exit 3', async () => (await card.locator('summary .badge').innerText()).trim() === 'Exit 3');
    assert.match(await card.getAttribute('class') ?? '', /tool-failed/);
    if (!(await card.evaluate((d) => (d as HTMLDetailsElement).open))) await card.locator('summary').click();
    assert.equal((await card.locator('[data-role="later-ending"]').innerText()).trim(), 'It went on in the background and ended later with exit code 3.');
    await hideBottomPanel(wb.page);
    await screenshots(wb.page, 'background-command-failed-later');
  });

  it('searches the history, exports a task as markdown through the save dialog, and deletes one after confirming', async () => {
    await submitTask('Write the release notes');
    await finished();
    await submitTask('Fix the login form');
    await finished();
    await sidebar.locator('[data-action="new-task"]').click();
    const search = sidebar.locator('[data-role="history-search"]');
    await search.waitFor();
    const rows = sidebar.locator('.history-row');
    await until('both tasks in the history', async () => (await textOf(sidebar)).includes('Write the release notes') && (await textOf(sidebar)).includes('Fix the login form'));
    const all = await rows.count();

    // By the task's words: filtered at once.
    await search.fill('login');
    await until('one match for "login"', async () => (await rows.count()) === 1 && (await textOf(sidebar)).includes('Fix the login form'));
    // By words only in the final answer: the host searches the stored runs.
    await search.fill('expire');
    await until('the answer found by the host', async () => (await rows.count()) === 1 && (await textOf(sidebar)).includes('Fix the login form'));
    await screenshots(wb.page, 'history-search');
    await search.fill('nothing like this');
    await until('no match', async () => (await rows.count()) === 0 && (await textOf(sidebar)).includes('No task matches'));
    await search.fill('');
    await until('all tasks again', async () => (await rows.count()) === all);

    // Export: pick Markdown; the save dialog proposes a file in the workspace; accept it.
    const login = sidebar.locator('.history-row', { hasText: 'Fix the login form' });
    await login.hover();
    // The row's actions appear on hover (and keyboard focus), as in VS Code's own lists.
    await wb.page.locator('.part.sidebar').screenshot({ path: path.join(ARTIFACTS, 'history-row-actions-sidebar.png') });
    await login.locator('[data-action="export-run"]').click();
    // The host asks for the format, then where to save.
    const markdown = wb.page.locator('.quick-input-list .monaco-list-row[aria-label^="Markdown"]').first();
    await markdown.waitFor({ timeout: 30_000 });
    await screenshots(wb.page, 'history-export-format');
    await markdown.click();
    const pathInput = wb.page.locator('.quick-input-widget .quick-input-box input');
    await pathInput.waitFor({ timeout: 30_000 });
    await until('the proposed file name', async () => /stepwise-task-.*\.md$/.test(await pathInput.inputValue()));
    await screenshots(wb.page, 'history-export-dialog');
    await pathInput.press('Enter');
    const exported = await until('the exported file', () => readdirSync(wb.workspace).find((name) => /^stepwise-task-.*\.md$/.test(name)));
    const md = readFileSync(path.join(wb.workspace, exported), 'utf8');
    assert.ok(md.includes('Fix the login form') && md.includes('The form now rejects tokens that expire before submission.'), md);
    assert.match(md, /- Outcome: finished/);

    // Delete: a modal asks first; the row and the stored events go.
    const notes = sidebar.locator('.history-row', { hasText: 'Write the release notes' });
    const runId = await notes.getAttribute('data-run-id');
    assert.ok(runId);
    assert.equal(findFiles(wb.server.userDataDir, `${runId}.jsonl`).length, 1, 'the run is stored');
    await notes.hover();
    await notes.locator('[data-action="delete-run"]').click();
    const confirm = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Delete$/ }).first();
    await confirm.waitFor({ timeout: 30_000 });
    await screenshots(wb.page, 'history-delete-confirm');
    await confirm.click();
    await until('the row to go', async () => (await rows.count()) === all - 1 && !(await textOf(sidebar)).includes('Write the release notes'));
    assert.deepEqual(findFiles(wb.server.userDataDir, `${runId}.jsonl`), [], 'its stored events are gone');
    await screenshots(wb.page, 'history-after-delete');

    // The same list in Light High Contrast (the theme where contrast problems show first).
    await pickColorTheme(wb.page, 'Light High Contrast');
    await until('the sidebar in high contrast', async () => sidebar.evaluate(() => document.body.classList.contains('vscode-high-contrast')));
    await search.fill('form');
    await until('the filtered list', async () => (await rows.count()) === 1);
    await sidebar.locator('.history-row').first().hover();
    await wb.page.locator('.part.sidebar').screenshot({ path: path.join(ARTIFACTS, 'history-hc-light-sidebar.png') });
    await search.fill('');
  });
});
