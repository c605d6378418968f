// The chat box's images and drops, prompt focus and the live region, in Chromium on the real bundle.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { AgentEvent } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { chromiumSuite, clearPosted, posted, sendHost, settle } from './harness';
import { wrap } from './scenario';

const RUN = 'run-kb';
const idle: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, model: 'gpt-4.1-mini', history: [] } };
const running: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: true, runId: RUN, model: 'gpt-4.1-mini', history: [] } };

/** Dispatches a paste (or a drop) on the input, carrying files made in the page. */
async function transfer(page: Page, kind: 'paste' | 'drop', files: Array<{ name: string; type: string; bytes: number[] | 'canvas'; size?: number }>, uriList?: string): Promise<void> {
  await page.evaluate(async ({ kind, files, uriList }) => {
    const data = new DataTransfer();
    for (const file of files) {
      let blob: Blob;
      if (file.bytes === 'canvas') {
        const canvas = document.createElement('canvas');
        canvas.width = 40;
        canvas.height = 30;
        canvas.getContext('2d')!.fillRect(0, 0, 40, 30);
        blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      } else {
        blob = new Blob([new Uint8Array(file.size ?? file.bytes.length).map((_, i) => file.bytes[i % file.bytes.length] as number)], { type: file.type });
      }
      data.items.add(new File([blob], file.name, { type: file.type }));
    }
    if (uriList) data.setData('text/uri-list', uriList);
    const input = document.querySelector('[data-role="task-input"]')!;
    const event = kind === 'paste' ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }) : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
    input.dispatchEvent(event);
  }, { kind, files, uriList });
  await settle(page);
}

