// First run in the real workbench (code-server + chromium, the packaged VSIX): nothing configured, the sidebar shows
// the set-up; the user picks a provider and a model from the endpoint's list, tests the connection, saves and runs a
// task without opening Settings. With a refused key the failed run shows one card whose "Set API Key" and "Retry" work.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { startFakeOllama, type FakeOllamaServer } from '../support/fakeOllamaServer';
import { startFakeOpenAI, type FakeOpenAIServer, type RecordedRequest } from '../support/fakeOpenAIServer';
import { textOf } from './support/webviewDom';
import { frameWith, hideBottomPanel, openSidebar, openWorkbench, pickColorTheme, screenshots, until, type Workbench, screenshotIfFailed } from './support/workbench';

const ANSWER = 'Hello from the local model.';
/** The window the picked model declares with `num_ctx` (its trained length is larger: num_ctx is what Ollama serves). */
const NUM_CTX = 32768;

/** Nothing of the machine's own model set-up may leak into the "first run". */
const CLEAN_ENV = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

/** Every chat request gets a short direct answer (plan mode is `never`, so there is no routing call). */
function answer(request: RecordedRequest): { text: string } {
  void request;
  return { text: ANSWER };
}

/** Files under `dir` (recursively) whose text contains `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (readFileSync(full, 'utf8').includes(needle)) found.push(full);
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

function userSettings(wb: Workbench): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(wb.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
}

async function visible(frame: Frame, selector: string): Promise<boolean> {
  try {
    return await frame.locator(selector).first().isVisible();
  } catch {
    return false;
  }
}

/** Types a task into the chat box with plan mode `never` and sends it. */
async function sendTask(sidebar: Frame, text: string): Promise<void> {
  await sidebar.selectOption('[data-role="plan-mode"]', 'never');
  const input = sidebar.locator('[data-role="task-input"]');
  await input.fill(text);
  await input.press('Enter');
}

/** The sidebar's frame again (found anew: a webview that was hidden and shown has a new frame). */
async function sidebarFrame(page: Page): Promise<Frame> {
  return frameWith(page, '[data-role="task-input"]', 60_000);
}

