import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { AgentEvent } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { chromiumSuite, clearPosted, posted, sendHost, settle, type Theme } from './harness';
import { wrap } from './scenario';

const RUN = 'run-cmd';
const status: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, runId: RUN, model: 'gpt-4.1-mini', history: [] } };

/** A run with three commands: failing tests (exit 1), passing tests (exit 0), and a dev server the user stopped. */
function commandRun(): AgentEvent[] {
  const cmd = (callId: string, command: string): AgentEvent => ({ type: 'tool_call', callId, name: 'run_command', args: { command }, category: 'command' });
  return [
    { type: 'run_started', task: 'Fix the failing test', workspace: '/ws', model: 'gpt-4.1-mini' },
    { type: 'text_delta', text: 'Running the tests first: `npm test`.' },
    { type: 'assistant_message', text: 'Running the tests first: `npm test`.', toolCalls: [] },
    cmd('c1', 'npm test'),
    { type: 'tool_output', callId: 'c1', stream: 'stdout', chunk: '1 passing\n1 failing\n' },
    { type: 'tool_result', callId: 'c1', name: 'run_command', isError: false, content: 'exit code 1\n1 passing\n1 failing', durationMs: 2100, exitCode: 1 },
    cmd('c2', 'npm test'),
    { type: 'tool_output', callId: 'c2', stream: 'stdout', chunk: '2 passing\n' },
    { type: 'tool_result', callId: 'c2', name: 'run_command', isError: false, content: 'exit code 0\n2 passing', durationMs: 1900, exitCode: 0 },
    cmd('c3', 'npm run dev'),
    { type: 'tool_output', callId: 'c3', stream: 'stdout', chunk: 'listening on :5173\n' },
    { type: 'tool_result', callId: 'c3', name: 'run_command', isError: true, content: 'cancelled by the user', durationMs: 30_000, stopped: true },
  ];
}