describe('chat box: images, drops, focus and announcements (Chromium, real bundle)', function () {
  this.timeout(120_000);
  const { view } = chromiumSuite();

  it('attaches pasted images with a remove button, refuses other types and sizes, and sends them with the task', async () => {
    const page = await view({ view: 'sidebar' });
    await sendHost(page, idle);
    await page.click('textarea');
    await transfer(page, 'paste', [
      { name: 'shot.png', type: 'image/png', bytes: 'canvas' },
      { name: 'icon.svg', type: 'image/svg+xml', bytes: [60, 115, 118, 103] },
      { name: 'huge.png', type: 'image/png', bytes: [0x89, 0x50], size: 5 * 1024 * 1024 + 1 },
    ]);
    // Files are read asynchronously; the note comes once all of them were looked at.
    await page.waitForFunction(() => (document.querySelector('[data-role="attachment-note"]')?.textContent ?? '') !== '');
    assert.equal(await page.locator('[data-role="attachment"]').count(), 1);
    assert.equal(await page.getAttribute('[data-action="remove-image"]', 'aria-label'), 'Remove image shot.png');
    assert.match(await page.innerText('[data-role="attachment-note"]'), /icon\.svg is not a PNG, JPEG, GIF or WebP image\. huge\.png is larger than 5 MB\./);
    await page.keyboard.type('What is this?');
    await clearPosted(page);
    await page.keyboard.press('Enter');
    const [sent] = await posted(page);
    assert.equal(sent?.type, 'submitTask');
    const images = sent?.type === 'submitTask' ? sent.images ?? [] : [];
    assert.deepEqual(images.map((i) => [i.name, i.mimeType, i.data.slice(0, 12)]), [['shot.png', 'image/png', 'iVBORw0KGgoA']]);
    assert.equal(await page.locator('[data-role="attachment"]').count(), 0, 'cleared once sent');
  });

  it('the remove button takes an image off again; dropped Explorer files become mentions through the host', async () => {
    const page = await view({ view: 'sidebar' });
    await sendHost(page, idle);
    await page.click('textarea');
    await page.keyboard.type('Look at');
    await transfer(page, 'drop', [{ name: 'a.png', type: 'image/png', bytes: 'canvas' }]);
    await page.waitForSelector('[data-role="attachment"]');
    await page.click('[data-action="remove-image"]');
    await settle(page);
    assert.equal(await page.locator('[data-role="attachment"]').count(), 0);
    assert.match(await page.innerText('[data-role="attachment-note"]'), /Removed a\.png\./);
    await clearPosted(page);
    await transfer(page, 'drop', [], 'file:///ws/src/a.ts\r\n# a comment\r\nfile:///ws/docs');
    assert.deepEqual(await posted(page), [{ type: 'mentionUris', uris: ['file:///ws/src/a.ts', 'file:///ws/docs'] }]);
    await sendHost(page, { type: 'mentionPaths', paths: ['src/a.ts', 'my docs/'], refused: 1 });
    assert.equal(await page.inputValue('textarea'), 'Look at @src/a.ts @"my docs/" ');
    assert.match(await page.innerText('[data-role="attachment-note"]'), /1 dropped item\(s\) are outside the workspace/);
  });

  it('a prompt takes the focus (Enter approves, Escape rejects), the input gets it back, and the live region speaks once', async () => {
    const page = await view({ view: 'sidebar' });
    const start: AgentEvent[] = [
      { type: 'run_started', task: 'Run the tests', workspace: '/ws', model: 'gpt-4.1-mini' },
      { type: 'text_delta', text: 'Running the tests.' },
      { type: 'assistant_message', text: 'Running the tests.', toolCalls: [] },
    ];
    await sendHost(page, running, { type: 'reset', runId: RUN, task: 'Run the tests' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, start) });
    await sendHost(page, { type: 'focusInput' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-role')), 'task-input');
    // Opened runs are not read out; what arrives afterwards is.
    assert.equal(await page.innerText('[data-role="announcer"]'), '');
    const more: AgentEvent[] = [
      { type: 'tool_call', callId: 'c1', name: 'run_command', args: { command: 'npm test' }, category: 'command' },
      { type: 'approval_requested', callId: 'c1', category: 'command', title: 'Run npm test', detail: 'npm test' },
    ];
    await sendHost(page, { type: 'events', runId: RUN, envelopes: wrap(RUN, more, start.length) });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-action')), 'approve', 'Approve has the focus');
    await clearPosted(page);
    await page.keyboard.press('Escape');
    assert.deepEqual(await posted(page), [{ type: 'reject', callId: 'c1' }]);
    const answered: AgentEvent[] = [
      { type: 'approval_answered', callId: 'c1', approved: false },
      { type: 'text_delta', text: 'Understood, not running it.' },
      { type: 'assistant_message', text: 'Understood, not running it.', toolCalls: [] },
      { type: 'run_finished', outcome: 'finished', summary: 'Did not run the tests.', turns: 2 },
    ];
    await sendHost(page, { type: 'events', runId: RUN, envelopes: wrap(RUN, answered, start.length + more.length) });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-role')), 'task-input', 'the focus is back in the input');
    assert.equal(await page.innerText('[data-role="announcer"]'), 'Understood, not running it. Finished');
    assert.equal(await page.getAttribute('[data-role="announcer"]', 'aria-live'), 'polite');
  });

  it('plan review: each Delete names its step, Ctrl+Enter runs the plan from a field, steps are a labelled list', async () => {
    const page = await view({ view: 'panel' });
    const plan = { goal: 'Localise', thought: '', steps: [
      { id: 's1', title: 'Read the code', description: '', role: 'researcher' as const, status: 'pending' as const },
      { id: 's2', title: 'Translate', description: '', role: 'coder' as const, status: 'pending' as const },
    ] };
    await sendHost(page, running, { type: 'reset', runId: RUN, task: 'Localise' }, { type: 'planReview', runId: RUN, plan });
    assert.deepEqual(await page.$$eval('[data-role="review"] [data-action="delete"]', (all) => all.map((b) => b.getAttribute('aria-label'))), ['Delete step 1: Read the code', 'Delete step 2: Translate']);
    await page.fill('input.review-title[data-index="1"]', 'Translate to French');
    assert.equal(await page.getAttribute('[data-role="review"] li[data-index="1"] [data-action="delete"]', 'aria-label'), 'Delete step 2: Translate to French');
    await clearPosted(page);
    await page.press('input.review-title[data-index="1"]', 'Control+Enter');
    const [sent] = await posted(page);
    assert.equal(sent?.type, 'runPlan');
    assert.deepEqual(sent?.type === 'runPlan' ? sent.steps.map((step) => step.title) : [], ['Read the code', 'Translate to French']);
    const events: AgentEvent[] = [
      { type: 'run_started', task: 'Localise', workspace: '/ws', model: 'gpt-4.1-mini' },
      { type: 'plan_created', goal: 'Localise', thought: '', steps: plan.steps },
      { type: 'step_started', stepId: 's1' },
    ];
    await sendHost(page, { type: 'planReview', plan: null }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
    assert.equal(await page.getAttribute('[data-role="plan"] ol', 'role'), 'list');
    assert.deepEqual(await page.$$eval('[data-role="plan"] li.step', (all) => all.map((li) => [li.getAttribute('role'), li.getAttribute('aria-label'), li.getAttribute('aria-current')])), [
      ['listitem', 'Step 1 In progress: Read the code', 'step'],
      ['listitem', 'Step 2 Pending: Translate', null],
    ]);
  });
});

