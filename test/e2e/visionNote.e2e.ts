// A picture pasted while no configured model reads images (issue 22, item 10), in the real workbench: the chat
// box says so at once, before anything is sent, in plain words with a button to the model set-up; Send is not
// offered with the picture (Enter sends nothing); the button opens the set-up form; "Send without the picture"
// sends the words alone.
// Run: npm run package && npx mocha --config .mocharc.json --timeout 600000 test/e2e/visionNote.e2e.ts
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { call, callerOf, finish } from '../integration/flow/flowFake';
import { closeAndRemove } from './support/cleanup';
import { shotsInThemes, THEMES } from './support/keyboard';
import { frameWith, hideBottomPanel, openSidebar, openWorkbench, screenshots, until, type Workbench, screenshotIfFailed } from './support/workbench';

const WORDS = 'What does this screenshot say?';

/** The fake: the coordinator answers directly, the agent finishes. */
function script(request: RecordedRequest): FakeTurn {
  if (callerOf(request) === 'coordinator') return call('route', { mode: 'direct', reason: 'A question.' });
  return finish('There was no picture to read.');
}

/** Pastes a PNG drawn on a canvas into the chat box with a real ClipboardEvent. */
async function pastePng(sidebar: Frame): Promise<void> {
  await sidebar.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 96;
    canvas.height = 64;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#d33';
    g.fillRect(0, 0, 96, 64);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], 'pasted.png', { type: 'image/png' }));
    document.querySelector('[data-role="task-input"]')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
}

/** Requests that carry the user's words (the task reached a model). */
const taskRequests = (fake: FakeOpenAIServer) => fake.chatRequests().filter((r) => JSON.stringify(r.body?.messages ?? []).includes(WORDS));

describe('A picture pasted with no vision model (real workbench)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench | undefined;
  let failed: string | undefined;

  before(async () => {
    fake = await startFakeOpenAI(script);
    wb = await openWorkbench({
      // No stepwise.models.vision, stepwise.models.visionCapable off: nothing reads images.
      settings: { 'stepwise.baseUrl': fake.url, 'stepwise.verify.mode': 'off' },
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
      files: { '.vscode/settings.json': '{}' },
    });
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-vision-note')) ?? failed;
  });

  after(async () => {
    await closeAndRemove(wb, failed);
    await fake?.close();
  });

  it('says so before sending, offers the set-up, and sends the words alone when asked', async () => {
    const w = wb!;
    const sidebar = await openSidebar(w.page);
    const input = sidebar.locator('[data-role="task-input"]');
    await input.click();
    await input.pressSequentially(WORDS, { delay: 10 });
    await pastePng(sidebar);
    await sidebar.locator('[data-role="attachment"] img.attachment-thumb').waitFor({ timeout: 10_000 });

    // The note is there at once, before any sending, in plain words (no setting names), with its buttons.
    const note = sidebar.locator('[data-role="vision-note"]');
    await note.waitFor({ state: 'visible', timeout: 10_000 });
    const words = await note.innerText();
    assert.match(words, /None of the models set up here can look at pictures/);
    assert.doesNotMatch(words, /stepwise\.|models\.vision|visionCapable/, 'no setting names');
    assert.equal(await note.locator('[data-action="open-setup-vision"]').innerText(), 'Open model set-up');
    assert.equal(await note.locator('[data-action="send-without-images"]').innerText(), 'Send without the picture');
    // Send with the picture is not offered: the button is disabled and Enter sends nothing.
    assert.equal(await sidebar.locator('.composer [data-action="send"]').isDisabled(), true, 'Send is disabled');
    await input.press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(taskRequests(fake).length, 0, 'Enter sent nothing');
    assert.equal(await input.inputValue(), WORDS, 'the words stay in the box');

    await hideBottomPanel(w.page);
    const shots = await shotsInThemes(w, 'vision-note', [THEMES[1], THEMES[0]]);
    for (const file of shots) assert.ok(existsSync(file), `${file} saved`);

    // The button opens the model set-up form.
    const chat = await frameWith(w.page, '[data-role="vision-note"]');
    await chat.locator('[data-action="open-setup-vision"]').click();
    await chat.locator('[data-role="setup"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(await chat.locator('[data-role="setup-provider"]').isVisible(), 'the set-up form is shown');
    await screenshots(w.page, 'vision-note-setup');
    assert.equal(taskRequests(fake).length, 0, 'still nothing sent');
  });

  it('removing the picture offers Send again; "Send without the picture" sends the words alone', async () => {
    const w = wb!;
    const sidebar = await frameWith(w.page, '[data-role="task-input"]');
    // Leave the set-up (Cancel) and go back to the chat box, where the picture and the words still wait.
    const cancel = sidebar.locator('[data-role="setup"] [data-action="setup-cancel"]');
    if (await cancel.isVisible().catch(() => false)) await cancel.click();
    const note = sidebar.locator('[data-role="vision-note"]');
    await note.waitFor({ state: 'visible', timeout: 30_000 });
    // Removing the picture takes the note away and offers Send again; a new paste brings the note back.
    await sidebar.locator('[data-role="attachment"] [data-action="remove-image"]').click();
    await note.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.equal(await sidebar.locator('.composer [data-action="send"]').isDisabled(), false, 'Send is offered without the picture');
    await pastePng(sidebar);
    await note.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await sidebar.locator('.composer [data-action="send"]').isDisabled(), true);
    assert.equal(taskRequests(fake).length, 0, 'still nothing sent');
    await note.locator('[data-action="send-without-images"]').click();
    const sent = await until('the task request', () => taskRequests(fake)[0]);
    assert.ok(!JSON.stringify(sent.body?.messages).includes('image_url'), 'no picture in the request');
    assert.equal(await sidebar.locator('[data-role="attachment"]').count(), 0, 'the picture is dropped');
    assert.equal(await note.isVisible(), false, 'the note is gone');
  });
});
