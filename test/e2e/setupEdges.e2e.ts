// The set-up form's rough edges, in the real workbench (code-server + chromium, the packaged VSIX): no
// "lists no models" before a URL is typed, a wrong URL said once, "one model" in the singular, and a key
// the server refused is never captioned "not needed".
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Server } from 'node:net';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer } from '../support/fakeOpenAIServer';
import { hideBottomPanel, openSidebar, openWorkbench, runCommand, screenshots, screenshotIfFailed, until, type Workbench } from './support/workbench';

const CLEAN_ENV = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

/** A loopback port that refuses connections: bound, then closed. */
async function refusedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const note = (sidebar: Frame) => sidebar.locator('[data-role="setup-models-note"]').innerText();
const keyHint = (sidebar: Frame) => sidebar.locator('[data-role="setup-key"]').locator('xpath=..').locator('.setup-hint').innerText();

async function typeUrl(sidebar: Frame, url: string): Promise<void> {
  const field = sidebar.locator('[data-role="setup-base-url"]');
  await field.fill(url);
  await field.dispatchEvent('change');
}

/** How often `phrase` occurs in `text`, ignoring case. */
const occurrences = (text: string, phrase: RegExp) => (text.match(new RegExp(phrase.source, 'gi')) ?? []).length;

describe('Set-up form edges in the real workbench (code-server + chromium)', function () {
  this.timeout(600_000);
  let wb: Workbench | undefined;
  let open: FakeOpenAIServer;
  let locked: FakeOpenAIServer;

  before(async () => {
    open = await startFakeOpenAI(() => ({ text: 'hi' }), { model: 'only-model' });
    locked = await startFakeOpenAI(() => ({ text: 'hi' }), { model: 'gpt-test', requireKey: 'sk-good-key-000000000000' });
  });
  after(async () => {
    await open?.close();
    await locked?.close();
  });
  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, wb, 'failed-setup-edges');
    await wb?.close();
    wb = undefined;
  });

  for (const theme of ['Default Dark Modern', 'Default Light Modern']) {
    const tag = theme.includes('Light') ? 'light' : 'dark';
    it(`says what the endpoint answered, once and in the right number (${tag})`, async () => {
      wb = await openWorkbench({ env: CLEAN_ENV, settings: { 'stepwise.verify.mode': 'off', 'workbench.colorTheme': theme } });
      const page = wb.page;
      const sidebar = await openSidebar(page);
      await hideBottomPanel(page);
      await sidebar.locator('[data-role="setup"]').waitFor({ state: 'visible', timeout: 60_000 });

      // The OpenAI-compatible preset starts with no URL: nothing was asked, so nothing is "listed".
      await sidebar.selectOption('[data-role="setup-provider"]', 'custom');
      await typeUrl(sidebar, '');
      assert.equal((await note(sidebar)).trim(), '', 'no verdict on a list before any URL is typed');
      assert.doesNotMatch(await sidebar.locator('[data-role="setup"]').innerText(), /lists no models/);

      // A URL where nothing listens: one explanation, then the facts.
      const port = await refusedPort();
      await typeUrl(sidebar, `http://127.0.0.1:${port}/v1`);
      await until('the unreachable note', async () => /No answer from the server/.test(await note(sidebar)));
      const unreachable = await note(sidebar);
      assert.equal(occurrences(unreachable, /is (it|the server) running/), 1, `said once: ${unreachable}`);
      assert.match(unreachable, new RegExp(`127\\.0\\.0\\.1:${port}`));
      await screenshots(page, `setup-edges-unreachable-${tag}`);

      // One model: the singular.
      await typeUrl(sidebar, open.url);
      await until('the one-model note', async () => /One model on this endpoint\./.test(await note(sidebar)));
      assert.doesNotMatch(await note(sidebar), /\b1 models\b/);

      // A key the server refuses: the hint under the key says so, not "Not needed for a local server".
      await typeUrl(sidebar, locked.url);
      const key = sidebar.locator('[data-role="setup-key"]');
      await key.fill('sk-bad-key-000000000000');
      await key.dispatchEvent('change');
      await until('the refused listing', async () => /The API key was refused/.test(await note(sidebar)));
      await until('the refused-key hint', async () => /refused this key/.test(await keyHint(sidebar)));
      assert.doesNotMatch(await keyHint(sidebar), /Not needed/);
      await screenshots(page, `setup-edges-refused-key-${tag}`);

      // The right key: the hint goes back, the list loads.
      await key.fill('sk-good-key-000000000000');
      await key.dispatchEvent('change');
      await until('the list with the good key', async () => /One model on this endpoint\./.test(await note(sidebar)));
      assert.doesNotMatch(await keyHint(sidebar), /refused/);
    });
  }
});

// Issue 22 item 11: the extension as the workbench installed it (from the packaged VSIX) names no
// placeholder repository; its page would link there (VS Code reads `repository`, `bugs`, `homepage`).
describe('The installed extension in the real workbench (code-server + chromium)', function () {
  this.timeout(600_000);
  let wb: Workbench | undefined;
  afterEach(async () => {
    await wb?.close();
    wb = undefined;
  });

  it('its installed manifest links to no placeholder host', async () => {
    wb = await openWorkbench({ env: CLEAN_ENV });
    const dir = wb.server.extensionsDir;
    const installed = readdirSync(dir).find((name) => name.startsWith('stepwise.stepwise-'));
    assert.ok(installed, `Stepwise is installed in ${dir}`);
    const manifest = JSON.parse(readFileSync(path.join(dir, installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    const urls = JSON.stringify([manifest.repository, manifest.bugs, manifest.homepage, manifest.qna]);
    assert.doesNotMatch(urls, /example\.invalid|\.example\b|\.test\b/, urls);
    // The workbench has it: the Extensions view lists it.
    await runCommand(wb.page, 'Extensions: Show Installed Extensions');
    await wb.page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Stepwise' }).first().waitFor({ timeout: 60_000 });
  });
});
