import assert from 'node:assert/strict';
import { EVENT_VERSION, type AgentEvent, type EventEnvelope } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { chromiumSuite, clearPosted, posted, sendHost, settle } from './harness';

// Issue 22: during retries of a rate-limited or failing model call the views said only "Running".
// Now they show which retry of how many, a live countdown, and Stop.
const RUN = 'run-retry';
const running: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: true, runId: RUN, model: 'gpt-test', history: [] } };

/** Envelopes stamped `at` (ms) apart from `start`. */
function stamped(events: AgentEvent[], start: number, seq0 = 0): EventEnvelope[] {
  return events.map((event, i) => ({ v: EVENT_VERSION, seq: seq0 + i, runId: RUN, ts: start + i, event }));
}

const opening: AgentEvent[] = [
  { type: 'run_started', task: 'Summarise the changelog', workspace: '/ws', model: 'gpt-test' },
  { type: 'state', state: 'RUNNING' },
  { type: 'turn_started', turn: 1, maxTurns: 60 },
];
const retry = (attempt: number, delayMs: number): AgentEvent => ({
  type: 'notice', level: 'warning', code: 'retry', message: `Model call failed (rate limited (429: slow down)); retry ${attempt} in ${delayMs} ms.`, retry: { attempt, of: 4, delayMs },
});

describe('webviews in Chromium: a retry shows its attempt and a countdown', function () {
  this.timeout(60_000);
  const { view, shot } = chromiumSuite();

  for (const kind of ['sidebar', 'panel'] as const) {
    it(`${kind}: "retry 2 of 4 in N s" counts down, Stop cancels, the answer clears it`, async () => {
      const page = await view({ view: kind });
      const now = await page.evaluate(() => Date.now());
      await sendHost(page, running, { type: 'reset', runId: RUN, task: 'Summarise the changelog' },
        { type: 'events', runId: RUN, envelopes: stamped([...opening, retry(1, 1_000), retry(2, 20_000)], now) });
      await settle(page);
      const banner = page.locator('[data-role="retry-banner"]');
      assert.equal(await banner.isVisible(), true);
      const first = await banner.innerText();
      assert.match(first, /retry 2 of 4 in (19|20) s/);
      await page.waitForFunction((before) => document.querySelector('[data-role="retry-text"]')?.textContent !== before, await page.locator('[data-role="retry-text"]').textContent(), { timeout: 5_000 });
      assert.match(await banner.innerText(), /retry 2 of 4 in 1[7-9] s/, 'the countdown moves');
      await shot(page, `${kind}-retry-countdown`);
      await clearPosted(page);
      await banner.locator('[data-action="retry-stop"]').click();
      assert.deepEqual(await posted(page), [{ type: 'cancel' }]);
      // The retried call answers: the wait is over.
      await sendHost(page, { type: 'events', runId: RUN, envelopes: stamped([{ type: 'text_delta', text: 'Here is the summary.' }], now + 10, 5) });
      await settle(page);
      assert.equal(await banner.isVisible(), false);
    });
  }

  it('a history replayed later shows no countdown', async () => {
    const page = await view({ view: 'sidebar' });
    await sendHost(page, running, { type: 'reset', runId: RUN, task: 'Summarise the changelog' },
      { type: 'events', runId: RUN, envelopes: stamped([...opening, retry(1, 5_000)], 1_760_000_000_000) });
    await settle(page);
    assert.equal(await page.locator('[data-role="retry-banner"]').isVisible(), false);
  });
});