async function cards(page: Page): Promise<{ badge: string; classes: string; outputSections: number }[]> {
  await page.$$eval('details.tool', (all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
  await settle(page);
  return page.$$eval('details.tool', (all) =>
    all.map((d) => ({
      badge: d.querySelector('summary .badge')?.textContent ?? '',
      classes: d.className,
      outputSections: d.querySelectorAll('pre.output').length + d.querySelectorAll('pre.result').length,
    })),
  );
}

describe('webviews in Chromium: what the first hour shows', function () {
  this.timeout(60_000);
  const { view, shot } = chromiumSuite();

  it('a command sent to the background says how it ended later: "Exit 3" (failed), "Ended (exit 0)", "Stopped"', async () => {
    const page = await view({ view: 'panel' });
    const cmd = (callId: string, command: string): AgentEvent => ({ type: 'tool_call', callId, name: 'run_command', args: { command }, category: 'command' });
    const events: AgentEvent[] = [
      { type: 'run_started', task: 'Start the servers', workspace: '/ws', model: 'gpt-4.1-mini' },
      cmd('b1', 'npm run build:watch'),
      { type: 'tool_result', callId: 'b1', name: 'run_command', isError: false, content: 'still running in the background (pid 41)', durationMs: 5000, background: true },
      cmd('b2', 'npm run dev'),
      { type: 'tool_result', callId: 'b2', name: 'run_command', isError: false, content: 'still running in the background (pid 42)', durationMs: 5000, background: true },
      cmd('b3', 'npm run e2e'),
      { type: 'tool_result', callId: 'b3', name: 'run_command', isError: false, content: 'still running in the background (pid 43)', durationMs: 5000, background: true },
      { type: 'run_finished', outcome: 'finished', summary: 'All run.', turns: 1 },
    ];
    await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Start the servers' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
    assert.deepEqual((await cards(page)).map((c) => c.badge), ['In the background', 'In the background', 'In the background']);
    const ended: AgentEvent[] = [
      { type: 'command_ended', callId: 'b1', exitCode: 3, stopped: false },
      { type: 'command_ended', callId: 'b2', exitCode: null, stopped: true },
      { type: 'command_ended', callId: 'b3', exitCode: 0, stopped: false },
    ];
    await sendHost(page, { type: 'events', runId: RUN, envelopes: wrap(RUN, ended, events.length) });
    const seen = await cards(page);
    assert.deepEqual(seen.map((c) => c.badge), ['Exit 3', 'Stopped', 'Ended (exit 0)']);
    assert.match(seen[0]!.classes, /tool-failed/);
    assert.match(seen[1]!.classes, /tool-stopped/);
    assert.match(seen[2]!.classes, /tool-ended/);
    // The result still says "still running" (what the model was told then); a plain line above it says how it ended.
    const later = await page.$$eval('details.tool', (all) => all.map((d) => d.querySelector('[data-role="later-ending"]')?.textContent ?? ''));
    assert.deepEqual(later, [
      'It went on in the background and ended later with exit code 3.',
      'It went on in the background until it was stopped.',
      'It went on in the background and ended later with exit code 0.',
    ]);
    await shot(page, 'panel-background-ended');
  });

  for (const theme of ['light', 'dark', 'hc-light'] as Theme[]) {
    it(`command cards say how each command ended: exit 1 failed, exit 0, stopped; one output section (${theme})`, async () => {
      const page = await view({ view: 'panel', theme });
      await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Fix the failing test' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, commandRun()) });
      const seen = await cards(page);
      assert.deepEqual(seen.map((c) => c.badge), ['Exit 1', 'Exit 0', 'Stopped']);
      assert.match(seen[0]!.classes, /tool-failed/);
      assert.match(seen[1]!.classes, /tool-done/);
      assert.match(seen[2]!.classes, /tool-stopped/);
      // A finished command's result holds its output, so it is shown once; a stopped one keeps what it printed plus the stop.
      assert.deepEqual(seen.map((c) => c.outputSections), [1, 1, 2], 'a finished command shows its output once');
      await shot(page, `panel-commands-${theme}`);
    });
  }

  it('inline code stays readable in High Contrast Light (editor foreground, no fill)', async () => {
    const page = await view({ view: 'panel', theme: 'hc-light' });
    await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Fix the failing test' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, commandRun()) });
    const style = await page.$eval('.markdown code', (el) => {
      const s = getComputedStyle(el);
      return { color: s.color, background: s.backgroundColor };
    });
    assert.equal(style.color, 'rgb(41, 41, 41)', 'the editor foreground, not the theme\'s white preformat colour');
    assert.equal(style.background, 'rgba(0, 0, 0, 0)');
  });

  it('focusing the sidebar puts the caret in the task input', async () => {
    const page = await view({ view: 'sidebar' });
    await sendHost(page, { type: 'status', status: { configured: true, trusted: true, running: false, model: 'gpt-4.1-mini', history: [] } });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA');
    await page.keyboard.type('Add a test');
    assert.equal(await page.inputValue('textarea'), 'Add a test');
  });

  it('a refused key: one card with the reason, Set API Key and Retry this task (sidebar)', async () => {
    const page = await view({ view: 'sidebar' });
    const events: AgentEvent[] = [
      { type: 'run_started', task: 'Explain the build', workspace: '/ws', model: 'gpt-4.1-mini' },
      { type: 'error', code: 'auth', message: 'The endpoint refused the API key (401 Incorrect API key provided).' },
      { type: 'run_finished', outcome: 'failed', reason: 'The endpoint refused the API key (401 Incorrect API key provided).', turns: 1 },
    ];
    await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Explain the build' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
    await settle(page);
    assert.equal(await page.locator('.card.error').count(), 0, 'the error is not shown a second time above the outcome');
    assert.equal(await page.locator('.card.outcome').count(), 1);
    assert.equal(await page.locator('.card.outcome [data-action="undo"]').count(), 0, 'nothing was edited, so no undo');
    await shot(page, 'sidebar-auth-failure');
    await clearPosted(page);
    await page.click('.card.outcome [data-action="set-api-key"]');
    await page.click('.card.outcome [data-action="retry-task"]');
    // Retry is a new attempt of the same task (one history entry), not a second task.
    assert.deepEqual(await posted(page), [{ type: 'setApiKey' }, { type: 'resumeRun', runId: RUN, text: 'The last attempt failed. Try the task again from where it stopped.' }]);
  });

  it('an edit card shows a diff, and the finish call is not a card', async () => {
    const page = await view({ view: 'panel' });
    const events: AgentEvent[] = [
      { type: 'run_started', task: 'Rename the option', workspace: '/ws', model: 'gpt-4.1-mini' },
      { type: 'tool_call', callId: 'e1', name: 'edit_file', category: 'edit', args: { path: 'src/config.ts', edits: [{ search: 'const retries = 3;\nconst delay = 100;', replace: 'const retries = 5;\nconst delay = 100;' }] } },
      { type: 'tool_result', callId: 'e1', name: 'edit_file', isError: false, content: 'Edited src/config.ts', durationMs: 3 },
      { type: 'tool_call', callId: 'f1', name: 'finish', args: { summary: 'Raised the retry count to 5.' } },
      { type: 'tool_result', callId: 'f1', name: 'finish', isError: false, content: 'ok', durationMs: 0 },
      { type: 'run_finished', outcome: 'finished', summary: 'Raised the retry count to 5.', turns: 1 },
    ];
    await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Rename the option' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
    assert.deepEqual(await page.$$eval('details.tool .tool-name', (all) => all.map((e) => e.textContent)), ['edit_file']);
    await page.click('details.tool > summary');
    await settle(page);
    assert.deepEqual(await page.$$eval('pre.diff > div', (all) => all.map((e) => [e.className, e.textContent])), [
      // The unchanged line is context, not removed and added again (issue 22).
      ['diff-del', '- const retries = 3;'],
      ['diff-add', '+ const retries = 5;'],
      ['diff-context', '  const delay = 100;'],
    ]);
    assert.equal(await page.locator('details.tool').filter({ hasText: '\\n' }).count(), 0, 'no escaped newlines');
    await shot(page, 'panel-edit-diff');
  });

  it('@ in the chat box: asks the host, lists matches, arrows and Enter insert one, then the task is sent', async () => {
    const page = await view({ view: 'sidebar' });
    await sendHost(page, { type: 'status', status: { configured: true, trusted: true, running: false, model: 'gpt-4.1-mini', history: [] } });
    await page.click('textarea');
    await page.keyboard.type('Fix @pa');
    await page.waitForFunction(() => (window as unknown as { __posted?: { type: string }[] }).__posted?.some((m) => m.type === 'suggestMentions'));
    assert.deepEqual((await posted(page)).filter((m) => m.type === 'suggestMentions').at(-1), { type: 'suggestMentions', query: 'pa' });
    await sendHost(page, { type: 'mentionSuggestions', query: 'pa', items: [
      { label: 'src/date/parse.ts', insert: 'src/date/parse.ts', kind: 'file' },
      { label: 'src/parser/', insert: 'src/parser/', kind: 'folder' },
    ] });
    await settle(page);
    assert.deepEqual(await page.$$eval('.mention-item', (rows) => rows.map((r) => [r.textContent, r.getAttribute('aria-selected')])), [['src/date/parse.ts', 'true'], ['src/parser/', 'false']]);
    await shot(page, 'sidebar-mentions');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    assert.equal(await page.inputValue('textarea'), 'Fix @src/date/parse.ts ');
    assert.equal(await page.isVisible('.mention-menu'), false);
    await page.keyboard.type('and @problems');
    await page.keyboard.press('Escape');
    await clearPosted(page);
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted(page), [{ type: 'submitTask', text: 'Fix @src/date/parse.ts and @problems', planMode: 'auto' }]);
  });

  it('a stale answer for an earlier query is not shown', async () => {
    const page = await view({ view: 'sidebar' });
    await sendHost(page, { type: 'status', status: { configured: true, trusted: true, running: false, model: 'gpt-4.1-mini', history: [] } });
    await page.click('textarea');
    await page.keyboard.type('@src');
    await sendHost(page, { type: 'mentionSuggestions', query: 'sr', items: [{ label: 'old', insert: 'old', kind: 'file' }] });
    await settle(page);
    assert.equal(await page.locator('.mention-item').count(), 0);
  });
});
