import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ViewHub } from '../../../src/host/common/views/viewHub';
import type { AgentEvent } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { budgetedRun } from '../../unit/webview/envelopes';
import { bindToHub, chromiumSuite, sendHost, settle, type Theme } from './harness';
import { wrap } from './scenario';

// Per-step token budgets as the user sees them: the estimate beside a step's title before it runs,
// "spent / budget" with a bar once it runs, "running low" near the limit, and plain words when
// the budget stopped it; in the panel's plan, the sidebar's plan strip and both timelines.

const RUN = 'run-budget';
const status: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: true, runId: RUN, model: 'm', history: [] } };

/** The budgeted run, with the split's first new step running low. */
function runningLow(): AgentEvent[] {
  return [...budgetedRun(), { type: 'step_started', stepId: '4' }, { type: 'step_usage', stepId: '4', spent: 0, budget: 40_000, level: 'ok' }, { type: 'step_usage', stepId: '4', spent: 34_000, budget: 40_000, level: 'low' }];
}

interface Row {
  id: string | null;
  estimate?: string;
  text?: string;
  note?: string;
  level?: string | null;
  label?: string | null;
  role?: string | null;
}

/** What the plan column shows of each step's budget. */
function planRows(page: Page): Promise<Row[]> {
  return page.$$eval('.plan .step', (rows) => rows.map((row) => {
    const budget = row.querySelector('[data-role="step-budget"]');
    const estimate = row.querySelector('[data-role="step-estimate"]');
    return {
      id: row.getAttribute('data-step-id'),
      ...(estimate ? { estimate: estimate.textContent ?? '' } : {}),
      ...(budget ? {
        text: budget.querySelector('.budget-text')?.textContent ?? '', note: budget.querySelector('.budget-note')?.textContent ?? '',
        level: budget.getAttribute('data-level'), label: budget.getAttribute('aria-label'), role: budget.getAttribute('role'),
      } : {}),
    };
  }));
}

