// Context in the chat box, in the real workbench (issue 15, acceptance 4): a file and the Problems list
// picked from the @ menu reach the model in the task; an image pasted into the chat box (a real paste event
// carrying a PNG File) shows as a thumbnail and reaches the vision model as an image_url part.
// Run: npm run package && npx mocha --config .mocharc.json --timeout 600000 test/e2e/chatBox.e2e.ts
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { shotsInThemes, THEMES } from './support/keyboard';
import { frameWith, hideBottomPanel, openSidebar, openWorkbench, panelFrame, screenshots, showTaskPanel, until, type Workbench, screenshotIfFailed } from './support/workbench';

/** The sidebar chat's frame, once it is open (clicking the activity bar again would close it). */
const chatFrame = (w: Workbench): Promise<Frame> => frameWith(w.page, '[data-role="task-input"]');

const VISION_MODEL = 'fake-vision';
const BROKEN = '{\n  "marker": "CHATBOX-MENTION-MARKER"\n  "missing": "comma"\n}\n';
const DESCRIPTION = 'Image 1 (pasted.png): a red square with the words BUILD FAILED (VISION-MARKER).';

/** The fake: the vision model describes, the coordinator answers directly, the agent finishes. */
function script(request: RecordedRequest): FakeTurn {
  if (request.body?.model === VISION_MODEL) return { text: DESCRIPTION };
  if (callerOf(request) === 'coordinator') return call('route', { mode: 'direct', reason: 'A question about attached context.' });
  return finish('Read what you attached.');
}

/** Every part of every message of a request, as the wire carried it. */
function contentParts(request: RecordedRequest): Array<{ type?: string; text?: string; image_url?: { url?: string } }> {
  return (request.body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type?: string }>) : [{ type: 'text', text: String(m.content ?? '') }]));
}

/** The user messages the working agent (not the router, not the vision model) received, joined. */
function agentTask(fake: FakeOpenAIServer, marker: string): string {
  const request = fake.chatRequests().find((r) => r.body?.model !== VISION_MODEL && callerOf(r) === 'direct' && JSON.stringify(r.body?.messages).includes(marker));
  return (request?.body?.messages ?? []).filter((m) => m.role === 'user').map((m) => String(m.content ?? '')).join('\n');
}

/** Types `@query`, waits for `label` in the @ menu and picks it with Enter. */
async function mention(sidebar: Frame, query: string, label: RegExp): Promise<void> {
  const input = sidebar.locator('[data-role="task-input"]');
  await input.pressSequentially(`@${query}`, { delay: 20 });
  await until(`"${label.source}" in the @ menu`, async () => {
    const active = await sidebar.locator('[data-role="mention-menu"] .mention-item.active').textContent().catch(() => null);
    return active !== null && label.test(active);
  });
  await input.press('Enter');
}

