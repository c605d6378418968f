import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import type { HostMessage, HostStatus } from '../../../src/shared/webviewProtocol';
import { chromiumSuite, clearPosted, posted, sendHost, settle } from './harness';
import { wrap } from './scenario';

// Issue 14: the panel and the sidebar list the rules files a task loaded, show the context gauge
// (by part, with cost), let the user compact now, undo a compaction and pin a tool result.

const RUN = 'run-ctx';
const status = (over: Partial<HostStatus> = {}): HostMessage => ({
  type: 'status',
  status: { configured: true, trusted: true, running: true, runId: RUN, model: 'gpt-4o', history: [], ...over },
});

function contextRun(): AgentEvent[] {
  return [
    { type: 'run_started', task: 'Make packages/parser/src/parse.ts trim its input', workspace: '/w', model: 'gpt-4o' },
    { type: 'state', state: 'RUNNING' },
    { type: 'rules_loaded', files: [
      { path: 'AGENTS.md', kind: 'agents', chars: 120, truncated: false },
      { path: 'packages/parser/AGENTS.md', kind: 'agents', chars: 30_000, truncated: true },
    ] },
    { type: 'turn_started', turn: 1, maxTurns: 60 },
    { type: 'context', used: 62_000, budget: 100_000, window: 128_000, parts: { systemAndTools: 2_000, rules: 1_500, task: 500, history: 8_000, toolOutputs: 25_000, summaries: 5_000 }, pinned: [] },
    { type: 'assistant_message', text: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"packages/parser/src/parse.ts"}' }] },
    { type: 'usage', usage: { promptTokens: 42_000, completionTokens: 100, totalTokens: 42_100, cachedTokens: 30_000 }, total: { promptTokens: 42_000, completionTokens: 100, totalTokens: 42_100, cachedTokens: 30_000 }, cost: { effectiveTokens: 15_100, costUsd: 0.0688 } },
    { type: 'tool_call', callId: 'c1', name: 'read_file', args: { path: 'packages/parser/src/parse.ts' }, category: 'read' },
    { type: 'tool_result', callId: 'c1', name: 'read_file', isError: false, content: 'export const parse = (s: string) => s;', durationMs: 3 },
    { type: 'compaction_started', id: 'compaction-1', reason: 'window', messages: 40, tokens: 60_000, model: 'gpt-4o-mini', instruction: 'You compress the working history…' },
    { type: 'compaction_finished', id: 'compaction-1', summary: '## Task\nTrim input.\n## Decisions\nUse String.trim.', summarizedMessages: 40, tokensBefore: 90_000, tokensAfter: 20_000, addedByCheck: [], outlines: [] },
  ];
}

