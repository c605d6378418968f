// Typing while a task runs, in Chromium on the real bundle: the message is posted for the running
// task, listed as queued above the input, and once the core's `user_message` event arrives the
// timeline shows it where it was delivered and the queued line goes.
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { chromiumSuite, clearPosted, posted, sendHost, settle } from './harness';
import { wrap } from './scenario';

const RUN = 'run-steer';
const status = (running: boolean): HostMessage => ({ type: 'status', status: { configured: true, trusted: true, running, ...(running ? { runId: RUN } : {}), model: 'gpt-4.1-mini', history: [] } });
let seq = 0;
const events = (list: AgentEvent[]): HostMessage => {
  const envelopes = wrap(RUN, list, seq);
  seq += list.length;
  return { type: 'events', runId: RUN, envelopes };
};

describe('chat box while a task runs (Chromium, real bundle)', function () {
  this.timeout(120_000);
  const { view } = chromiumSuite();

  for (const lang of ['en', 'zh-cn'] as const) {
    it(`(${lang}) Send stays beside Stop; a message is queued, then shown where it was delivered`, async () => {
      seq = 0;
      const page = await view({ view: 'sidebar', lang });
      await sendHost(page, status(true), { type: 'reset', runId: RUN, task: 'Fix the typo' }, events([
        { type: 'run_started', task: 'Fix the typo', workspace: '/w', model: 'm' },
        { type: 'state', state: 'RUNNING' },
        { type: 'turn_started', turn: 1, maxTurns: 30 },
        { type: 'tool_call', callId: 'c1', name: 'run_command', args: { command: 'npm test' }, category: 'command' },
      ]));
      assert.ok(await page.isVisible('[data-action="stop"]'));
      assert.ok(await page.isVisible('[data-action="send"]'));
      assert.match(await page.getAttribute('[data-role="task-input"]', 'placeholder') ?? '', lang === 'en' ? /delivered at its next turn/ : /下一轮送达/);

      await clearPosted(page);
      await page.click('[data-role="task-input"]');
      await page.keyboard.type('also update the changelog');
      await page.keyboard.press('Enter');
      assert.deepEqual(await posted(page), [{ type: 'sendMessage', text: 'also update the changelog' }]);
      assert.equal(await page.inputValue('[data-role="task-input"]'), '');
      assert.ok(await page.isVisible('[data-role="queued-message"]'));
      assert.match(await page.innerText('[data-role="queued-message"]'), /also update the changelog/);
      assert.equal(await page.locator('.card.message').count(), 0, 'not on the timeline before the core delivered it');

      // The core delivers it at the next turn boundary.
      await sendHost(page, events([
        { type: 'tool_result', callId: 'c1', name: 'run_command', isError: false, content: 'ok', durationMs: 5 },
        { type: 'turn_started', turn: 2, maxTurns: 30 },
        { type: 'user_message', text: 'also update the changelog', delivered: 'turn' },
      ]));
      await settle(page);
      assert.equal(await page.locator('[data-role="queued-message"]').count(), 0, 'the queued line went');
      const card = page.locator('.card.message');
      assert.equal(await card.count(), 1);
      assert.match(await card.innerText(), lang === 'en' ? /You, while it ran \(delivered here\)[\s\S]*also update the changelog/i : /运行中发送[\s\S]*also update the changelog/);
      // It sits after the turn that received it.
      const order = await page.$$eval('.timeline .divider.turn, .timeline .card.message', (rows) => rows.map((r) => (r.classList.contains('message') ? 'message' : r.textContent?.trim() ?? '')));
      assert.equal(order[order.length - 1], 'message');
    });
  }

  it('a message to a planned task says it went to the plan updater; the queue empties when the run ends', async () => {
    seq = 0;
    const page = await view({ view: 'sidebar' });
    await sendHost(page, status(true), { type: 'reset', runId: RUN, task: 'T' }, events([{ type: 'run_started', task: 'T', workspace: '/w', model: 'm' }]));
    await page.click('[data-role="task-input"]');
    await page.keyboard.type('skip the docs');
    await page.keyboard.press('Enter');
    await page.keyboard.type('never delivered');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('[data-role="queued-message"]').count(), 2);
    await sendHost(page, events([{ type: 'user_message', text: 'skip the docs', delivered: 'plan' }]));
    await settle(page);
    assert.equal(await page.locator('[data-role="queued-message"]').count(), 1);
    assert.match(await page.innerText('.card.message'), /sent to the plan updater/i);
    await sendHost(page, status(false));
    await settle(page);
    assert.equal(await page.locator('[data-role="queued-message"]').count(), 0);
  });
});
