import assert from 'node:assert/strict';
import { endRunWithInternalError } from '../../../src/agent/events/runEnding';
import { runTask } from '../../../src/agent/flow/runTask';
import type { AgentEvent, EventEnvelope } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { finish, flowModel, harness } from '../../unit/flow/flowHarness';
import { chromiumSuite, sendHost, settle } from './harness';
import { wrap } from './scenario';
import { ErrorCode } from '../../../src/shared/errorKinds';
import { createTranslator, errorWords, nextAction } from '../../../webview-ui/src/strings';

const status: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, model: 'm', history: [] } };

// The bug this guards: when the coordinator's model threw an unexpected error, the core emitted
// run_finished and rethrew, and the host emitted error + run_finished again: two outcome cards.
// Now the core ends the run once (outcome `internal`) and a second ending is dropped.
describe('webviews in Chromium: one outcome card for an internal error', function () {
  this.timeout(60_000);
  const { view, shot } = chromiumSuite();

  it('shows exactly one "internal" outcome card for the events the core and the host emit', async () => {
    const model = flowModel({ coordinator: [new TypeError('coordinator adapter bug')], direct: [finish('never reached')] });
    const h = harness(model, { task: 'Tidy the repository', planMode: 'auto' });
    const envelopes: EventEnvelope[] = [];
    h.options.events.subscribe((envelope) => envelopes.push(envelope));
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'internal');
    // What the host's launcher does for an error it catches: nothing more once the core has ended the run.
    endRunWithInternalError(h.options.events, new Error('caught by the host'));
    assert.equal(envelopes.filter((e) => e.event.type === 'run_finished').length, 1);

    const page = await view({ view: 'panel' });
    await sendHost(page, status, { type: 'reset', runId: 'run-1', task: 'Tidy the repository' }, { type: 'events', runId: 'run-1', envelopes });
    await settle(page);
    assert.equal(await page.locator('.card.outcome').count(), 1);
    assert.equal(await page.locator('.card.outcome.outcome-internal').count(), 1);
    assert.match((await page.locator('.card.outcome').textContent()) ?? '', /internal error/i);
    await shot(page, 'panel-internal-error-light');
  });
});

describe('webviews in Chromium: the outcome card says what the events say', function () {
  this.timeout(60_000);
  const { view, shot } = chromiumSuite();
  const RUN = 'run-2';
  const runStatus: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, runId: RUN, model: 'm', history: [] } };

  it('a refused key is said in plain words, with no classification code', async () => {
    const page = await view({ view: 'panel' });
    const reason = 'The model endpoint http://127.0.0.1:9/v1 refused the request (401: Incorrect API key provided). Check your API key and base URL.';
    const events: AgentEvent[] = [
      { type: 'run_started', task: 'Explain the build', workspace: '/ws', model: 'm' },
      { type: 'error', code: 'auth', message: reason },
      { type: 'run_finished', outcome: 'failed', reason, turns: 1 },
    ];
    await sendHost(page, runStatus, { type: 'reset', runId: RUN, task: 'Explain the build' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
    await settle(page);
    const card = page.locator('.card.outcome');
    assert.equal(await card.locator('code').count(), 0, 'no code element on the card');
    const text = (await card.textContent()) ?? '';
    assert.doesNotMatch(text, /\bauth\b/, 'the classification code is not shown');
    assert.match(text, /The API key was refused\./);
    assert.match(text, /Incorrect API key provided/);
    await shot(page, 'panel-auth-failure-plain-words');
  });

  it("offers to undo the task's edits until an undo note says they were undone", async () => {
    const page = await view({ view: 'panel' });
    const events: AgentEvent[] = [
      { type: 'run_started', task: 'Raise the retry count', workspace: '/ws', model: 'm' },
      { type: 'tool_call', callId: 'e1', name: 'edit_file', category: 'edit', args: { path: 'src/config.ts', edits: [{ search: 'retries = 3', replace: 'retries = 5' }] } },
      { type: 'tool_result', callId: 'e1', name: 'edit_file', isError: false, content: 'Edited src/config.ts', durationMs: 3 },
      { type: 'run_finished', outcome: 'finished', summary: 'Raised the retry count to 5.', turns: 1 },
    ];
    await sendHost(page, runStatus, { type: 'reset', runId: RUN, task: 'Raise the retry count' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
    await settle(page);
    assert.equal(await page.locator('.card.outcome [data-action="undo"]').count(), 1, 'the edit can be undone');
    const note: AgentEvent = { type: 'notice', level: 'info', code: 'edits_undone', message: 'Undone: src/config.ts' };
    await sendHost(page, { type: 'events', runId: RUN, envelopes: wrap(RUN, [note], events.length) });
    await settle(page);
    assert.match((await page.locator('.notice').last().textContent()) ?? '', /Undone: src\/config\.ts/);
    assert.equal(await page.locator('.card.outcome [data-action="undo"]').count(), 0, 'nothing is left to undo');
    await shot(page, 'panel-edits-undone');
  });
});

describe('webviews in Chromium: every error code ends in plain words and a next action', function () {
  this.timeout(120_000);
  const { view, shot } = chromiumSuite();
  const RUN = 'run-codes';
  const runStatus: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, runId: RUN, model: 'm', history: [] } };

  for (const lang of ['en', 'zh-cn']) {
    it(`${lang}: each code's card shows its words and next action, never the code`, async () => {
      const t = createTranslator(lang);
      const page = await view({ view: 'panel', lang });
      for (const code of ErrorCode.options) {
        const reason = `The request failed (${code === 'internal' ? 'TypeError: x is undefined' : 'HTTP 4xx'}).`;
        const events: AgentEvent[] = [
          { type: 'run_started', task: 'Explain the build', workspace: '/ws', model: 'm' },
          { type: 'error', code, message: reason },
          { type: 'run_finished', outcome: code === 'internal' ? 'internal' : 'failed', reason, turns: 1 },
        ];
        await sendHost(page, runStatus, { type: 'reset', runId: RUN, task: 'Explain the build' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
        await settle(page);
        const card = page.locator('.card.outcome');
        assert.equal(await card.count(), 1, code);
        const text = (await card.textContent()) ?? '';
        assert.ok(text.includes(errorWords(t, code)!), `${code}: words in ${text}`);
        assert.ok(text.includes(nextAction(t, 'failed', code)!), `${code}: next action in ${text}`);
        assert.equal(await card.locator('[data-role="next-action"]').count(), 1, code);
        if (code.includes('_')) assert.ok(!text.includes(code), `${code} not shown raw: ${text}`);
        assert.ok(await card.locator('[data-action="retry-task"]').count() === 1, `${code}: a retry button`);
        if (code === 'auth') assert.equal(await card.locator('[data-action="set-api-key"]').count(), 1);
        // An endpoint, key or model problem opens the set-up form, never the raw settings list.
        const setup = ['auth', 'bad_request', 'unavailable', 'server_error', 'context_length'].includes(code);
        assert.equal(await card.locator('[data-action="open-setup"]').count(), setup ? 1 : 0, `${code}: open the set-up`);
        assert.equal(await card.locator('[data-action="open-settings"]').count(), 0, `${code}: no raw settings`);
        if (code === 'context_length') await shot(page, `panel-outcome-context-length-${lang}`);
      }
    });
  }
});
