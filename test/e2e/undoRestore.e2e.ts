// Undo and restore never go over the user (issue 21, acceptance 4), in the real workbench: a 2-step plan
// writes README.md (step 1) and src/a.js (step 2); the user then adds a line to README.md; "Restore to
// before this step" of step 2 asks about README.md (keep mine), "Undo restore" puts src/a.js back as the
// task left it; then "Undo this task's edits" asks first, naming README.md as changed by the user, keeps
// the user's line by default, and the timeline says what was undone and what was not. Run with `npm run test:e2e`.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish, turnOf } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { textOf } from './support/webviewDom';
import { hideBottomPanel, openSidebar, openWorkbench, panelFrame, pickColorTheme, runCommand, screenshots, until, type Workbench, screenshotIfFailed } from './support/workbench';

const API_KEY = { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' };
const NOTES = 'Write the notes';
const CHANGE = 'Change a';
const TASK = 'Add a note to the README, then change a';
const README_BY_TASK = '# Sample project\n\nA note from the task.\n';
const USER_LINE = "The user's own line.\n";

const STEP_TURNS: Record<string, FakeTurn[]> = {
  [NOTES]: [call('write_file', { path: 'README.md', content: README_BY_TASK }), finish('Wrote the note.')],
  [CHANGE]: [call('write_file', { path: 'src/a.js', content: 'module.exports = 2;\n' }), finish('Changed a.js.')],
};

function script(request: RecordedRequest): FakeTurn {
  const caller = callerOf(request);
  const turn = turnOf(request);
  if (caller === 'coordinator') return call('route', { mode: 'plan', reason: 'two parts' });
  if (caller === 'planner') {
    return call('create_plan', {
      goal: 'Note and change',
      thought: 'notes, then code',
      steps: [
        { title: NOTES, description: 'Add a note to README.md.', role: 'coder' },
        { title: CHANGE, description: 'Change src/a.js.', role: 'coder' },
      ],
    });
  }
  if (caller === 'updater') return call('keep_plan', {});
  if (caller === 'report') return call('write_report', { summary: 'Added a note and changed a.', findings: [], verification: '', left: [] });
  const answer = caller.startsWith('step:') ? STEP_TURNS[caller.slice(5)]?.[turn] : undefined;
  return answer ?? { status: 400, body: { error: { message: `undo e2e: nothing scripted for ${caller} turn ${turn}`, type: 'invalid_request_error' } } };
}

const stepBlock = (panel: Frame, title: string) => panel.locator('.step-block', { has: panel.locator('.step-header', { hasText: title }) }).first();

describe('Undo after restore in the real workbench: the user\'s line is kept, the question is asked, the timeline tells', function () {
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
      files: { 'src/a.js': 'module.exports = 1;\n' },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-undo-restore')) ?? failed;
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('restore (keep mine) → undo restore → undo the task: asks, keeps the user\'s line, notes what was and was not undone', async () => {
    const w = wb!;
    const file = (rel: string) => path.join(w.workspace, ...rel.split('/'));
    const read = (rel: string) => readFileSync(file(rel), 'utf8');
    const sidebar = await openSidebar(w.page);
    await sidebar.selectOption('[data-role="plan-mode"]', 'auto');
    await sidebar.locator('[data-role="task-input"]').fill(TASK);
    await sidebar.locator('[data-role="task-input"]').press('Enter');
    await until('the finished outcome', async () => (await (await panelFrame(w.page)).$('.outcome-finished')) !== null, 180_000);
    assert.equal(read('README.md'), README_BY_TASK);
    assert.equal(read('src/a.js'), 'module.exports = 2;\n');

    // The user adds a line to README.md after the task.
    appendFileSync(file('README.md'), USER_LINE);
    const readmeByUser = README_BY_TASK + USER_LINE;

    // Restore to before step 2 (files only): README.md differs from that checkpoint and the user changed it: asked, kept.
    let panel = await panelFrame(w.page);
    await stepBlock(panel, CHANGE).locator('[data-action="restore"]').click();
    const pick = w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Files only' });
    await pick.first().waitFor({ timeout: 30_000 });
    await pick.first().click();
    const perFile = w.page.locator('.monaco-dialog-box', { hasText: 'README.md' });
    await perFile.waitFor({ timeout: 30_000 });
    await perFile.locator('.monaco-button', { hasText: /^Keep mine$/ }).click();
    await until('src/a.js as before step 2', () => read('src/a.js') === 'module.exports = 1;\n', 60_000);
    assert.equal(read('README.md'), readmeByUser);

    // Undo the restore from its message.
    const undoRestore = w.page.locator('.notifications-toasts .monaco-button', { hasText: 'Undo restore' });
    await undoRestore.first().waitFor({ timeout: 30_000 });
    await undoRestore.first().click();
    await until('src/a.js as the task left it', () => read('src/a.js') === 'module.exports = 2;\n', 60_000);
    assert.equal(read('README.md'), readmeByUser);

    // Undo the task's edits: one modal, README.md named as changed by the user, kept by default.
    panel = await panelFrame(w.page);
    await panel.locator('.outcome [data-action="undo"]').first().click();
    const question = w.page.locator('.monaco-dialog-box', { hasText: 'You changed these files after Stepwise last wrote them' });
    await question.waitFor({ timeout: 30_000 });
    const asked = (await question.textContent()) ?? '';
    assert.match(asked, /README\.md/);
    assert.match(asked, /src\/a\.js/);
    for (const shot of await screenshots(w.page, 'undo-restore-question-dark')) assert.ok(existsSync(shot));
    await question.locator('.monaco-button', { hasText: /^Undo, Keep My Changes$/ }).click();

    await until('src/a.js as before the task', () => read('src/a.js') === 'module.exports = 1;\n', 60_000);
    assert.equal(read('README.md'), readmeByUser, "the user's line (and the task's note under it) stay");
    const note = await until('the timeline note', async () => {
      const text = await textOf(await panelFrame(w.page));
      return text.includes('Not undone: README.md') ? text : undefined;
    }, 60_000);
    assert.match(note, /Undone: src\/a\.js/);
    assert.match(note, /Not undone: README\.md \(you changed it after the task; your version is kept\)/);

    await hideBottomPanel(w.page);
    await runCommand(w.page, 'Notifications: Clear All Notifications');
    for (const shot of await screenshots(w.page, 'undo-restore-timeline-dark')) assert.ok(existsSync(shot));
    await pickColorTheme(w.page, 'Light Modern');
    for (const shot of await screenshots(w.page, 'undo-restore-timeline-light')) assert.ok(existsSync(shot));
  });
});
