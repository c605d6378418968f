// Checkpoints in the real workbench (issue 12, acceptance 2): a 3-step plan whose step 2 edits two files
// and step 3 runs a command that creates one; "Show changes" of step 2 opens a multi-file diff; after a
// window reload, "Restore to before this step…" of step 2 (from the task reopened from history) puts the
// files back and cuts the conversation there. Run with `npm run test:e2e`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish, turnOf } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { textOf } from './support/webviewDom';
import { frameWith, hideBottomPanel, openSidebar, openWorkbench, panelFrame, runCommand, screenshots, until, type Workbench, screenshotIfFailed } from './support/workbench';

const API_KEY = { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' };
const LOOK = 'Look at the code';
const EDIT = 'Edit two files';
const WRAP = 'Generate the index';
const TASK = 'Change a and b, then generate the index';

const STEP_TURNS: Record<string, FakeTurn[]> = {
  [LOOK]: [call('read_file', { path: 'src/a.js' }), finish('a.js exports 1.')],
  [EDIT]: [
    call('write_file', { path: 'src/a.js', content: 'module.exports = 2;\n' }),
    call('write_file', { path: 'src/b.js', content: 'module.exports = "b2";\n' }),
    finish('Changed a.js and b.js.'),
  ],
  [WRAP]: [call('run_command', { command: `node -e "require('fs').writeFileSync('src/index.js', 'generated\\n')"` }), finish('Generated src/index.js.')],
};

function script(request: RecordedRequest): FakeTurn {
  const caller = callerOf(request);
  const turn = turnOf(request);
  if (caller === 'coordinator') return call('route', { mode: 'plan', reason: 'three parts' });
  if (caller === 'planner') {
    return call('create_plan', {
      goal: 'Change a and b',
      thought: 'look, edit, generate',
      steps: [
        { title: LOOK, description: 'Read src/a.js.', role: 'researcher' },
        { title: EDIT, description: 'Change a.js and b.js.', role: 'coder' },
        { title: WRAP, description: 'Generate src/index.js.', role: 'coder' },
      ],
    });
  }
  if (caller === 'updater') return call('keep_plan', {});
  if (caller === 'report') return call('write_report', { summary: 'Changed a and b.', findings: [], verification: '', left: [] });
  const answer = caller.startsWith('step:') ? STEP_TURNS[caller.slice(5)]?.[turn] : undefined;
  return answer ?? { status: 400, body: { error: { message: `checkpoints e2e: nothing scripted for ${caller} turn ${turn}`, type: 'invalid_request_error' } } };
}

/** Files under `dir` whose name passes `keep` (any depth). */
function findFiles(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !entry.isSymbolicLink()) out.push(...findFiles(full, keep));
    else if (entry.isFile() && keep(entry.name)) out.push(full);
  }
  return out;
}

/** The timeline block of the step titled `title` (its header, summary and checkpoint actions). */
const stepHeader = (panel: Frame, title: string) => panel.locator('.step-block', { has: panel.locator('.step-header', { hasText: title }) }).first();

describe('Checkpoints in the real workbench: Show changes and Restore to before a step', function () {
  this.timeout(600_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(script);
    wb = await openWorkbench({
      settings: {
        'stepwise.baseUrl': fake.url,
        'stepwise.plan.review': 'auto',
        'stepwise.verify.mode': 'off',
        'stepwise.approvals.autoApprove': ['read', 'edit', 'command'],
      },
      env: API_KEY,
      files: { 'src/a.js': 'module.exports = 1;\n', 'src/b.js': 'module.exports = "b1";\n' },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-checkpoints')) ?? failed;
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('shows step 2\'s changes as a multi-file diff, and after a reload restores files and conversation to before step 2', async () => {
    const w = wb!;
    const file = (rel: string) => path.join(w.workspace, ...rel.split('/'));
    const sidebar = await openSidebar(w.page);
    await sidebar.selectOption('[data-role="plan-mode"]', 'auto');
    await sidebar.locator('[data-role="task-input"]').fill(TASK);
    await sidebar.locator('[data-role="task-input"]').press('Enter');
    await until('the finished outcome', async () => (await (await panelFrame(w.page)).$('.outcome-finished')) !== null, 180_000);
    assert.equal(readFileSync(file('src/a.js'), 'utf8'), 'module.exports = 2;\n');
    assert.ok(existsSync(file('src/index.js')));

    // Show changes of step 2: one multi-file diff editor with both files.
    let panel = await panelFrame(w.page);
    await stepHeader(panel, EDIT).locator('[data-action="show-changes"]').click();
    const tab = w.page.locator('.tabs-container .tab', { hasText: 'Changes of step 2' });
    await tab.first().waitFor({ timeout: 60_000 });
    await until('both files in the multi-file diff', async () => {
      const text = (await w.page.locator('.multiDiffEditor, .multi-diff-editor, .editor-instance').first().textContent().catch(() => '')) ?? '';
      return text.includes('a.js') && text.includes('b.js');
    }, 60_000);
    await hideBottomPanel(w.page);
    for (const shot of await screenshots(w.page, 'checkpoints-show-changes')) assert.ok(existsSync(shot));

    // Reload the window: the checkpoints live in the extension's storage, the task in history.
    await runCommand(w.page, 'Developer: Reload Window');
    await w.page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 120_000 });
    // The sidebar comes back open after a reload; clicking its activity-bar item then would close it.
    await openSidebar(w.page);
    // The sidebar's webview may be replaced once while the extension activates: find its frame afresh on each look.
    const sidebarNow = () => frameWith(w.page, '[data-role="task-input"]', 30_000);
    await until('the task in the history list', async () => (await (await sidebarNow()).$('.history-item').catch(() => null)) !== null, 60_000);
    await (await sidebarNow()).locator('.history-item', { hasText: TASK }).first().click();
    await until('the reopened task in the panel', async () => (await textOf(await panelFrame(w.page))).includes(EDIT), 60_000);
    panel = await panelFrame(w.page);
    await stepHeader(panel, EDIT).locator('[data-action="restore"]').click();
    const pick = w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Files and conversation' });
    await pick.first().waitFor({ timeout: 30_000 });
    await pick.first().click();

    await until('the files as before step 2', () =>
      readFileSync(file('src/a.js'), 'utf8') === 'module.exports = 1;\n' &&
      readFileSync(file('src/b.js'), 'utf8') === 'module.exports = "b1";\n' &&
      !existsSync(file('src/index.js')), 60_000);
    await until('the restore message', async () => (await w.page.locator('.notifications-toasts').textContent().catch(() => ''))?.includes('Restored 3 file(s)'), 30_000);
    for (const shot of await screenshots(w.page, 'checkpoints-restored')) assert.ok(existsSync(shot));
    // The conversation is cut at the checkpoint: the run's history side file says where resume continues from.
    const metas = findFiles(w.runDir, (name) => name.endsWith('.meta.json')).map((f) => JSON.parse(readFileSync(f, 'utf8')) as { cutAtSeq?: number });
    assert.ok(metas.some((m) => typeof m.cutAtSeq === 'number' && m.cutAtSeq > 0), JSON.stringify(metas));
  });
});