describe('webviews in Chromium: per-step token budgets', function () {
  this.timeout(60_000);
  const { view, shot } = chromiumSuite();

  for (const theme of ['light', 'dark', 'hc-light'] as Theme[]) {
    it(`panel (${theme}): spent / budget per step, running low, stopped by its budget, nothing for a step without one`, async () => {
      const page = await view({ view: 'panel', theme, width: 1000, height: 560 });
      await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Survey and fix' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, runningLow()) });
      await settle(page);
      const rows = await planRows(page);
      assert.deepEqual(rows.map((r) => [r.id, r.estimate, r.text, r.note, r.level]), [
        ['1', undefined, '33k / 40k', '', 'ok'],
        ['2', undefined, '15k / 12k', 'Stopped: token budget used up', 'reached'],
        ['4', undefined, '34k / 40k', 'Running low', 'low'],
        ['3', undefined, undefined, undefined, undefined],
      ]);
      assert.equal(rows[1]!.label, 'Used 15k of its 12k-token budget. Stopped: token budget used up');
      assert.equal(rows[2]!.label, 'Used 34k of its 40k-token budget. Running low on its token budget; the agent was asked to wrap up');
      assert.equal(rows[0]!.label, 'Used 33k of its 40k-token budget', 'a finished step is no longer "running low"');
      assert.equal(rows[0]!.role, 'meter');
      const itemLabel = await page.getAttribute('.plan .step[data-step-id="2"]', 'aria-label');
      assert.match(itemLabel ?? '', /Stopped: token budget used up$/, 'the row\'s own label says it too');
      // The raw reason string is not what the plan row says.
      assert.doesNotMatch((await page.textContent('.plan')) ?? '', /step budget reached/);
      // Nor the timeline's section of that step: the core's note (and the agent's last words) is folded under Details.
      const section = await page.$eval('.step-block:has(.step-header[data-step-id="2"])', (e) => (e as HTMLElement).innerText);
      assert.match(section, /Stopped: token budget used up/);
      assert.doesNotMatch(section, /step budget reached/);
      await page.click('.step-block:has(.step-header[data-step-id="2"]) details.step-why > summary');
      assert.match(await page.$eval('.step-block:has(.step-header[data-step-id="2"])', (e) => (e as HTMLElement).innerText), /Failed: step budget reached/);
      await page.click('.step-block:has(.step-header[data-step-id="2"]) details.step-why > summary');
      const fill = await page.$eval('.plan .step[data-step-id="4"] .budget-fill', (e) => Math.round((100 * e.getBoundingClientRect().width) / e.parentElement!.getBoundingClientRect().width));
      assert.ok(fill >= 80 && fill <= 90, `the bar is 85% full (${fill}%)`);
      await shot(page, `panel-step-budgets-${theme}`);
    });
  }

  it('panel: before a step runs, its estimate sits beside its title ("≈40k tokens"), in English and Chinese', async () => {
    for (const lang of ['en', 'zh-cn']) {
      const page = await view({ view: 'panel', lang, width: 900, height: 420 });
      await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Survey and fix' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, budgetedRun().slice(0, 2)) });
      await settle(page);
      const rows = await planRows(page);
      const tokens = lang === 'en' ? 'tokens' : '个令牌';
      assert.deepEqual(rows.map((r) => [r.id, r.estimate, r.text]), [['1', `≈40k ${tokens}`, undefined], ['2', `≈12k ${tokens}`, undefined], ['3', undefined, undefined]]);
      const label = await page.getAttribute('.plan .step[data-step-id="1"] [data-role="step-estimate"]', 'aria-label');
      assert.equal(label, lang === 'en' ? 'Token budget: about 40k tokens' : '令牌预算：约 40k 个令牌');
      await shot(page, `panel-step-estimates-${lang}-light`);
    }
  });

  it('sidebar (light and dark): the plan strip shows the running step\'s spending; the step headers show theirs', async () => {
    for (const theme of ['light', 'dark'] as Theme[]) {
      const page = await view({ view: 'sidebar', theme, width: 380, height: 700 });
      await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Survey and fix' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, runningLow()) });
      await settle(page);
      assert.equal(await page.textContent('.plan-strip .strip-budget'), '34k / 40k');
      assert.equal(await page.getAttribute('.plan-strip .strip-budget', 'data-level'), 'low');
      const headers = await page.$$eval('.step-block', (blocks) => blocks.map((b) => [
        b.querySelector('.step-header')?.getAttribute('data-step-id'), b.querySelector('.budget-text')?.textContent, b.querySelector('.budget-note')?.textContent ?? '',
      ]));
      assert.deepEqual(headers, [['1', '33k / 40k', ''], ['2', '15k / 12k', 'Stopped: token budget used up'], ['4', '34k / 40k', 'Running low']]);
      await shot(page, `sidebar-step-budgets-${theme}`);
    }
  });

  it('plan review: each planned step shows its estimate; a step the user adds shows none', async () => {
    const page = await view({ view: 'panel', width: 900, height: 460 });
    const plan = { goal: 'g', thought: '', steps: [
      { id: '1', title: 'Survey', description: 'List the files.', role: 'researcher' as const, status: 'pending' as const, estimate: 40_000 },
      { id: '2', title: 'Notes', description: 'Write notes.', role: 'reporter' as const, status: 'pending' as const },
    ] };
    await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Survey and fix' }, { type: 'planReview', runId: RUN, plan });
    await settle(page);
    await page.click('[data-action="add-step"]');
    const shown = await page.$$eval('.review-step', (rows) => rows.map((r) => r.querySelector('[data-role="step-estimate"]')?.textContent ?? ''));
    assert.deepEqual(shown, ['≈40k tokens', '', '']);
    await shot(page, 'panel-review-estimates-light');
  });

  it('a reloaded panel shows the same figures (the hub replays the step_usage events)', async () => {
    const hub = new ViewHub({ logger: { debug() {}, info() {}, warn() {}, error() {} }, onIntent: () => {}, batchMs: 5 });
    const page = await view({ view: 'panel' }, (p) => bindToHub(p, hub, 'panel').then(() => undefined));
    hub.setVisible('panel', true);
    hub.setStatus({ configured: true, trusted: true, running: true, runId: RUN, history: [] });
    hub.startRun(RUN, 'Survey and fix');
    const events = wrap(RUN, runningLow());
    const lastSeq = (n: number) => page.waitForFunction((seq) => (window as unknown as { stepwise?: { current: { run: { lastSeq: number } } } }).stepwise?.current.run.lastSeq === seq, n);
    for (const envelope of events.slice(0, 8)) hub.publish(envelope);
    await lastSeq(7);
    await page.reload();
    await lastSeq(7);
    for (const envelope of events.slice(8)) hub.publish(envelope);
    await lastSeq(events.length - 1);
    await settle(page);
    const replayed = await planRows(page);
    const fresh = await view({ view: 'panel' });
    await sendHost(fresh, status, { type: 'reset', runId: RUN, task: 'Survey and fix' }, { type: 'events', runId: RUN, envelopes: events });
    await settle(fresh);
    assert.deepEqual(replayed, await planRows(fresh));
    assert.equal(replayed.find((r) => r.id === '4')?.text, '34k / 40k');
    hub.dispose();
  });
});
