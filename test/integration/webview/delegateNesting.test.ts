import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { AgentEvent } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { ARTIFACTS, chromiumSuite, sendHost, settle } from './harness';
import { wrap } from './scenario';

// Issue 26: a direct run's `delegate` sub-run shows nested under the call that started it (real bundle, Chromium).

const RUN = 'run-delegate';
const status: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, runId: RUN, model: 'gpt-4.1-mini', history: [] } };
const events: AgentEvent[] = [
  { type: 'run_started', task: 'Review the README', workspace: '/ws', model: 'gpt-4.1-mini' },
  { type: 'assistant_message', text: 'Asking the reviewer.', toolCalls: [{ id: 'd1', name: 'delegate', arguments: '{}' }] },
  { type: 'tool_call', callId: 'd1', name: 'delegate', args: { role: 'reviewer', task: 'Check README.md for typos' } },
  { type: 'delegate_started', callId: 'd1', role: 'reviewer', task: 'Check README.md for typos' },
  { type: 'text_delta', text: 'Reading the README.' },
  { type: 'assistant_message', text: 'Reading the README.', toolCalls: [{ id: 'r1', name: 'read_file', arguments: '{"path":"README.md"}' }] },
  { type: 'tool_call', callId: 'r1', name: 'read_file', args: { path: 'README.md' }, category: 'read' },
  { type: 'tool_result', callId: 'r1', name: 'read_file', isError: false, content: '# demo', durationMs: 3 },
  { type: 'delegate_finished', callId: 'd1', role: 'reviewer', outcome: 'finished', summary: 'No typos.' },
  { type: 'tool_result', callId: 'd1', name: 'delegate', isError: false, content: 'reviewer finished: No typos.', durationMs: 900 },
  { type: 'text_delta', text: 'The README is fine.' },
  { type: 'assistant_message', text: 'The README is fine.', toolCalls: [] },
];

describe('webviews in Chromium: a delegated sub-run', function () {
  this.timeout(60_000);
  const { view } = chromiumSuite();

  for (const kind of ['panel', 'sidebar'] as const) {
    it(`${kind}: the sub-run's text and tool calls are indented under the delegate call; the run's own rows are not`, async () => {
      const page = await view({ view: kind, theme: 'dark' });
      await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Review the README' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
      await settle(page);
      const rows = await page.$$eval('[data-role="timeline"] .card, [data-role="timeline"] details, [data-role="timeline"] .tool', (els) =>
        els.filter((el) => /Asking the reviewer|Reading the README|The README is fine|delegate|read_file/.test(el.textContent ?? '') && !el.parentElement?.closest('.nested, .card, details'))
          .map((el) => ({ text: (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 30), nested: el.closest('.nested')?.getAttribute('data-nested-in') ?? null, left: el.getBoundingClientRect().left })));
      const nestedTexts = rows.filter((r) => r.nested === 'd1').map((r) => r.text).join(' | ');
      const outerTexts = rows.filter((r) => r.nested === null).map((r) => r.text).join(' | ');
      assert.match(nestedTexts, /Reading the README/);
      assert.match(nestedTexts, /read_file|README\.md/);
      assert.match(outerTexts, /Asking the reviewer/);
      assert.match(outerTexts, /The README is fine/);
      assert.doesNotMatch(nestedTexts, /Asking the reviewer|The README is fine/);
      const outerLeft = Math.min(...rows.filter((r) => r.nested === null).map((r) => r.left));
      const nestedLeft = Math.min(...rows.filter((r) => r.nested === 'd1').map((r) => r.left));
      assert.ok(nestedLeft > outerLeft, `nested rows are indented (${nestedLeft} > ${outerLeft})`);
      await page.screenshot({ path: join(ARTIFACTS, `delegate-nested-${kind}.png`) });
    });
  }
});
