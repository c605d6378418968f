// Issue 22, the first hour's second pass, in the real workbench (code-server + chromium, the packaged VSIX):
// the sidebar's conversation survives "Set Up Model" → Cancel, and a task's title is a short summary of the
// user's words (Run Task on Selection attaches the selection instead of pasting fences into the message).
import assert from 'node:assert/strict';
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium } from '../host/browser';
import { installVsix, newRunDir, startCodeServer, type CodeServer } from '../host/codeServer';
import { createSampleWorkspace } from '../host/sampleWorkspace';
import { startFakeOpenAI, type FakeOpenAIServer, type RecordedRequest } from '../support/fakeOpenAIServer';
import { textOf } from './support/webviewDom';
import { builtVsix, frameWith, hideBottomPanel, openSidebar, openWorkbench, pickColorTheme, runCommand, screenshots, screenshotIfFailed, until, type Workbench } from './support/workbench';

const API_KEY = { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' };
const ANSWER = 'toKelvin adds 273 where it should add 273.15.';

function answer(request: RecordedRequest): { text: string } {
  void request;
  return { text: ANSWER };
}

const sidebarFrame = (page: Page): Promise<Frame> => frameWith(page, '[data-role="task-input"]', 60_000);

async function sendTask(sidebar: Frame, text: string): Promise<void> {
  await sidebar.selectOption('[data-role="plan-mode"]', 'never');
  const input = sidebar.locator('[data-role="task-input"]');
  await input.fill(text);
  await input.press('Enter');
}

describe('The first hour, second pass (code-server + chromium)', function () {
  this.timeout(600_000);
  let wb: Workbench | undefined;
  let fake: FakeOpenAIServer;

  before(async () => {
    fake = await startFakeOpenAI(answer, { model: 'gpt-test' });
  });
  after(async () => fake?.close());
  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, wb, 'failed-first-hour-2');
    await wb?.close();
    wb = undefined;
  });

  for (const theme of ['Default Dark Modern', 'Default Light Modern']) {
    const tag = theme.includes('Light') ? 'light' : 'dark';
    it(`keeps the conversation through Set Up Model → Cancel, with a short title (${tag})`, async () => {
      wb = await openWorkbench({ env: API_KEY, settings: { 'stepwise.baseUrl': fake.url, 'stepwise.model': 'gpt-test', 'stepwise.verify.mode': 'off', 'workbench.colorTheme': theme } });
      const page = wb.page;
      let sidebar = await openSidebar(page);
      await hideBottomPanel(page);
      const long = 'Explain why toKelvin in src/convert.js gives wrong results for every input, and say which constant it should use';
      await sendTask(sidebar, long);
      sidebar = await sidebarFrame(page);
      await until('the answer in the sidebar', async () => (await textOf(sidebar)).includes(ANSWER));

      // The title is the user's words, shortened at a word boundary; the whole text is its tooltip.
      const title = sidebar.locator('header.bar .bar-title');
      await until('the title', async () => (await title.innerText()).startsWith('Explain why toKelvin'));
      const shown = await title.innerText();
      assert.ok(Array.from(shown).length <= 60 && shown.endsWith('…'), `a short title: ${shown}`);
      assert.doesNotMatch(shown, /\s…$/, 'cut at a word, not after a space');

      // Set Up Model from the palette, then Cancel: the conversation is still there.
      await runCommand(page, 'Stepwise: Set Up Model');
      sidebar = await frameWith(page, '[data-role="setup"]:not([hidden])', 60_000);
      await sidebar.locator('[data-action="setup-cancel"]').click();
      sidebar = await sidebarFrame(page);
      await until('the conversation after Cancel', async () => (await textOf(sidebar)).includes(ANSWER), 30_000);
      assert.ok((await textOf(sidebar)).includes(long), 'the task message is still shown');
      await screenshots(page, `first-hour-2-after-setup-cancel-${tag}`);
    });
  }

  // Issue 22 item 6: Run Task on Selection titles the task by the instruction and attaches the selection.
  it('Run Task on Selection: the title is the instruction, the message carries no code fences', async () => {
    wb = await openWorkbench({ env: API_KEY, settings: { 'stepwise.baseUrl': fake.url, 'stepwise.model': 'gpt-test', 'stepwise.verify.mode': 'off', 'stepwise.plan.mode': 'never' } });
    const page = wb.page;
    await openSidebar(page);
    await hideBottomPanel(page);
    // Open src/greet.js through the palette's file picker, select all of it.
    await page.keyboard.press('Control+P');
    const pick = page.locator('.quick-input-widget .quick-input-box input');
    await pick.waitFor({ state: 'visible', timeout: 10_000 });
    await pick.fill('greet.js');
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor .view-lines').first();
    await editor.waitFor({ timeout: 20_000 });
    await editor.click();
    await page.keyboard.press('Control+A');
    await runCommand(page, 'Stepwise: Run Task on Selection');
    const ask = page.locator('.quick-input-widget .quick-input-box input');
    await ask.waitFor({ state: 'visible', timeout: 10_000 });
    await ask.fill('Fix the greeting');
    await ask.press('Enter');
    await until('the answer', async () => (await textOf(await sidebarFrame(page))).includes(ANSWER), 60_000);
    const sidebar = await sidebarFrame(page);
    assert.equal((await sidebar.locator('header.bar .bar-title').innerText()).trim(), 'Fix the greeting');
    const message = await sidebar.locator('.card.task .task-text').first().innerText();
    assert.doesNotMatch(message, /```/, 'no raw code fence in the message');
    assert.match(message, /^Fix the greeting\s+\(selection: src\/greet\.js:1-\d+\)$/);
    // The model still got the selected code.
    const body = JSON.stringify(fake.chatRequests().at(-1)?.body ?? {});
    assert.ok(body.includes("return 'Hello, ' + name;"), 'the selection reached the model');
    await screenshots(page, 'first-hour-2-selection-title-dark');
    await pickColorTheme(page, 'Light Modern');
    await screenshots(page, 'first-hour-2-selection-title-light');
  });

  // Issue 22 item 3: a second window on the same folder that VS Code gives a workspace storage folder of
  // its own (simulated: the first window's storage folder is moved away before the workbench starts again).
  it('a window with a new workspace storage folder shows the same history', async () => {
    const runDir = newRunDir('e2e');
    const workspace = createSampleWorkspace(path.join(runDir, 'workspace'));
    await installVsix(runDir, builtVsix());
    const settings = { 'stepwise.baseUrl': fake.url, 'stepwise.model': 'gpt-test', 'stepwise.verify.mode': 'off' };
    const open = async (keepSettings: boolean): Promise<{ server: CodeServer; browser: Browser; page: Page }> => {
      const server = await startCodeServer({ runDir, settings, env: API_KEY, keepSettings });
      const browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
      await page.goto(server.workbenchUrl(workspace));
      await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 60_000 });
      return { server, browser, page };
    };
    let first: Awaited<ReturnType<typeof open>> | undefined = await open(false);
    try {
      let sidebar = await openSidebar(first.page);
      await sendTask(sidebar, 'Find where toKelvin is defined');
      sidebar = await sidebarFrame(first.page);
      await until('the answer in the first window', async () => (await textOf(sidebar)).includes(ANSWER));
    } finally {
      await first.browser.close().catch(() => {});
      await first.server.stop();
      first = undefined;
    }
    const storage = path.join(runDir, 'user-data', 'User', 'workspaceStorage');
    assert.ok(existsSync(storage), 'the first window had a workspace storage folder');
    renameSync(storage, `${storage}.first-window`);

    const second = await open(true);
    try {
      const sidebar = await openSidebar(second.page);
      await until('the first window\'s task in the history', async () => (await textOf(sidebar)).includes('Find where toKelvin is defined'), 60_000);
      assert.doesNotMatch(await textOf(sidebar), /No tasks yet/);
      await screenshots(second.page, 'first-hour-2-second-window-history-dark');
      await pickColorTheme(second.page, 'Light Modern');
      await screenshots(second.page, 'first-hour-2-second-window-history-light');
    } finally {
      await second.browser.close().catch(() => {});
      await second.server.stop();
    }
  });
});
