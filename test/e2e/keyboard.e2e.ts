// A whole planned task with the keyboard alone, in the real workbench (issue 15, acceptance 5; issue 22, item 2):
// "Stepwise: New Task" from the palette puts the caret in the chat box; Enter sends; the plan review has the
// focus on Run; an edit opens its diff editor with the focus (Ctrl+Enter keeps it); the command approval after
// it takes the focus in the panel (Enter approves); a question takes the focus (type, Enter), also back from an
// editor through "Stepwise: Show Task Panel"; Ctrl+Alt+X stops. The focus is checked after each step.
// Only page.keyboard is used on the workbench: no mouse clicks, no element.click().
// Run: npm run package && npx mocha --config .mocharc.json --timeout 600000 test/e2e/keyboard.e2e.ts
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish, requestsOf, turnOf } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { Holds } from './support/holds';
import { focusedFrame, runCommandByKeys, shotsInThemes, THEMES, waitForFocus } from './support/keyboard';
import { textOf } from './support/webviewDom';
import { hideBottomPanel, openWorkbench, panelFrame, until, type Workbench, screenshotIfFailed } from './support/workbench';

const EDIT = 'Change the greeting';
const TESTS = 'Run the tests';
const ASK = 'Ask which language';
const SLOW = 'Translate the greeting';
const STEPS = [
  { title: EDIT, description: 'Say Hi instead of Hello in src/greet.js.', role: 'coder' },
  { title: TESTS, description: 'Run `npm test`.', role: 'coder' },
  { title: ASK, description: 'Ask the user which language the greeting should use.', role: 'coder' },
  { title: SLOW, description: 'Change greet() to that language.', role: 'coder' },
];

/** The fake model: plans four steps; an edit, a command, a question, and one held until Stop. */
function script(holds: Holds): (request: RecordedRequest) => Promise<FakeTurn> {
  return async (request) => {
    const caller = callerOf(request);
    const turn = turnOf(request);
    if (caller === 'coordinator') return call('route', { mode: 'plan', reason: 'Tests, a question, then a change.' });
    if (caller === 'planner') return call('create_plan', { goal: 'Localise the greeting', thought: 'Check, ask, change.', steps: STEPS });
    if (caller === 'updater') return call('keep_plan', { reason: 'Still fits.' });
    if (caller === `step:${EDIT}`) {
      return turn === 0 ? call('edit_file', { path: 'src/greet.js', edits: [{ search: "  return 'Hello, ' + name;", replace: "  return 'Hi, ' + name;" }] }) : finish('The greeting says Hi.');
    }
    if (caller === `step:${TESTS}`) return turn === 0 ? call('run_command', { command: 'npm test' }, 'Running the tests.') : finish('`npm test` passes.');
    if (caller === `step:${ASK}`) return turn === 0 ? call('ask_user', { question: 'Which language should the greeting use?' }) : finish('The user chose the language.');
    if (caller === `step:${SLOW}`) {
      await holds.hold('slow');
      return finish('Not reached: the user stops first.');
    }
    return { status: 400, body: { error: { message: `keyboard e2e fake: nothing scripted for ${caller} turn ${turn}`, type: 'invalid_request_error' } } };
  };
}

