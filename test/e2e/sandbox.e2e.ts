// Issue 25, acceptance 3, in the real workbench: the chat box's permission switch shows the mode and
// changes what runs without asking. In "Ask before acting" the command waits for an approval; after
// switching to "Auto inside the sandbox" the next task's command runs at once, inside the sandbox
// (its write outside the workspace is blocked and the result says so).
// Run: npm run package && npx mocha --config .mocharc.json --timeout 600000 test/e2e/sandbox.e2e.ts
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { frameWith, openSidebar, openWorkbench, screenshots, until, type Workbench, screenshotIfFailed } from './support/workbench';

const OUTSIDE = `/var/tmp/stepwise-e2e-sandbox-outside-${process.pid}.txt`;
const COMMANDS: Record<string, string> = {
  'TASK-ASK': 'echo asked > asked.txt',
  'TASK-AUTO': `echo auto > auto.txt; echo outside > ${OUTSIDE}`,
};

/** The fake: the coordinator answers directly; the agent runs the task's command, then finishes. */
function script(request: RecordedRequest): FakeTurn {
  if (callerOf(request) === 'coordinator') return call('route', { mode: 'direct', reason: 'One command.' });
  const messages = request.body?.messages ?? [];
  if (messages.at(-1)?.role === 'tool') return finish('Ran it.');
  const task = Object.keys(COMMANDS).find((key) => JSON.stringify(messages).includes(key));
  return call('run_command', { command: COMMANDS[task ?? 'TASK-ASK'] });
}

const chatFrame = (w: Workbench): Promise<Frame> => frameWith(w.page, '[data-role="task-input"]');

/** Visible Approve buttons in every frame of the page. */
async function approveControls(w: Workbench): Promise<number> {
  let count = 0;
  for (const frame of w.page.frames()) {
    count += await frame.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('[data-action="approve"]')).filter((b) => b.offsetParent !== null).length).catch(() => 0);
  }
  return count;
}

describe('Permission modes in the chat box (real workbench)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(script);
    wb = await openWorkbench({
      settings: { 'stepwise.baseUrl': fake.url, 'stepwise.approvals.autoApprove': ['read'], 'stepwise.verify.mode': 'off', 'stepwise.checkpoints.enabled': false },
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-sandbox')) ?? failed;
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
    rmSync(OUTSIDE, { force: true });
  });

  async function send(w: Workbench, text: string): Promise<void> {
    const sidebar = await chatFrame(w);
    const newTask = sidebar.locator('[data-action="new-task"]');
    if (await newTask.isVisible()) await newTask.click();
    const input = sidebar.locator('[data-role="task-input"]');
    await input.click();
    await input.pressSequentially(text, { delay: 10 });
    await input.press('Enter');
  }

  it('Ask before acting: the command waits for an approval', async () => {
    const w = wb!;
    const sidebar = await openSidebar(w.page);
    const select = sidebar.locator('[data-role="permission-mode"]');
    await until('the sidebar shows the mode "ask"', async () => (await select.getAttribute('data-mode')) === 'ask');
    await send(w, 'Run TASK-ASK please');
    await until('an approval for the command', async () => (await approveControls(w)) > 0);
    assert.equal(existsSync(path.join(w.workspace, 'asked.txt')), false, 'nothing ran before the approval');
    for (const frame of w.page.frames()) {
      const button = frame.locator('[data-action="approve"]:visible').first();
      if (await button.count().catch(() => 0)) {
        await button.click();
        break;
      }
    }
    await until('asked.txt written after the approval', () => existsSync(path.join(w.workspace, 'asked.txt')));
  });

  it('Auto inside the sandbox: the switch shows the mode; the next command runs without asking, confined', async () => {
    const w = wb!;
    const sidebar = await chatFrame(w);
    const select = sidebar.locator('[data-role="permission-mode"]');
    await select.selectOption('auto');
    await until('the sidebar shows the mode "auto" (the setting came back through the status)', async () => (await select.getAttribute('data-mode')) === 'auto');
    await screenshots(w.page, 'sandbox-mode-auto');
    await send(w, 'Run TASK-AUTO please');
    await until('auto.txt written without an approval', () => existsSync(path.join(w.workspace, 'auto.txt')), 90_000);
    assert.equal(readFileSync(path.join(w.workspace, 'auto.txt'), 'utf8'), 'auto\n');
    assert.equal(await approveControls(w), 0, 'nothing was asked');
    assert.equal(existsSync(OUTSIDE), false, 'the write outside the workspace was blocked by the sandbox');
    const result = await until('the command result sent back to the model', () => {
      const last = fake.chatRequests().map((r) => r.body?.messages ?? []).find((m) => m.at(-1)?.role === 'tool' && JSON.stringify(m).includes('TASK-AUTO'));
      return last?.at(-1)?.content ?? undefined;
    });
    assert.match(String(result), /\[sandbox workspace-write\] .*blocked by the sandbox/);
  });
});
