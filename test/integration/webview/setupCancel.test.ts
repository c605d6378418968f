import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { chromiumSuite, sendHost, settle } from './harness';
import { wrap } from './scenario';

// Issue 22: the sidebar's conversation disappeared after "Set Up Model" → Cancel. A view hidden and
// shown again keeps what it showed.
const RUN = 'run-setup-cancel';
const status: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, runId: RUN, model: 'gpt-test', history: [] } };
const ANSWER = 'toKelvin adds 273 where it should add 273.15.';

function finishedRun(): AgentEvent[] {
  return [
    { type: 'run_started', task: 'Why is toKelvin wrong?', workspace: '/ws', model: 'gpt-test' },
    { type: 'state', state: 'RUNNING' },
    { type: 'text_delta', text: ANSWER },
    { type: 'assistant_message', text: ANSWER, toolCalls: [] },
    { type: 'run_finished', outcome: 'finished', summary: ANSWER, turns: 1 },
  ];
}

describe('webviews in Chromium: the sidebar keeps its conversation through the set-up', function () {
  this.timeout(60_000);
  const { view, shot } = chromiumSuite();

  for (const how of ['the palette (showSetup)', 'the model switcher'] as const) {
    it(`opened from ${how}, then Cancel: the conversation is shown again`, async () => {
      const page = await view({ view: 'sidebar' });
      await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Why is toKelvin wrong?' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, finishedRun()) });
      await settle(page);
      const timelineText = () => page.evaluate(() => (document.querySelector('.timeline') as HTMLElement | null)?.innerText ?? document.body.innerText);
      assert.ok((await timelineText()).includes(ANSWER), 'the answer is shown before');
      if (how === 'the palette (showSetup)') await sendHost(page, { type: 'showSetup' });
      else await page.click('[data-action="model-switch"]');
      await page.locator('[data-role="setup"]').waitFor({ state: 'visible' });
      await settle(page);
      await page.click('[data-action="setup-cancel"]');
      await settle(page);
      await settle(page);
      assert.ok((await timelineText()).includes(ANSWER), `the answer is shown after Cancel: ${await timelineText()}`);
      await shot(page, `sidebar-after-setup-cancel-${how.startsWith('the palette') ? 'palette' : 'switcher'}`);
    });
  }
});
