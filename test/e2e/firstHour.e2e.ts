// The first hour in the real workbench (issue 15, acceptance 2 and 3): a planned task with edits and a failing
// test command shows each approval in exactly one place (the review editor for edits, with labelled Keep / Undo),
// the edit as a diff, the failing command as failed with its exit code, the final answer once; in four themes.
// Then a follow-up typed in the finished task stays in the same history entry and the same view.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish, turnOf } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { textOf } from './support/webviewDom';
import { frameWith, hideBottomPanel, openSidebar, panelFrame, pickColorTheme, screenshots, until, type Workbench, openWorkbench, screenshotIfFailed } from './support/workbench';

const API_KEY = { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' };
const CHANGE = 'Change the greeting';
const TESTS = 'Run the tests';
const REPORT_SUMMARY = 'The greeting now says Hi; the test script still fails.';
const FOLLOW_UP = 'Which files changed?';
const FOLLOW_UP_ANSWER = 'Two files: src/greet.js and NOTES.md.';

const STEPS = [
  { title: CHANGE, description: 'Make greet() say "Hi" and add NOTES.md.', role: 'coder' },
  { title: TESTS, description: 'Run `node test.js` and report the result.', role: 'coder' },
];

const STEP_TURNS: Record<string, FakeTurn[]> = {
  [CHANGE]: [
    call('edit_file', { path: 'src/greet.js', edits: [{ search: "  return 'Hello, ' + name;", replace: "  return 'Hi, ' + name;" }] }),
    call('write_file', { path: 'NOTES.md', content: '# Notes\n\nThe greeting says Hi.\n' }),
    finish('greet() now says Hi; NOTES.md added.'),
  ],
  [TESTS]: [call('run_command', { command: 'node test.js' }), finish('`node test.js` exits 1: one test fails.')],
};

function script(request: RecordedRequest): FakeTurn {
  const caller = callerOf(request);
  const turn = turnOf(request);
  if (caller === 'coordinator') return call('route', { mode: 'plan', reason: 'An edit, then the tests.' });
  if (caller === 'planner') return call('create_plan', { goal: 'Greet with Hi', thought: 'Edit, then test.', steps: STEPS });
  if (caller === 'updater') return call('keep_plan', { reason: 'Still fits.' });
  if (caller === 'report') return call('write_report', { summary: REPORT_SUMMARY, findings: ['node test.js exits 1'], verification: 'node test.js failed (exit 1)', left: ['Fix the failing test'] });
  if (caller === 'direct') return finish(FOLLOW_UP_ANSWER);
  const answer = caller.startsWith('step:') ? STEP_TURNS[caller.slice('step:'.length)]?.[turn] : undefined;
  return answer ?? { status: 400, body: { error: { message: `firstHour fake: nothing scripted for ${caller} turn ${turn}`, type: 'invalid_request_error' } } };
}

/** Visible Approve buttons in a webview frame, one per approval prompt ("Always allow" is a variant of it); 0 while it reloads. */
async function approveControls(frame: Frame | undefined): Promise<number> {
  if (!frame) return 0;
  try {
    return await frame.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('[data-action="approve"]'))
      .filter((el) => el.offsetParent !== null && !el.closest('[hidden]')).length);
  } catch {
    return 0;
  }
}

/** The review editor's labelled Keep actions on screen. */
function keepActions(page: Page) {
  return titleAction(page, 'Keep');
}

/** A labelled action of the editor title bar (its text starts with the label; a keybinding may follow). */
function titleAction(page: Page, label: string) {
  return page.locator('.editor-actions .action-item', { hasText: new RegExp(`^${label}`) });
}

/** Every approve control on screen: both webviews (sidebar, panel) and the review editor's title bar. */
async function visibleApprovals(page: Page): Promise<{ sidebar: number; panel: number; editor: number }> {
  const frames = await Promise.all(['[data-role="task-input"]', '[data-role="task-title"]'].map((sel) => frameWith(page, sel, 5_000).catch(() => undefined)));
  const [sidebar, panel] = await Promise.all(frames.map(approveControls));
  const editor = await keepActions(page).filter({ visible: true }).count();
  return { sidebar: sidebar!, panel: panel!, editor };
}

