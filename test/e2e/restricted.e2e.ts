// Restricted Mode: the user does not trust the folder. Stepwise still works, read-only, and says so.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../support/fakeOpenAIServer';
import { openSidebar, openWorkbench, screenshots, until, type Workbench } from './support/workbench';

const READ_ONLY_TOOLS = ['ask_user', 'finish', 'list_files', 'read_file', 'read_output', 'search_files'];

describe('Stepwise in Restricted Mode (untrusted folder)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench;
  let sidebar: Frame;

  before(async () => {
    const turns: FakeTurn[] = [
      { toolCalls: [{ name: 'list_files', arguments: JSON.stringify({ path: '.' }) }] },
      { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'Looked around without changing anything.' }) }] },
    ];
    fake = await startFakeOpenAI(turns);
    wb = await openWorkbench({
      workspaceTrust: true,
      settings: { 'stepwise.baseUrl': fake.url, 'stepwise.plan.mode': 'never', 'security.workspace.trust.startupPrompt': 'always' },
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
    });
    // VS Code asks whether to trust the folder: say no.
    const distrust = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /don.t trust/i }).first();
    await distrust.waitFor({ timeout: 60_000 });
    await distrust.click();
    await until('Restricted Mode', async () => (await wb.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).count()) > 0);
    sidebar = await openSidebar(wb.page);
  });

  after(async () => {
    await wb?.close();
    await fake?.close();
  });

  it('offers the model only read-only tools and tells the user why', async () => {
    await until('the restricted banner', async () => (await sidebar.evaluate(() => document.body.innerText)).match(/restricted|read-only/i));
    await sidebar.selectOption('[data-role="plan-mode"]', 'never');
    const input = sidebar.locator('[data-role="task-input"]');
    await input.fill('Look at the project');
    await input.press('Enter');
    // A direct answer stays in the sidebar (the panel opens for planned tasks).
    await until('the finished outcome', async () => (await sidebar.$('.outcome-finished')) !== null);
    const offered = (fake.chatRequests()[0]?.body?.tools ?? []).map((t) => t.function.name).sort();
    assert.deepEqual(offered, READ_ONLY_TOOLS);
    await screenshots(wb.page, 'restricted');
  });
});
