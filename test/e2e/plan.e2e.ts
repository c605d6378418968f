// The planning flow in the real workbench (issue 4, acceptance 3): the fake coordinator routes the task to a plan,
// the panel shows the plan and its steps' statuses change live; with `stepwise.plan.review: ask` the user deletes a
// step in review before pressing Run, and that step never runs. Run with `npm run test:e2e`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish, requestsOf, turnOf, type Caller } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { Holds } from './support/holds';
import { reviewTitles, shownPlanSteps, textOf, type ShownStep } from './support/webviewDom';
import { hideBottomPanel, openSidebar, openWorkbench, panelFrame, pickColorTheme, screenshots, until, type Workbench } from './support/workbench';

const API_KEY = { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' };
const READ = 'Read the greeting code';
const TESTS = 'Run the tests';
const FRENCH = 'Rewrite the greeting in French';
const SUMMARY = 'Write the summary';

type Step = { title: string; description: string; role: 'coder' | 'researcher' | 'reporter'; estimate?: string };
const STEPS: Record<string, Step> = {
  // Two steps with an estimate (a token budget each), the others without.
  [READ]: { title: READ, description: 'Read src/greet.js and say what greet() returns.', role: 'researcher', estimate: 'small' },
  [TESTS]: { title: TESTS, description: 'Run `npm test` and report whether it passes.', role: 'coder', estimate: 'medium' },
  [FRENCH]: { title: FRENCH, description: 'Change greet() to say "Bonjour".', role: 'coder' },
  [SUMMARY]: { title: SUMMARY, description: 'Sum up the findings in one paragraph.', role: 'reporter' },
};

/** What each step's agent does, turn by turn. */
const STEP_TURNS: Record<string, FakeTurn[]> = {
  // Usage as the provider reports it: the step spends 6,000 + 2,500 effective tokens of its 40k.
  [READ]: [
    { ...call('read_file', { path: 'src/greet.js' }, 'Reading the greeting.'), chunkChars: 5, delayMs: 15, usage: { prompt_tokens: 5_900, completion_tokens: 100, total_tokens: 6_000 } },
    { ...finish('`greet(name)` returns `"Hello, " + name`.'), usage: { prompt_tokens: 2_450, completion_tokens: 50, total_tokens: 2_500 } },
  ],
  [TESTS]: [call('run_command', { command: 'npm test' }, 'Running the tests.'), finish('`npm test` passes (1 test).')],
  [FRENCH]: [finish('Changed the greeting to French.')],
  [SUMMARY]: [finish('The greeting returns "Hello, <name>" and its test passes.')],
};

const REPORT = { summary: 'Looked at the greeting and checked it.', findings: ['greet() concatenates a string'], verification: 'npm test passed', left: [] };

/**
 * The fake model for the planning flow: answers by caller (see flowFake), plans `plan`, and holds
 * each step agent's first request in `holds` under the caller's name when `holdSteps` is set.
 */
function planScript(plan: string[], holds: Holds | undefined): (request: RecordedRequest) => Promise<FakeTurn> {
  return async (request) => {
    const caller = callerOf(request);
    const turn = turnOf(request);
    if (caller === 'coordinator') return call('route', { mode: 'plan', reason: 'Several distinct parts: read, test, summarise.' });
    if (caller === 'planner') {
      return call('create_plan', { goal: 'Check the greeting library', thought: 'Read first, then verify, then sum up.', steps: plan.map((t) => STEPS[t]) });
    }
    if (caller === 'updater') return call('keep_plan', { reason: 'The remaining steps still fit.' });
    if (caller === 'report') return call('write_report', REPORT);
    if (caller.startsWith('step:')) {
      const title = caller.slice('step:'.length);
      if (turn === 0 && holds) await holds.hold(caller);
      const answer = STEP_TURNS[title]?.[turn];
      if (answer) return answer;
    }
    return { status: 400, body: { error: { message: `plan e2e fake: nothing scripted for ${caller} turn ${turn}`, type: 'invalid_request_error' } } };
  };
}

const stepCaller = (title: string): Caller => `step:${title}`;

/** Types the task in the sidebar with plan mode `auto` (the coordinator decides) and waits for the panel. */
async function submitTask(wb: Workbench, sidebar: Frame, text: string): Promise<Frame> {
  await sidebar.selectOption('[data-role="plan-mode"]', 'auto');
  const input = sidebar.locator('[data-role="task-input"]');
  await input.fill(text);
  await input.press('Enter');
  await until(`the panel to show "${text}"`, async () => (await textOf(await panelFrame(wb.page))).includes(text));
  return panelFrame(wb.page);
}

/** Waits until the panel's plan column shows exactly `expected` (the panel may reload meanwhile). */
async function expectSteps(wb: Workbench, expected: ShownStep[], what: string): Promise<void> {
  let last: ShownStep[] | undefined;
  try {
    await until(what, async () => {
      last = await shownPlanSteps(await panelFrame(wb.page));
      return JSON.stringify(last) === JSON.stringify(expected);
    }, 60_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}; the panel shows ${JSON.stringify(last)}`);
  }
}

/** What a plan row shows of its step's budget: its estimate before it runs, "spent / budget" once it runs. */
type ShownBudget = { estimate?: string; spend?: string };

/** Waits until the panel's plan rows show exactly `expected` budgets, row by row. */
async function expectBudgets(wb: Workbench, expected: ShownBudget[], what: string): Promise<void> {
  let last: ShownBudget[] | undefined;
  try {
    await until(what, async () => {
      last = await (await panelFrame(wb.page)).evaluate(() => Array.from(document.querySelectorAll('[data-role="plan"] li.step')).map((li) => {
        const estimate = li.querySelector('[data-role="step-estimate"]')?.textContent;
        const spend = li.querySelector('[data-role="step-budget"] .budget-text')?.textContent;
        return { ...(estimate ? { estimate } : {}), ...(spend ? { spend } : {}) };
      })).catch(() => undefined);
      return JSON.stringify(last) === JSON.stringify(expected);
    }, 60_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}; the panel shows ${JSON.stringify(last)}`);
  }
}