/** Asserts at most one approval is visible, and returns where. */
async function atMostOne(page: Page, when: string): Promise<{ sidebar: number; panel: number; editor: number }> {
  const shown = await visibleApprovals(page);
  assert.ok(shown.sidebar + shown.panel + shown.editor <= 1, `${when}: at most one approval visible, saw ${JSON.stringify(shown)}`);
  return shown;
}

/** Polls until the review editor shows Keep for `file`, checking the one-approval rule on every poll. */
async function reviewOf(page: Page, file: string): Promise<void> {
  await until(`the review of ${file}`, async () => {
    const shown = await atMostOne(page, `waiting for the review of ${file}`);
    return shown.editor === 1 && (await page.locator('.tabs-container .tab.active', { hasText: path.basename(file) }).count()) > 0;
  }, 90_000);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('The first hour: a planned task with an edit and a failing test, then a follow-up', function () {
  this.timeout(600_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(script);
    wb = await openWorkbench({
      settings: { 'stepwise.baseUrl': fake.url, 'stepwise.plan.review': 'auto', 'stepwise.approvals.autoApprove': ['read', 'command'], 'stepwise.verify.mode': 'off' },
      env: API_KEY,
      files: { 'test.js': "console.log('greets by name: expected Hello, got Hi');\nconsole.log('1 test failed');\nprocess.exit(1);\n" },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-firsthour')) ?? failed;
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('shows one approval at a time, the edit as a diff, exit 1 as failed and the final answer once, in four themes', async () => {
    const w = wb!;
    const page = w.page;
    await hideBottomPanel(page);
    const sidebar = await openSidebar(page);
    await sidebar.selectOption('[data-role="plan-mode"]', 'auto');
    const input = sidebar.locator('[data-role="task-input"]');
    await input.fill('Make the greeting say Hi, add notes, and run the tests');
    await input.press('Enter');

    // 1. The edit of an existing file: reviewed in the diff editor only; the panel points to it.
    await reviewOf(page, 'greet.js');
    assert.equal(await page.locator('.monaco-diff-editor').filter({ visible: true }).count() > 0, true, 'an existing file is reviewed as a diff');
    const pointer = await until('the pointer to the review editor', async () => (await textOf(await panelFrame(page))).includes('Review the change in the editor'));
    assert.ok(pointer);
    assert.equal(await titleAction(page, 'Undo').filter({ visible: true }).count(), 1, 'a labelled Undo beside Keep');
    await screenshots(page, 'firsthour-edit-review');
    await keepActions(page).first().click();

    // 2. A new file: shown alone (no diff against an empty document, so no removed line that is not there).
    await reviewOf(page, 'NOTES.md');
    assert.equal(await page.locator('.monaco-diff-editor').filter({ visible: true }).count(), 0, 'a new file is not shown as a diff');
    await keepActions(page).first().click();

    // 3. The run goes on to the failing tests and the report; the rule holds on every poll.
    await until('the finished outcome', async () => {
      await atMostOne(page, 'while the task runs');
      return (await (await panelFrame(page)).$('.outcome')) !== null;
    }, 120_000);
    await atMostOne(page, 'at the end');
    assert.equal(readFileSync(path.join(w.workspace, 'src', 'greet.js'), 'utf8').includes("'Hi, '"), true, 'the kept edit is on disk');

    const panel = await panelFrame(page);
    // The failing command: failed, with its exit code.
    const command = panel.locator('details.tool', { has: panel.locator('.tool-name', { hasText: /^run_command$/ }) }).first();
    assert.match(await command.getAttribute('class') ?? '', /tool-failed/);
    assert.equal((await command.locator('summary .badge').first().textContent())?.trim(), 'Exit 1');
    // The edit card: a diff, not JSON with escaped newlines.
    const edit = panel.locator('details.tool', { has: panel.locator('.tool-name', { hasText: /^edit_file$/ }) }).first();
    if (!(await edit.evaluate((d) => (d as HTMLDetailsElement).open))) await edit.locator('summary').click();
    await until('the edit card body', async () => (await edit.locator('.diff-add').count()) > 0);
    assert.match((await edit.locator('.diff-del').first().textContent()) ?? '', /- {3}return 'Hello, ' \+ name;/);
    assert.match((await edit.locator('.diff-add').first().textContent()) ?? '', /\+ {3}return 'Hi, ' \+ name;/);
    assert.ok(!((await edit.textContent()) ?? '').includes('\\n'), 'no escaped newlines');
    // The final answer, once in each view; internals (turn separators, finish cards) are not shown.
    const panelText = await textOf(panel);
    assert.equal(occurrences(panelText, REPORT_SUMMARY), 1, 'the final answer appears once in the panel');
    assert.equal(occurrences(await textOf(sidebar), REPORT_SUMMARY), 1, 'the final answer appears once in the sidebar');
    // A step's summary: under its header in the timeline, not in the plan column, the finish card or the outcome
    // (the saved report lists the steps too: that document stands on its own).
    const stepSummary = 'greet() now says Hi; NOTES.md added.';
    assert.ok(!((await panel.locator('[data-role="plan"]').innerText()).includes(stepSummary)), 'not repeated in the plan column');
    assert.equal(await panel.locator('.step-summary', { hasText: stepSummary }).count(), 1, 'once under its step header');
    assert.ok(occurrences(panelText, stepSummary) <= 2, "a step's summary: its header and the report at most");
    assert.doesNotMatch(panelText, /Turn \d+ of \d+/);
    assert.equal(await panel.locator('.tool-name', { hasText: /^finish$/ }).count(), 0, 'no finish cards');

    // 4. Four themes, with the card bodies open so the diff and the failed command are in the picture.
    if (!(await command.evaluate((d) => (d as HTMLDetailsElement).open))) await command.locator('summary').click();
    await hideBottomPanel(page);
    for (const theme of ['Light Modern', 'Dark Modern', 'Light High Contrast', 'Dark High Contrast']) {
      // The palette sometimes misses its first keystrokes on a loaded machine: try again (it is the same click).
      for (let attempt = 1; ; attempt++) {
        try {
          await pickColorTheme(page, theme);
          break;
        } catch (error) {
          if (attempt === 3) throw error;
          await page.keyboard.press('Escape');
        }
      }
      const kind = theme.includes('High Contrast') ? (theme.startsWith('Light') ? 'vscode-high-contrast-light' : 'vscode-high-contrast') : theme.startsWith('Light') ? 'vscode-light' : 'vscode-dark';
      await until(`the panel in ${theme}`, async () => (await panelFrame(page)).evaluate((k) => document.body.classList.contains(k), kind).catch(() => false));
      await screenshots(page, `firsthour-${theme.toLowerCase().replace(/ /g, '-')}`);
    }
  });

  it('keeps a follow-up in the same history entry and view: plan and report stay, the answer below', async () => {
    const page = wb!.page;
    // The sidebar is still open (clicking its activity bar icon again would close it).
    const sidebar = await frameWith(page, '[data-role="task-input"]', 5_000).catch(() => openSidebar(page));
    // The task's cost before the follow-up: the follow-up's is added to it, never shown instead of it.
    // Effective tokens are shown beside the gauge only when caching makes them differ from the header's tokens.
    const costOf = async (): Promise<number> => {
      const panel = await panelFrame(page);
      const text = await panel.locator('[data-role="cost"]').first().textContent();
      const effective = /([\d,]+) effective tokens/.exec(text ?? '')?.[1] ?? /([\d,]+) tokens/.exec((await panel.locator('[data-role="usage"]').first().textContent()) ?? '')?.[1];
      return Number(effective?.replaceAll(',', '') ?? NaN);
    };
    const before = await costOf();
    assert.ok(before > 0, 'the task shows its cost');
    const input = sidebar.locator('[data-role="task-input"]');
    await input.fill(FOLLOW_UP);
    await input.press('Enter');
    await until('the follow-up answer in the sidebar', async () => (await textOf(sidebar)).includes(FOLLOW_UP_ANSWER), 90_000);
    // The timelines are windowed: bring the panel's end into view (it stopped following when a card was opened).
    await until('the follow-up answer in the panel', async () => {
      const frame = await panelFrame(page);
      const jump = frame.locator('[data-action="jump"]');
      if (await jump.isVisible().catch(() => false)) await jump.click().catch(() => undefined);
      return (await textOf(frame)).includes(FOLLOW_UP_ANSWER);
    }, 60_000);
    await until('the follow-up to finish', async () => !(await textOf(sidebar)).includes('Running'), 60_000).catch(() => undefined);
    const panel = await panelFrame(page);
    const text = await textOf(panel);
    const plan = await panel.evaluate(() => Array.from(document.querySelectorAll('[data-role="plan"] li.step .step-title')).map((el) => el.textContent));
    assert.deepEqual(plan, [CHANGE, TESTS], 'the plan is still shown');
    assert.ok(text.indexOf(REPORT_SUMMARY) >= 0, 'the report is still shown');
    assert.ok(text.indexOf(FOLLOW_UP) > text.indexOf(REPORT_SUMMARY), 'the follow-up comes after the report');
    assert.ok(text.indexOf(FOLLOW_UP_ANSWER) > text.indexOf(FOLLOW_UP), 'its answer below it');
    assert.equal(occurrences(text, FOLLOW_UP_ANSWER), 1, 'the follow-up answer appears once');
    const sidebarText = await textOf(sidebar);
    assert.ok(sidebarText.includes(REPORT_SUMMARY) && sidebarText.includes(FOLLOW_UP_ANSWER), 'the sidebar shows the same conversation');
    const after = await costOf();
    assert.ok(after > before, `the cost shown after the follow-up (${after}) is the task's total, above its cost before (${before})`);
    await screenshots(page, 'firsthour-follow-up');

    // The history lists the task once.
    await sidebar.locator('[data-action="new-task"]').click();
    await until('the history list', async () => (await sidebar.locator('.history-item').count()) > 0);
    const entries = await sidebar.locator('.history-item .history-task').allTextContents();
    assert.deepEqual(entries, ['Make the greeting say Hi, add notes, and run the tests'], 'one history entry for the task and its follow-up');
    await screenshots(page, 'firsthour-history');
  });
  it("undoes the task's edits only after a confirmation naming how many files, keeps its report, and says so in the timeline", async () => {
    const w = wb!;
    const page = w.page;
    const sidebar = await frameWith(page, '[data-role="task-input"]', 5_000).catch(() => openSidebar(page));
    await sidebar.locator('.history-item').first().click();
    const panel = await until('the task in the panel', async () => {
      const frame = await panelFrame(page);
      return (await frame.locator('.outcome [data-action="undo"]').count()) > 0 ? frame : undefined;
    });
    const reports = path.join(w.workspace, '.stepwise', 'reports');
    const report = readdirSync(reports).find((f) => f.endsWith('.md'))!;
    await panel.locator('.outcome [data-action="undo"]').first().click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    assert.match((await dialog.textContent()) ?? '', /2 file/, 'the question says how many files');
    await screenshots(page, 'firsthour-undo-confirm');
    await dialog.locator('a.monaco-button', { hasText: 'Undo Changes' }).click();
    await until('greet.js restored', () => readFileSync(path.join(w.workspace, 'src', 'greet.js'), 'utf8').includes("'Hello, '"));
    assert.equal(existsSync(path.join(w.workspace, 'NOTES.md')), false, 'the created file is deleted');
    assert.ok(existsSync(path.join(reports, report)), "the task's own report is kept");
    await until('the timeline says which files were undone', async () => {
      const frame = await panelFrame(page);
      const jump = frame.locator('[data-action="jump"]');
      if (await jump.isVisible().catch(() => false)) await jump.click().catch(() => undefined);
      return /Undone: .*src\/greet\.js/.test(await textOf(frame)) && (await textOf(frame)).includes('NOTES.md');
    });
    await screenshots(page, 'firsthour-undone');
  });
});
