// Issue 23, acceptance 1 (the workbench part): Claude through the set-up view in the real workbench
// (code-server + chromium, the packaged VSIX): pick "Anthropic", give the key, pick a model from
// GET /v1/models, test the connection, save and run a task, all against a fake Anthropic API.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { startFakeAnthropic, type FakeAnthropicServer } from '../support/fakeAnthropicServer';
import { textOf } from './support/webviewDom';
import { frameWith, hideBottomPanel, openSidebar, openWorkbench, screenshots, until, type Workbench, screenshotIfFailed } from './support/workbench';

const KEY = 'sk-ant-e2e-key-0000000000000000';
const ANSWER = 'Hello from Claude.';
const CLEAN_ENV = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: '' };

async function sidebarFrame(page: Page): Promise<Frame> {
  return frameWith(page, '[data-role="task-input"]', 60_000);
}

describe('Anthropic through the set-up view (code-server + chromium)', function () {
  this.timeout(600_000);
  let wb: Workbench | undefined;
  let fake: FakeAnthropicServer;

  before(async () => {
    // One answer for the connection test, then the task's answer.
    fake = await startFakeAnthropic(
      [{ blocks: [{ type: 'text', text: 'OK' }] }, { blocks: [{ type: 'text', text: ANSWER }] }, { blocks: [{ type: 'text', text: ANSWER }] }],
      { models: ['claude-sonnet-4-6', 'claude-haiku-4-5'], requireKey: KEY },
    );
  });
  after(async () => fake?.close());
  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, wb, 'failed-setup-anthropic');
    await wb?.close();
    wb = undefined;
  });

  it('preset, key, model list, test, save, and a task answered by the Messages API', async () => {
    wb = await openWorkbench({ env: CLEAN_ENV, settings: { 'stepwise.verify.mode': 'off' } });
    const page = wb.page;
    let sidebar = await openSidebar(page);
    await hideBottomPanel(page);
    await sidebar.locator('[data-role="setup"]').waitFor({ state: 'visible', timeout: 60_000 });
    const providers = await sidebar.$$eval('[data-role="setup-provider"] option', (all) => all.map((o) => o.textContent));
    assert.ok(providers.includes('Anthropic'), 'Anthropic is offered');

    await sidebar.selectOption('[data-role="setup-provider"]', 'anthropic');
    assert.equal(await sidebar.inputValue('[data-role="setup-base-url"]'), 'https://api.anthropic.com');
    const url = sidebar.locator('[data-role="setup-base-url"]');
    await url.fill(fake.url);
    await url.dispatchEvent('change');
    const key = sidebar.locator('[data-role="setup-key"]');
    await key.fill(KEY);
    await key.dispatchEvent('change');

    await until('the model list from /v1/models', async () => (await sidebar.$$('[data-role="setup-model-list"] option')).length >= 2);
    const listing = fake.requests.filter((r) => r.path.startsWith('/v1/models')).at(-1)!;
    assert.equal(listing.headers['x-api-key'], KEY);
    assert.equal(listing.headers['anthropic-version'], '2023-06-01');
    await sidebar.selectOption('[data-role="setup-model-list"]', 'claude-sonnet-4-6');

    await sidebar.click('[data-action="setup-test"]');
    const result = sidebar.locator('[data-role="setup-test-result"].ok');
    await result.waitFor({ timeout: 60_000 });
    assert.match(await result.innerText(), /Connected: claude-sonnet-4-6 answered in [\d,]+ ms\./);
    await screenshots(page, 'setup-anthropic-tested-dark');

    await sidebar.click('[data-action="setup-save"]');
    await sidebar.locator('[data-role="task-input"]').waitFor({ state: 'visible', timeout: 60_000 });
    const settings = JSON.parse(readFileSync(path.join(wb.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(settings['stepwise.provider'], 'anthropic');
    assert.equal(settings['stepwise.model'], 'claude-sonnet-4-6');
    assert.equal(settings['stepwise.baseUrl'], fake.url);
    assert.ok(!JSON.stringify(settings).includes(KEY), 'no key in settings');

    await sidebar.selectOption('[data-role="plan-mode"]', 'never');
    const input = sidebar.locator('[data-role="task-input"]');
    await input.fill('Say hello');
    await input.press('Enter');
    sidebar = await sidebarFrame(page);
    await until('the answer in the sidebar', async () => (await textOf(sidebar)).includes(ANSWER));
    const task = fake.messageRequests().slice(1);
    assert.ok(task.length >= 1, 'the task reached the fake Anthropic API');
    for (const request of task) {
      assert.equal(request.body?.model, 'claude-sonnet-4-6');
      assert.equal(request.headers['x-api-key'], KEY, 'the key stored for the origin');
      assert.deepEqual((request.body?.system as Array<Record<string, unknown>>).at(-1)!.cache_control, { type: 'ephemeral' });
    }
    await screenshots(page, 'setup-anthropic-run-dark');
  });
});