/** Dark then light screenshots (named `<name>-dark-*` / `<name>-light-*`); leaves the light theme on. */
async function darkAndLight(wb: Workbench, name: string): Promise<string[]> {
  await hideBottomPanel(wb.page);
  const dark = await screenshots(wb.page, `${name}-dark`);
  await pickColorTheme(wb.page, 'Light Modern');
  await until('the light theme', async () => wb.page.evaluate(() => document.querySelector('.monaco-workbench')?.classList.contains('vs') ?? false));
  await until('the panel in the light theme', async () => (await panelFrame(wb.page)).evaluate(() => document.body.classList.contains('vscode-light')).catch(() => false));
  const light = await screenshots(wb.page, `${name}-light`);
  return [...dark, ...light];
}

function failedName(test: Mocha.Test | undefined): string | undefined {
  return test?.state === 'failed' ? `failed-plan-${test.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 50).toLowerCase()}` : undefined;
}

describe('Plans in the real workbench: live step statuses', function () {
  this.timeout(300_000);
  const holds = new Holds();
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(planScript([READ, TESTS, SUMMARY], holds));
    wb = await openWorkbench({
      settings: { 'stepwise.baseUrl': fake.url, 'stepwise.plan.review': 'auto', 'stepwise.approvals.autoApprove': ['read', 'command'] },
      env: API_KEY,
    });
  });

  afterEach(async function () {
    const name = failedName(this.currentTest);
    if (name && wb) {
      failed = name;
      await screenshots(wb.page, name).catch(() => {});
    }
  });

  after(async () => {
    holds.releaseAll();
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('shows the plan the coordinator asked for and each step going pending -> in progress -> completed', async () => {
    const w = wb!;
    const sidebar = await openSidebar(w.page);
    await submitTask(w, sidebar, 'Check the greeting library and its tests');
    const titles = [READ, TESTS, SUMMARY];
    const statuses = (...s: string[]): ShownStep[] => titles.map((title, i) => ({ title, status: s[i]! }));

    // Each step's model call is held while we look at the panel: the step must show as in progress,
    // those before it completed and those after it pending.
    await holds.arrived(stepCaller(READ));
    await expectSteps(w, statuses('in_progress', 'pending', 'pending'), 'step 1 in progress');
    // The running step shows its spending against its budget; the next its estimate; a step without one nothing.
    await expectBudgets(w, [{ spend: '0 / 40k' }, { estimate: '≈120k tokens' }, {}], 'step 1 at 0 of its 40k budget');
    holds.release(stepCaller(READ));

    await holds.arrived(stepCaller(TESTS));
    await expectSteps(w, statuses('completed', 'in_progress', 'pending'), 'step 2 in progress, step 1 completed');
    await expectBudgets(w, [{ spend: '8.5k / 40k' }, { spend: '0 / 120k' }, {}], 'step 1 ended at 8.5k of 40k, step 2 started');
    const panel = await panelFrame(w.page);
    assert.equal(await panel.getAttribute('li.step:first-child [data-role="step-budget"]', 'aria-label'), 'Used 8.5k of its 40k-token budget');
    assert.match(await textOf(panel), /Plan 1\/3/, 'the progress counter');
    assert.equal(await panel.locator('li.step.current .step-title').textContent(), TESTS, 'the current step is highlighted');
    const shots = await darkAndLight(w, 'plan-progress');
    for (const file of shots) assert.ok(existsSync(file), `${file} saved`);
    holds.release(stepCaller(TESTS));

    await holds.arrived(stepCaller(SUMMARY));
    await expectSteps(w, statuses('completed', 'completed', 'in_progress'), 'step 3 in progress');
    holds.release(stepCaller(SUMMARY));

    await expectSteps(w, statuses('completed', 'completed', 'completed'), 'every step completed');
    await until('the finished outcome', async () => (await (await panelFrame(w.page)).$('.outcome-finished')) !== null);
    const text = await textOf(await panelFrame(w.page));
    assert.match(text, /Plan 3\/3/);
    assert.match(text, /npm test` passes|npm test passes/, "the steps' summaries are shown");

    // The flow ran as planned: each step once, in order, with the updater after each and one report.
    const callers = fake.chatRequests().map(callerOf).filter((c) => c !== 'updater');
    const sequence = callers.filter((c, i) => c !== callers[i - 1]);
    assert.deepEqual(sequence, ['coordinator', 'planner', ...titles.map(stepCaller), 'report']);
    assert.equal(requestsOf(fake.requests, 'updater').length, 3);
    const reports = path.join(w.workspace, '.stepwise', 'reports');
    assert.equal(readdirSync(reports).filter((f) => f.endsWith('.md')).length, 1, 'the report was saved');
  });
});

describe('Plans in the real workbench: review before running (stepwise.plan.review = ask)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(planScript([READ, FRENCH, SUMMARY], undefined));
    wb = await openWorkbench({
      settings: { 'stepwise.baseUrl': fake.url, 'stepwise.plan.review': 'ask', 'stepwise.approvals.autoApprove': ['read'] },
      env: API_KEY,
    });
  });

  afterEach(async function () {
    const name = failedName(this.currentTest);
    if (name && wb) {
      failed = name;
      await screenshots(wb.page, name).catch(() => {});
    }
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('shows the plan for editing; a step deleted before Run never runs and the rest complete', async () => {
    const w = wb!;
    const sidebar = await openSidebar(w.page);
    let panel = await submitTask(w, sidebar, 'Check the greeting library, then localise it');

    await until('the review screen with the planned steps', async () => {
      const titles = await reviewTitles(await panelFrame(w.page));
      return JSON.stringify(titles) === JSON.stringify([READ, FRENCH, SUMMARY]);
    });
    panel = await panelFrame(w.page);
    assert.equal(fake.chatRequests().filter((r) => callerOf(r).startsWith('step:')).length, 0, 'nothing runs while the plan is in review');
    assert.equal(await panel.locator('[data-role="plan"]').isVisible(), false, 'the plan column gives way to the editor');
    assert.equal(await panel.locator('[data-role="state"]').textContent(), 'Awaiting your review', 'the run waits for the user, it is not busy');
    const shots = await darkAndLight(w, 'plan-review');
    for (const file of shots) assert.ok(existsSync(file), `${file} saved`);

    panel = await panelFrame(w.page);
    await panel.locator(`li.review-step:has(input.review-title[value="${FRENCH}"]) [data-action="delete"]`).click();
    await until('the step to leave the editor', async () => JSON.stringify(await reviewTitles(await panelFrame(w.page))) === JSON.stringify([READ, SUMMARY]));
    await (await panelFrame(w.page)).locator('[data-action="run-plan"]').click();

    await until('the finished outcome', async () => (await (await panelFrame(w.page)).$('.outcome-finished')) !== null);
    await expectSteps(w, [{ title: READ, status: 'completed' }, { title: SUMMARY, status: 'completed' }], 'the remaining steps completed');
    assert.equal(await (await panelFrame(w.page)).locator('[data-role="state"]').textContent(), 'Finished');
    assert.deepEqual(requestsOf(fake.requests, stepCaller(FRENCH)), [], 'the deleted step never reached the model');
    const stepHeadings = fake.chatRequests()
      .filter((r) => callerOf(r).startsWith('step:') && turnOf(r) === 0)
      .map((r) => /# Your step \((\d+ of \d+)\): (.*)$/m.exec(String(r.body?.messages?.find((m) => m.role === 'user' && String(m.content).includes('# Your step'))?.content))?.slice(1, 3).join(' '));
    assert.deepEqual(stepHeadings, [`1 of 2 ${READ}`, `2 of 2 ${SUMMARY}`]);
    assert.doesNotMatch(await textOf(await panelFrame(w.page)), new RegExp(FRENCH), 'the deleted step is gone from the panel');
  });
});
