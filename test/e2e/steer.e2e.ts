// Steering a running task in the real workbench (issue 26, acceptance 3): while the agent's command
// runs, the user types in the chat box (it stays open beside Stop); the message is listed as queued,
// reaches the model at the next turn boundary, and the timeline shows it where it was delivered.
// Run: npm run package && npx mocha --config .mocharc.json --timeout 600000 test/e2e/steer.e2e.ts
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, finish, requestText } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { openSidebar, openWorkbench, screenshots, until, type Workbench, screenshotIfFailed } from './support/workbench';

const MESSAGE = 'also update the changelog (STEER-MARKER)';
/** The agent's first command waits for this file, which the test writes once the message is queued. */
const WAIT_FOR_GO = 'while [ ! -f go ]; do sleep 0.1; done; echo went';

function script(request: RecordedRequest, index: number): FakeTurn {
  if (requestText(request).includes(MESSAGE)) return finish('Fixed the typo and updated the changelog.');
  return index === 0 || !requestText(request).includes('went') ? call('run_command', { command: WAIT_FOR_GO }) : call('run_command', { command: 'sleep 0.2' });
}

describe('Messages while a task runs (real workbench)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(script);
    wb = await openWorkbench({
      settings: {
        'stepwise.baseUrl': fake.url,
        'stepwise.approvals.autoApprove': ['read', 'command'],
        'stepwise.plan.mode': 'never',
        'stepwise.verify.mode': 'off',
      },
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
      files: { 'README.md': 'Teh project.\n' },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-steer')) ?? failed;
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('typing while the task runs queues the message; it is delivered at the next turn and shown there', async () => {
    const w = wb!;
    const sidebar = await openSidebar(w.page);
    const input = sidebar.locator('[data-role="task-input"]');
    await input.click();
    await input.pressSequentially('Fix the typo in README.md', { delay: 5 });
    await input.press('Enter');

    // The command runs (it waits for the go file): Stop and Send are both offered.
    await sidebar.locator('[data-action="stop"]').waitFor({ state: 'visible', timeout: 60_000 });
    await until('the running command', () => fake.chatRequests().length >= 1);
    assert.ok(await sidebar.locator('[data-action="send"]').isVisible(), 'Send stays open while the task runs');

    await input.click();
    await input.pressSequentially(MESSAGE, { delay: 5 });
    await input.press('Enter');
    const queued = sidebar.locator('[data-role="queued-message"]');
    await queued.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await queued.innerText(), /STEER-MARKER/);
    assert.equal(await sidebar.locator('.card.message').count(), 0, 'not on the timeline before it was delivered');
    assert.ok(!fake.chatRequests().some((r) => requestText(r).includes(MESSAGE)), 'no request carries it while the command runs');
    await screenshots(w.page, 'steer-queued');

    writeFileSync(path.join(w.workspace, 'go'), '');
    const card = sidebar.locator('.card.message');
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await card.innerText(), /delivered here[\s\S]*STEER-MARKER/i);
    await until('the queued line gone', async () => (await queued.count()) === 0);

    // The model got it at a turn boundary: after the command's whole result, as the last user message.
    const carrying = fake.chatRequests().find((r) => requestText(r).includes(MESSAGE))!;
    const messages = carrying.body!.messages!;
    assert.equal(messages.at(-1)?.role, 'user');
    assert.match(String(messages.at(-1)?.content), /STEER-MARKER/);
    assert.ok(messages.some((m) => m.role === 'tool' && String(m.content).includes('went')), 'the command was not cut');
    await sidebar.locator('.outcome-finished').waitFor({ timeout: 60_000 });
    await screenshots(w.page, 'steer-delivered');
  });
});