describe('webviews in Chromium: context gauge, rules files, compaction and pins', function () {
  this.timeout(60_000);
  const { view, shot } = chromiumSuite();

  for (const kind of ['panel', 'sidebar'] as const) {
    it(`${kind}: lists the loaded rules files and shows the gauge by part with the cost`, async () => {
      const page = await view({ view: kind });
      await sendHost(page, status(), { type: 'reset', runId: RUN, task: 'Make packages/parser/src/parse.ts trim its input' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, contextRun()) });
      await settle(page);
      const dom = await page.evaluate(() => ({
        rules: Array.from(document.querySelectorAll('[data-role="rules"] .rules-file')).map((e) => [e.getAttribute('data-path'), e.textContent]),
        used: document.querySelector('[data-role="context-used"]')?.textContent,
        parts: Array.from(document.querySelectorAll('.gauge-bar .gauge-seg')).map((e) => [e.getAttribute('data-part'), Math.round((e as HTMLElement).getBoundingClientRect().width)]),
        barWidth: Math.round(document.querySelector('.gauge-bar')!.getBoundingClientRect().width),
        cost: document.querySelector('[data-role="cost"]')?.textContent,
        compact: (document.querySelector('[data-action="compact"]') as HTMLElement | null)?.hidden,
      }));
      assert.deepEqual(dom.rules, [['AGENTS.md', 'AGENTS.md'], ['packages/parser/AGENTS.md', 'packages/parser/AGENTS.md (cut)']]);
      assert.equal(dom.used, 'Context 62,000 / 100,000');
      assert.deepEqual(dom.parts.map(([p]) => p), ['systemAndTools', 'rules', 'task', 'history', 'toolOutputs', 'summaries']);
      const toolOutputs = dom.parts.find(([p]) => p === 'toolOutputs')![1] as number;
      assert.ok(Math.abs(toolOutputs - dom.barWidth * 0.25) <= 3, `tool outputs take a quarter of the bar (${toolOutputs} of ${dom.barWidth})`);
      assert.equal(dom.cost, '15,100 effective tokens · ≈ $0.0688');
      assert.equal(dom.compact, false, 'Compact now is offered while the task runs with the prompt past half its budget');
      await shot(page, `${kind}-context-gauge`);
    });
  }

  it('panel: compact now, undo a compaction and pin a result are intents; pins show on the card', async () => {
    const page = await view({ view: 'panel' });
    await sendHost(page, status(), { type: 'reset', runId: RUN, task: 'x' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, contextRun()) });
    await settle(page);
    await clearPosted(page);
    await page.click('[data-action="compact"]');
    await page.click('[data-action="undo-compaction"]');
    await page.click('details.tool[data-call-id="c1"] > summary');
    await page.click('details.tool[data-call-id="c1"] [data-action="pin"]');
    assert.deepEqual(await posted(page), [
      { type: 'compactContext' },
      { type: 'undoCompaction', id: 'compaction-1' },
      { type: 'pinContext', callId: 'c1', pinned: true },
    ]);
    const summary = await page.evaluate(() => document.querySelector('.compaction-summary pre')?.textContent);
    assert.match(summary ?? '', /## Decisions/);
    // The core answers with a gauge that lists the pin: the card shows it and offers Unpin.
    const pinned: AgentEvent = { type: 'context', used: 20_000, budget: 100_000, window: 128_000, parts: { systemAndTools: 2_000, rules: 1_500, task: 500, history: 4_000, toolOutputs: 7_000, summaries: 5_000 }, pinned: ['c1'] };
    await sendHost(page, { type: 'events', runId: RUN, envelopes: wrap(RUN, [pinned, { type: 'compaction_undone', id: 'compaction-1' }], contextRun().length) });
    await settle(page);
    const after = await page.evaluate(() => ({
      badge: Boolean(document.querySelector('details.tool[data-call-id="c1"] [data-role="pinned"]')),
      unpin: Boolean(document.querySelector('details.tool[data-call-id="c1"] [data-action="unpin"]')),
      undone: document.querySelector('.compaction-undone .line-text')?.textContent,
      undo: document.querySelectorAll('[data-action="undo-compaction"]').length,
    }));
    assert.deepEqual(after, { badge: true, unpin: true, undone: 'Compaction undone: the full history is back', undo: 0 });
  });

  // Issue 22: one token count, no "Compact now" with nothing to gain, and a word on a missing price.
  it('sidebar: a small prompt offers no Compact now; tokens are said once; an unknown price says how to set it', async () => {
    const page = await view({ view: 'sidebar' });
    const events: AgentEvent[] = [
      { type: 'run_started', task: 'Say hello', workspace: '/w', model: 'local-model' },
      { type: 'state', state: 'RUNNING' },
      { type: 'turn_started', turn: 1, maxTurns: 60 },
      { type: 'context', used: 1_634, budget: 100_000, window: 128_000, parts: { systemAndTools: 1_400, rules: 0, task: 234, history: 0, toolOutputs: 0, summaries: 0 }, pinned: [] },
      // No cached tokens and no known price: effective tokens equal the tokens the header shows.
      { type: 'usage', usage: { promptTokens: 1_600, completionTokens: 34, totalTokens: 1_634 }, total: { promptTokens: 1_600, completionTokens: 34, totalTokens: 1_634 }, cost: { effectiveTokens: 1_634 } },
    ];
    await sendHost(page, status(), { type: 'reset', runId: RUN, task: 'Say hello' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
    await settle(page);
    const dom = await page.evaluate(() => ({
      compact: (document.querySelector('[data-action="compact"]') as HTMLElement | null)?.hidden,
      cost: document.querySelector('[data-role="cost"]')?.textContent,
      costTitle: document.querySelector('[data-role="cost"]')?.getAttribute('title'),
      body: document.body.innerText,
    }));
    assert.equal(dom.compact, true, 'no Compact now at 2% of the budget');
    assert.equal(dom.cost, 'price unknown');
    assert.match(dom.costTitle ?? '', /stepwise\.prices/);
    assert.equal((dom.body.match(/1,634/g) ?? []).length, 2, `the count appears in the gauge label and the header only: ${dom.body}`);
    assert.doesNotMatch(dom.body, /effective tokens/);
    await shot(page, 'sidebar-context-gauge-small');
  });
});
