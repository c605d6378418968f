// Prompt files as slash commands in the real workbench (issue 26, acceptance 4, the VS Code half): typing `/`
// at the start of the chat box lists the workspace's prompt files; picking one and adding arguments runs the
// file's text with those arguments.
// Run: npm run package && npx mocha --config .mocharc.json --timeout 600000 test/e2e/slashCommands.e2e.ts
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { openSidebar, openWorkbench, panelFrame, screenshots, showTaskPanel, until, type Workbench, screenshotIfFailed } from './support/workbench';

function script(request: RecordedRequest): FakeTurn {
  if (callerOf(request) === 'coordinator') return call('route', { mode: 'direct', reason: 'A small change.' });
  return finish('Added the entry.');
}

/** The user messages of the working agent's first request that carries `marker`. */
function agentTask(fake: FakeOpenAIServer, marker: string): string {
  const request = fake.chatRequests().find((r) => callerOf(r) === 'direct' && JSON.stringify(r.body?.messages).includes(marker));
  return (request?.body?.messages ?? []).filter((m) => m.role === 'user').map((m) => String(m.content ?? '')).join('\n');
}

/** The active row of the chat box's suggestion list, or null when it is closed. */
function activeSuggestion(sidebar: Frame): Promise<string | null> {
  return sidebar.locator('[data-role="mention-menu"] .mention-item.active').textContent().catch(() => null);
}

describe('Prompt files as /commands in the chat box (real workbench)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(script);
    wb = await openWorkbench({
      settings: { 'stepwise.baseUrl': fake.url, 'stepwise.approvals.autoApprove': ['read'], 'stepwise.verify.mode': 'off' },
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
      files: {
        '.stepwise/prompts/changelog.md': '---\ndescription: Add a changelog entry\nargument-hint: VERSION\n---\nAdd a CHANGELOG entry for version $ARGUMENTS. E2E-PROMPT-MARKER\n',
        '.github/prompts/explain.prompt.md': '---\ndescription: Explain a part\n---\nExplain ${input:topic}.\n',
      },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-slash')) ?? failed;
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('/ lists the prompt files; picking /changelog and adding 2.1.0 runs the file with the argument', async () => {
    const w = wb!;
    const sidebar = await openSidebar(w.page);
    const input = sidebar.locator('[data-role="task-input"]');
    await input.click();
    await input.pressSequentially('/', { delay: 20 });
    await until('both prompt files in the / list', async () => (await sidebar.locator('[data-role="mention-menu"] .mention-item').count()) === 2);
    const rows = await sidebar.locator('[data-role="mention-menu"] .mention-item').allTextContents();
    assert.deepEqual(rows.sort(), ['/changelog VERSION — Add a changelog entry', '/explain — Explain a part']);
    await input.pressSequentially('chan', { delay: 20 });
    await until('/changelog active in the list', async () => /\/changelog VERSION/.test((await activeSuggestion(sidebar)) ?? ''));
    await screenshots(w.page, 'slash-command-list');
    await input.press('Enter');
    assert.equal(await input.inputValue(), '/changelog ');
    await input.pressSequentially('2.1.0', { delay: 10 });
    await input.press('Enter');
    await showTaskPanel(w.page, sidebar);
    await until('the agent request with the prompt file text', () => agentTask(fake, 'E2E-PROMPT-MARKER') !== '');
    assert.match(agentTask(fake, 'E2E-PROMPT-MARKER'), /Add a CHANGELOG entry for version 2\.1\.0\. E2E-PROMPT-MARKER/);
    await until('the finished outcome', async () => (await (await panelFrame(w.page)).$('.outcome-finished')) !== null);
  });
});