describe('First-run set-up in the real workbench (code-server + chromium)', function () {
  this.timeout(600_000);
  let wb: Workbench | undefined;

  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, wb, 'failed-setup');
    await wb?.close();
    wb = undefined;
  });

  describe('Ollama', () => {
    let ollama: FakeOllamaServer;
    before(async () => {
      ollama = await startFakeOllama(
        [
          { name: 'llama3.2:3b', architecture: 'llama', contextLength: 131072 },
          { name: 'qwen2.5-coder:7b', architecture: 'qwen2', contextLength: 131072, numCtx: NUM_CTX },
        ],
        answer,
      );
    });
    after(async () => ollama?.close());

    it('pick Ollama, pick a model from its list, test, save and run a task without opening Settings', async () => {
      wb = await openWorkbench({ env: CLEAN_ENV, settings: { 'stepwise.verify.mode': 'off' } });
      const page = wb.page;
      let sidebar = await openSidebar(page);
      await hideBottomPanel(page);

      // Nothing is configured: the set-up is shown instead of the chat, and no chat box.
      await sidebar.locator('[data-role="setup"]').waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await visible(sidebar, '[data-role="task-input"]'), false);
      const providers = await sidebar.$$eval('[data-role="setup-provider"] option', (all) => all.map((o) => o.textContent));
      for (const name of ['OpenAI', 'Azure OpenAI', 'DeepSeek', 'OpenRouter', 'Ollama', 'LM Studio', 'vLLM / OpenAI-compatible']) assert.ok(providers.includes(name), `${name} is offered`);
      await screenshots(page, 'setup-first-run-dark');

      await sidebar.selectOption('[data-role="setup-provider"]', 'ollama');
      assert.equal(await sidebar.inputValue('[data-role="setup-base-url"]'), 'http://127.0.0.1:11434/v1', "Ollama's default URL");
      assert.equal(await visible(sidebar, '[data-role="setup-key"]'), true);
      const url = sidebar.locator('[data-role="setup-base-url"]');
      await url.fill(ollama.url);
      await url.dispatchEvent('change');

      // The list comes from /api/tags, each model's window from /api/show.
      await until('the model list', async () => (await sidebar.$$('[data-role="setup-model-list"] option')).length === 3);
      assert.ok(ollama.requests.some((r) => r.path === '/api/tags'));
      assert.ok(ollama.requests.some((r) => r.path === '/api/show'));
      await sidebar.selectOption('[data-role="setup-model-list"]', 'qwen2.5-coder:7b');
      const summary = await sidebar.locator('[data-role="setup-summary"]').innerText();
      assert.match(summary, new RegExp(`qwen2\\.5-coder:7b at ${ollama.url.replace(/[.]/g, '\\.')}`));
      assert.match(summary, /32,768 tokens/);

      await sidebar.click('[data-action="setup-test"]');
      const result = sidebar.locator('[data-role="setup-test-result"].ok');
      await result.waitFor({ timeout: 60_000 });
      assert.match(await result.innerText(), /Connected: qwen2\.5-coder:7b answered in [\d,]+ ms\./);
      // The test loaded the model: the window is now the one Ollama serves it with (/api/ps).
      assert.ok(ollama.requests.some((r) => r.path === '/api/ps'));
      assert.match(await sidebar.locator('[data-role="setup-summary"]').innerText(), /32,768 tokens \(as the server loaded it\)/);
      const tested = ollama.chatRequests();
      assert.equal(tested.length, 1);
      assert.equal(tested[0]!.body?.model, 'qwen2.5-coder:7b');
      await screenshots(page, 'setup-ollama-tested-dark');

      await sidebar.click('[data-action="setup-save"]');
      // Saved: the chat is back, with the provider and model by the input.
      await sidebar.locator('[data-role="task-input"]').waitFor({ state: 'visible', timeout: 60_000 });
      await until('the model switcher', async () => (await sidebar.locator('[data-action="model-switch"]').innerText()) === 'Ollama · qwen2.5-coder:7b');
      const settings = userSettings(wb);
      assert.equal(settings['stepwise.baseUrl'], ollama.url);
      assert.equal(settings['stepwise.model'], 'qwen2.5-coder:7b');
      assert.equal(settings['stepwise.contextWindow'], NUM_CTX);
      assert.equal(settings['stepwise.provider'], 'openai-compatible');
      assert.ok(!JSON.stringify(settings).includes('apiKey'), 'no key in settings');

      // Example tasks fill the input when clicked.
      const example = sidebar.locator('[data-action="example-task"]').first();
      const exampleText = await example.innerText();
      await example.click();
      assert.equal(await sidebar.inputValue('[data-role="task-input"]'), exampleText);
      await screenshots(page, 'setup-saved-home-dark');

      await sendTask(sidebar, 'Say hello');
      sidebar = await sidebarFrame(page);
      await until('the answer in the sidebar', async () => (await textOf(sidebar)).includes(ANSWER));
      await until('the run to finish', async () => (await sidebar.locator('.card.outcome').count()) > 0 || !(await visible(sidebar, '[data-action="stop"]')));
      const chats = ollama.chatRequests().slice(1);
      assert.ok(chats.length >= 1, 'the task reached the fake Ollama');
      for (const request of chats) assert.equal(request.body?.model, 'qwen2.5-coder:7b');
      // The learned window reached the run: the context gauge names it.
      const gaugeTitle = await until('the context gauge', async () => {
        const title = await sidebar.locator('[data-role="context-used"]').getAttribute('title').catch(() => null);
        return title && title.includes('window') ? title : undefined;
      });
      assert.match(gaugeTitle, /32,768/);
      await screenshots(page, 'setup-ollama-run-dark');

      // The switcher reopens the set-up with the current choice; light theme too.
      await sidebar.click('[data-action="model-switch"]');
      await sidebar.locator('[data-role="setup"]').waitFor({ state: 'visible' });
      assert.equal(await sidebar.inputValue('[data-role="setup-provider"]'), 'ollama');
      assert.equal(await sidebar.inputValue('[data-role="setup-model"]'), 'qwen2.5-coder:7b');
      await until('the model list again', async () => (await sidebar.$$('[data-role="setup-model-list"] option')).length === 3);
      await pickColorTheme(page, 'Light Modern');
      await screenshots(page, 'setup-switcher-light');
      await sidebar.click('[data-action="setup-cancel"]');
      await sidebar.locator('[data-role="task-input"]').waitFor({ state: 'visible' });
    });
  });

  describe('a refused key', () => {
    let fake: FakeOpenAIServer;
    before(async () => {
      fake = await startFakeOpenAI(answer, { model: 'gpt-test', requireKey: 'sk-good-key-000000000000' });
    });
    after(async () => fake?.close());

    it('the test says the key was refused; the failed run shows one card whose Set API Key and Retry work', async () => {
      wb = await openWorkbench({ env: CLEAN_ENV, settings: { 'stepwise.verify.mode': 'off', 'workbench.colorTheme': 'Default Light Modern' } });
      const page = wb.page;
      let sidebar = await openSidebar(page);
      await hideBottomPanel(page);
      await sidebar.locator('[data-role="setup"]').waitFor({ state: 'visible', timeout: 60_000 });

      await sidebar.selectOption('[data-role="setup-provider"]', 'custom');
      await sidebar.fill('[data-role="setup-base-url"]', fake.url);
      const key = sidebar.locator('[data-role="setup-key"]');
      await key.fill('sk-bad-key-000000000000');
      await key.dispatchEvent('change');
      // Listing with the bad key is refused too, in plain words; the model name can be typed.
      await until('the refused listing', async () => /The API key was refused/.test(await sidebar.locator('[data-role="setup-models-note"]').innerText()));
      await sidebar.fill('[data-role="setup-model"]', 'gpt-test');
      await sidebar.click('[data-action="setup-test"]');
      const failed = sidebar.locator('[data-role="setup-test-result"].failed');
      await failed.waitFor({ timeout: 60_000 });
      assert.match(await failed.innerText(), /The API key was refused\. .*401/);
      await screenshots(page, 'setup-bad-key-test-light');

      // Saved anyway (the user may fix the key later): the run fails with 401.
      await sidebar.click('[data-action="setup-save"]');
      await sidebar.locator('[data-role="task-input"]').waitFor({ state: 'visible', timeout: 60_000 });
      await sendTask(sidebar, 'Say hello');
      sidebar = await sidebarFrame(page);
      const card = sidebar.locator('.card.outcome');
      await card.first().waitFor({ timeout: 60_000 });
      assert.equal(await card.count(), 1, 'one outcome card');
      assert.equal(await sidebar.locator('.card.error').count(), 0, 'the error is not shown twice');
      assert.match(await card.innerText(), /401/);
      assert.equal(await card.locator('[data-action="set-api-key"]').count(), 1);
      assert.equal(await card.locator('[data-action="retry-task"]').count(), 1);
      await screenshots(page, 'setup-bad-key-run-light');
      await pickColorTheme(page, 'Dark Modern');
      await screenshots(page, 'setup-bad-key-run-dark');

      // Set API Key: VS Code's own password box, for this endpoint's origin.
      await card.locator('[data-action="set-api-key"]').click();
      const box = page.locator('.quick-input-widget .quick-input-box input');
      await box.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await box.getAttribute('type'), 'password');
      assert.match(await page.locator('.quick-input-widget').innerText(), new RegExp(new URL(fake.url).origin.replace(/[.]/g, '\\.')));
      await box.fill('sk-good-key-000000000000');
      await box.press('Enter');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });

      // Retry runs the same task again, now with the good key.
      const before = fake.chatRequests().length;
      sidebar = await sidebarFrame(page);
      await sidebar.locator('.card.outcome [data-action="retry-task"]').click();
      await until('the answer after the retry', async () => (await textOf(await sidebarFrame(page))).includes(ANSWER));
      const retried = fake.chatRequests().slice(before);
      assert.ok(retried.length >= 1);
      assert.equal(retried.at(-1)!.headers.authorization, 'Bearer sk-good-key-000000000000');
      assert.equal(retried.at(-1)!.body?.model, 'gpt-test');
      sidebar = await sidebarFrame(page);
      await until('a finished outcome', async () => (await sidebar.locator('.card.outcome.outcome-finished').count()) === 1 || !(await visible(sidebar, '.card.outcome.outcome-failed')));
      await screenshots(page, 'setup-bad-key-retried-dark');

      // The Output log has the set-up's lines, and neither key (typed in the form or in the input box).
      const logs = path.join(wb.server.userDataDir, 'logs');
      await until('the set-up test in the log', () => filesContaining(logs, 'set-up test of').length > 0);
      for (const secret of ['sk-bad-key-000000000000', 'sk-good-key-000000000000']) assert.deepEqual(filesContaining(logs, secret), [], secret);
    });
  });
});