describe('A planned task driven with the keyboard alone (real workbench)', function () {
  this.timeout(400_000);
  const holds = new Holds();
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(script(holds));
    wb = await openWorkbench({
      settings: {
        'stepwise.baseUrl': fake.url,
        'stepwise.plan.review': 'ask',
        'stepwise.approvals.autoApprove': ['read'],
        'stepwise.verify.mode': 'off',
      },
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
      // The theme screenshots switch themes in .vscode/settings.json: the folder exists from the start.
      files: { '.vscode/settings.json': '{}' },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-keyboard')) ?? failed;
  });

  after(async () => {
    holds.releaseAll();
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('New Task, send, Run the plan, keep an edit, approve, answer, stop: keys only', async () => {
    const w = wb!;
    const keys = w.page.keyboard;
    await hideBottomPanel(w.page);

    await runCommandByKeys(w.page, 'Stepwise: New Task');
    await waitForFocus(w.page, '[data-role="task-input"]', 'the chat box input');
    await keys.type('Localise the greeting after checking the tests');
    await keys.press('Enter');

    // The plan waits for review in the panel, with the focus on Run.
    const review = await waitForFocus(w.page, '[data-action="run-plan"]', 'Run in the plan review');
    assert.match(await textOf(review), /Review the plan/);
    assert.deepEqual(
      await review.evaluate(() => Array.from(document.querySelectorAll('[data-role="review"] [data-action="delete"]')).map((b) => b.getAttribute('aria-label'))),
      STEPS.map((s, i) => `Delete step ${i + 1}: ${s.title}`),
      'each Delete says which step',
    );
    await keys.press('Enter');

    // The edit opens its diff editor with the focus; Ctrl+Enter keeps it.
    await until('the focus in the review diff editor', () => w.page.evaluate(() => document.hasFocus() && document.activeElement?.closest('.monaco-diff-editor') !== null));
    await keys.press('Control+Enter');
    await until('the kept edit on disk', () => readFileSync(path.join(w.workspace, 'src', 'greet.js'), 'utf8').includes("'Hi, '"));

    // The command's approval after the edit takes the focus on Approve (issue 22, item 2: it did not).
    const approval = await waitForFocus(w.page, '.approval-prompt [data-action="approve"]', 'Approve after the kept edit');
    assert.match(await textOf(approval), /npm test/);
    const shots = await shotsInThemes(w, 'keyboard-approval', [THEMES[1], THEMES[0], THEMES[2]]);
    for (const file of shots) assert.ok(existsSync(file), `${file} saved`);
    assert.ok(await waitForFocus(w.page, '.approval-prompt [data-action="approve"]', 'Approve (after the theme changes)', 5_000));
    await keys.press('Enter');
    await until('the command step to finish', () => requestsOf(fake.requests, `step:${TESTS}`).length >= 2);

    // The question takes the focus on its answer field.
    await waitForFocus(w.page, '[data-role="answer-input"]', 'the answer field');
    // Away to the Explorer and back with "Stepwise: Show Task Panel": the pending question has the focus again.
    await runCommandByKeys(w.page, 'View: Show Explorer');
    await until('the focus out of the panel', async () => (await focusedFrame(w.page, '[data-role="answer-input"]')) === undefined);
    await runCommandByKeys(w.page, 'Stepwise: Show Task Panel');
    await waitForFocus(w.page, '[data-role="answer-input"]', 'the answer field after Show Task Panel');
    await keys.type('French');
    await keys.press('Enter');
    await until('the answer to reach the model', () => requestsOf(fake.requests, `step:${ASK}`).some((r) => JSON.stringify(r.body?.messages).includes('French')));

    // The last step is held; the Stop keybinding ends the task (pressed with the focus in the panel).
    await holds.arrived('slow');
    await keys.press('Control+Alt+x');
    await until('the cancelled outcome', async () => (await (await panelFrame(w.page)).$('.outcome-cancelled')) !== null);
    assert.ok(await (await panelFrame(w.page)).evaluate(() => document.hasFocus()), 'the focus stays in the panel after Stop');
    const steps = await (await panelFrame(w.page)).evaluate(() => ({
      list: document.querySelector('[data-role="plan"] ol')?.getAttribute('role'),
      labels: Array.from(document.querySelectorAll('[data-role="plan"] li.step')).map((li) => `${li.getAttribute('role')} ${li.getAttribute('aria-label')}`),
    }));
    assert.equal(steps.list, 'list');
    assert.equal(steps.labels[0], `listitem Step 1 Completed: ${EDIT}`);
    assert.equal(steps.labels[1], `listitem Step 2 Completed: ${TESTS}`);
    assert.equal(steps.labels[2], `listitem Step 3 Completed: ${ASK}`);
    assert.equal(requestsOf(fake.requests, `step:${SLOW}`).length, 1, 'the held step was asked once and then stopped');
  });
});