describe('Context in the chat box: @-mentions and a pasted image (real workbench)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(script);
    wb = await openWorkbench({
      settings: {
        'stepwise.baseUrl': fake.url,
        'stepwise.models.vision': VISION_MODEL,
        'stepwise.approvals.autoApprove': ['read'],
        'stepwise.verify.mode': 'off',
      },
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
      // The theme screenshots switch themes in .vscode/settings.json: the folder exists from the start.
      files: { 'broken.json': BROKEN, '.vscode/settings.json': '{}' },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-chatbox')) ?? failed;
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('puts a mentioned file and the Problems list (a real JSON syntax error) into the request', async () => {
    const w = wb!;
    // Open the broken file so the JSON language service reports it, and wait for its error.
    await w.page.keyboard.press('Control+P');
    await w.page.keyboard.type('broken.json');
    await w.page.locator('.quick-input-list .monaco-list-row[aria-label*="broken.json"]').first().waitFor({ timeout: 20_000 });
    await w.page.keyboard.press('Enter');
    await w.page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 60_000 });

    const sidebar = await openSidebar(w.page);
    await sidebar.locator('[data-role="task-input"]').click();
    await sidebar.locator('[data-role="task-input"]').pressSequentially('Why is ', { delay: 10 });
    await mention(sidebar, 'broken', /broken\.json/);
    await sidebar.locator('[data-role="task-input"]').pressSequentially('invalid? See ', { delay: 10 });
    await mention(sidebar, 'probl', /problems/i);
    assert.match(await sidebar.locator('[data-role="task-input"]').inputValue(), /^Why is @broken\.json invalid\? See @problems $/);
    await sidebar.locator('[data-role="task-input"]').press('Enter');
    await showTaskPanel(w.page, sidebar);

    await until('the agent request with the attached context', () => agentTask(fake, 'CHATBOX-MENTION-MARKER') !== '');
    const sent = agentTask(fake, 'CHATBOX-MENTION-MARKER');
    assert.match(sent, /^Why is @broken\.json invalid\? See @problems/, "the user's words come first");
    assert.match(sent, /@broken\.json — broken\.json\n```\n\{\n {2}"marker": "CHATBOX-MENTION-MARKER"/, 'the file content');
    assert.match(sent, /@problems — Problems \(\d+\)\n```\n(.*\n)*?broken\.json:\d+:\d+: error/, 'the Problems list with the JSON error');
    await until('the finished outcome', async () => (await (await panelFrame(w.page)).$('.outcome-finished')) !== null);
  });

  it('shows a pasted PNG as a thumbnail and sends it to the vision model as an image_url part', async () => {
    const w = wb!;
    const sidebar = await chatFrame(w);
    const newTask = sidebar.locator('[data-action="new-task"]');
    if (await newTask.isVisible()) await newTask.click();
    const input = sidebar.locator('[data-role="task-input"]');
    await input.click();
    // A real paste: a ClipboardEvent whose DataTransfer carries a PNG File drawn on a canvas.
    await sidebar.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 96;
      canvas.height = 64;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#d33';
      g.fillRect(0, 0, 96, 64);
      g.fillStyle = '#fff';
      g.font = 'bold 14px sans-serif';
      g.fillText('BUILD', 8, 28);
      g.fillText('FAILED', 8, 48);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      const data = new DataTransfer();
      data.items.add(new File([blob], 'pasted.png', { type: 'image/png' }));
      document.querySelector('[data-role="task-input"]')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await sidebar.locator('[data-role="attachment"] img.attachment-thumb').waitFor({ timeout: 10_000 });
    assert.equal(await sidebar.locator('[data-role="attachment"] [data-action="remove-image"]').getAttribute('aria-label'), 'Remove image pasted.png');
    await input.pressSequentially('What does this screenshot say?', { delay: 10 });
    await hideBottomPanel(w.page);
    const shots = await shotsInThemes(w, 'chatbox-attachment', [THEMES[1], THEMES[0], THEMES[2]]);
    for (const file of shots) assert.ok(existsSync(file), `${file} saved`);
    await (await chatFrame(w)).locator('[data-role="task-input"]').press('Enter');
    await showTaskPanel(w.page, await chatFrame(w));

    const vision = await until('the vision model request', () => fake.chatRequests().find((r) => r.body?.model === VISION_MODEL));
    const image = contentParts(vision).find((part) => part.type === 'image_url');
    assert.ok(image, 'the vision request carries an image_url part');
    assert.match(image.image_url?.url ?? '', /^data:image\/png;base64,iVBORw0KGgo/, 'the pasted PNG as a data URL');
    assert.ok(contentParts(vision).some((part) => part.type === 'text' && /What does this screenshot say\?/.test(part.text ?? '')), 'with the task beside it');

    await until('the agent request with the description', () => agentTask(fake, 'VISION-MARKER') !== '');
    assert.match(agentTask(fake, 'VISION-MARKER'), /^What does this screenshot say\?\n\n<attached-context>\n<attached-images>\nThe user attached 1 image\(s\); fake-vision/);
    const nonVision = fake.chatRequests().filter((r) => r.body?.model !== VISION_MODEL);
    assert.ok(nonVision.every((r) => !contentParts(r).some((p) => p.type === 'image_url')), 'no image goes to the text-only model');
    assert.equal(await (await chatFrame(w)).locator('[data-role="attachment"]').count(), 0, 'the attachments are cleared once sent');
    // The task card shows the image (saved with the run) and what the vision model saw.
    await until('the finished outcome', async () => (await (await panelFrame(w.page)).$('.outcome-finished')) !== null);
    const card = (await panelFrame(w.page)).locator('.card.task').last();
    await until('the thumbnail in the task card', async () => card.locator('img.attachment-thumb').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 96).catch(() => false));
    assert.match(await card.innerText(), /What fake-vision saw in the images/);
    const saved = readdirSync(path.join(w.workspace, '.stepwise', 'images')).flatMap((run) => readdirSync(path.join(w.workspace, '.stepwise', 'images', run)));
    assert.deepEqual(saved, ['task-1-pasted.png'], 'the image is stored with the run');

    // Reopened from the history, the run shows the image again.
    const sidebar2 = await chatFrame(w);
    await sidebar2.locator('[data-action="new-task"]').click();
    await sidebar2.locator('.history-item', { hasText: 'What does this screenshot say?' }).click();
    await until('the replayed thumbnail', async () => {
      const replayed = (await panelFrame(w.page)).locator('.card.task img.attachment-thumb');
      return replayed.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 96).catch(() => false);
    });
    await screenshots(w.page, 'chatbox-replayed-images');
  });
});
