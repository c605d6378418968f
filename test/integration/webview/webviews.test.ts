import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ViewHub } from '../../../src/host/common/views/viewHub';
import type { HostMessage, HostStatus, WebviewIntent } from '../../../src/shared/webviewProtocol';
import { bindToHub, chromiumSuite, clearPosted, domNodeCount, posted, sendHost, settle } from './harness';
import { finishedTail, longRun, loopRun, plannedRun, wrap } from './scenario';

const RUN = 'run-1';
const status = (over: Partial<HostStatus> = {}): HostMessage => ({
  type: 'status',
  status: { configured: true, trusted: true, running: true, runId: RUN, model: 'gpt-4.1-mini', history: [], ...over },
});
const SETUP = {
  presets: [
    { id: 'openai', label: 'OpenAI', provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', needsKey: true, editableUrl: false, modelList: 'openai', suggestedModel: 'gpt-4o-mini' },
    { id: 'deepseek', label: 'DeepSeek', provider: 'openai-compatible', baseUrl: 'https://api.deepseek.com/v1', needsKey: true, editableUrl: false, modelList: 'openai', suggestedModel: 'deepseek-chat' },
    { id: 'ollama', label: 'Ollama', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', needsKey: false, editableUrl: true, modelList: 'ollama', suggestedModel: '' },
  ],
  presetId: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiVersion: '2024-10-21', contextWindow: 0, keyStored: false, lmModels: [], saves: 0,
} satisfies Extract<HostMessage, { type: 'setup' }>['state'];
const show = (events = plannedRun(), task = 'Make the date parser accept ISO week dates and keep all tests green'): HostMessage[] => [
  { type: 'reset', runId: RUN, task },
  { type: 'events', runId: RUN, envelopes: wrap(RUN, events) },
];

describe('webviews in Chromium (real bundle, real CSP)', function () {
  this.timeout(60_000);
  const suite = chromiumSuite();
  const { view, shot, open } = suite;

  it('says ready on load, with no run and lastSeq -1', async () => {
    const page = await view({ view: 'sidebar' });
    assert.deepEqual(await posted(page), [{ type: 'ready', view: 'sidebar', lastSeq: -1 }]);
  });

  it('renders hostile model markdown inert: no script runs, handlers and javascript: links are gone', async () => {
    const page = await view({ view: 'panel' });
    const hostile = [
      'Here is <script>window.__pwned = "script"</script> and <img src=x onerror="window.__pwned = \'img\'">.',
      '[click me](javascript:window.__pwned=%22link%22) <a href="javascript:window.__pwned=1">raw</a>',
      '<iframe src="javascript:parent.__pwned=1"></iframe><svg><script>window.__pwned=1</script></svg>',
      '![chart](charts/sales.png) ![](https://tracker.example/pixel.gif)',
      '<div onmouseover="window.__pwned=1" style="position:fixed;inset:0">cover</div>',
      'Literal in code: `<script>alert(1)</script>`',
    ].join('\n\n');
    await sendHost(page, status(), ...show([
      { type: 'run_started', task: '<b>not bold</b> <img src=x onerror="window.__pwned=\'task\'">', workspace: '/w', model: 'm' },
      { type: 'text_delta', text: hostile },
      { type: 'assistant_message', text: hostile, toolCalls: [] },
      { type: 'tool_call', callId: 'x', name: 'write_file', args: { path: '<img src=x onerror="window.__pwned=\'arg\'">', content: '<script>window.__pwned="arg"</script>' } },
      { type: 'tool_result', callId: 'x', name: 'write_file', isError: false, content: '<img src=x onerror="window.__pwned=\'result\'">', durationMs: 1 },
      { type: 'question_asked', callId: 'q', question: '<img src=x onerror="window.__pwned=\'question\'"> ok?' },
    ], '<b>not bold</b>'));
    await page.click('details.tool > summary');
    await settle(page);
    await page.hover('.text .markdown');
    await page.click('text=click me');
    await page.click('text=raw');
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined, 'nothing ran');
    const dom = await page.evaluate(() => ({
      scripts: Array.from(document.scripts).map((s) => s.src.replace(location.origin, '')),
      handlers: Array.from(document.querySelectorAll('*')).filter((e) => Array.from(e.attributes).some((a) => a.name.startsWith('on'))).length,
      jsLinks: Array.from(document.querySelectorAll('[href]')).filter((e) => /^\s*javascript:/i.test(e.getAttribute('href') ?? '')).length,
      frames: document.querySelectorAll('iframe, img, svg script, object, embed').length,
      imageLink: document.querySelector('.text a.file-link[data-path="charts/sales.png"]')?.textContent,
      styled: document.querySelectorAll('.markdown [style]').length,
      title: document.querySelector('.task-title')?.textContent,
      code: document.querySelector('.text code')?.textContent,
      argText: document.querySelector('.tool-body')?.textContent ?? '',
      prose: document.querySelector('.text .markdown')?.textContent ?? '',
    }));
    assert.ok(dom.prose.includes('Here is <script>window.__pwned = "script"</script> and <img src=x onerror="window.__pwned = \'img\'">.'), `raw HTML in model text renders as text: ${dom.prose}`);
    assert.deepEqual(dom.scripts, ['/fake-api.js', '/dist/main.js'], 'only our two scripts are in the page');
    assert.equal(dom.handlers, 0, 'no element carries an inline event handler');
    assert.equal(dom.jsLinks, 0);
    assert.equal(dom.frames, 0, 'no frame, image or embedded object');
    assert.equal(dom.imageLink, 'chart', 'a markdown image of a workspace file becomes a link that opens it');
    assert.equal(dom.styled, 0);
    assert.equal(dom.title, '<b>not bold</b>', 'the task is shown as the text the user typed');
    assert.equal(dom.code, '<script>alert(1)</script>', 'markup inside code spans is visible as text');
    assert.ok(dom.argText.includes('<script>window.__pwned="arg"</script>'), 'tool arguments are shown as text');
    await shot(page, 'panel-hostile-markdown-light');
    // Chromium reports handlers and styles even while DOMPurify parses them in its inert document:
    // the CSP at work behind the sanitiser. Anything else (a 404 from a loaded image, say) is a failure.
    const problems = open.at(-1)!.problems;
    const other = problems.errors.filter((e) => !/^console: (Executing inline event handler|Applying inline style) violates/.test(e));
    assert.deepEqual(other, [], 'no image or frame was loaded, nothing else went wrong');
    problems.errors.length = 0;
  });

  it('enforces the CSP: an inline script injected into the page does not run', async () => {
    const page = await view({ view: 'sidebar' });
    const opened = open.at(-1)!;
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1';
      document.body.appendChild(script);
    });
    await page.waitForTimeout(100);
    assert.equal(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline), undefined);
    const violations = opened.problems.errors.filter((e) => /Content Security Policy/i.test(e));
    assert.equal(violations.length, 1, 'the browser reported the blocked script');
    opened.problems.errors.length = 0;
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`sidebar (${theme}): the set-up instead of the chat when no model is configured; the key never lands in webview state`, async () => {
      const page = await view({ view: 'sidebar', theme });
      await sendHost(page, status({ configured: false, running: false, runId: undefined }), { type: 'setup', state: SETUP });
      await page.waitForSelector('[data-role="setup"]', { state: 'visible' });
      assert.ok(await page.isVisible('text=Set up a model'));
      assert.ok(!(await page.isVisible('[data-role="task-input"]')), 'no composer without a model');
      assert.ok(!(await page.isVisible('[data-action="setup-cancel"]')), 'nothing to go back to');
      await clearPosted(page);
      await page.selectOption('[data-role="setup-provider"]', 'deepseek');
      assert.equal(await page.inputValue('[data-role="setup-base-url"]'), 'https://api.deepseek.com/v1');
      assert.ok(await page.isVisible('text=Enter the API key to load the model list.'));
      await page.fill('[data-role="setup-key"]', 'sk-typed-secret');
      // Leaving the key field (here: clicking Test) loads the model list with the typed key.
      await page.click('[data-action="setup-test"]');
      const sent = await posted(page);
      assert.deepEqual(sent.map((i) => i.type), ['setupListModels', 'setupTest']);
      const test = sent[1] as Extract<WebviewIntent, { type: 'setupTest' }>;
      assert.deepEqual(test.draft, { presetId: 'deepseek', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', apiKey: 'sk-typed-secret' });
      await sendHost(page, { type: 'setupModels', requestId: (sent[0] as { requestId: number }).requestId, models: [{ id: 'deepseek-chat', contextWindow: 65536, contextSource: 'listing' }, { id: 'deepseek-reasoner' }] });
      await sendHost(page, { type: 'setupTestResult', requestId: test.requestId, ok: false, code: 'auth', model: 'deepseek-chat', endpoint: 'https://api.deepseek.com/v1', message: 'The model endpoint https://api.deepseek.com/v1 refused the request (401: Authentication Fails).' });
      await settle(page);
      assert.match(await page.innerText('[data-role="setup-test-result"]'), /^The API key was refused\. .*401/);
      assert.match(await page.innerText('[data-role="setup-summary"]'), /Will use deepseek-chat at https:\/\/api\.deepseek\.com\/v1\. Context window: 65,536 tokens/);
      assert.ok(!JSON.stringify(await page.evaluate(() => (window as unknown as { __state?: unknown }).__state ?? null)).includes('sk-typed-secret'), 'the key is not in webview state');
      await shot(page, `sidebar-setup-${theme}`);
    });

    it(`sidebar (${theme}): a running planned task with its plan strip, cards and an approval`, async () => {
      const page = await view({ view: 'sidebar', theme });
      await sendHost(page, status({ trusted: theme === 'light' }), ...show());
      assert.ok(await page.isVisible('text=Plan 1/4'));
      assert.ok(await page.isVisible('.dock .approval-prompt'));
      assert.ok(await page.isVisible('[data-action="stop"]'));
      // The chat box stays open while a task runs: Send queues a message for it (chatBoxWhileRunning.test.ts).
      assert.ok(await page.isVisible('[data-action="send"]'));
      assert.equal(await page.isVisible('text=Restricted Mode'), theme === 'dark');
      await assertNoOverlap(page, ['.bar', '.plan-strip', '.timeline', '.dock', '.composer']);
      await shot(page, `sidebar-running-${theme}`);
    });

    it(`panel (${theme}): plan steps with statuses, live cards, usage and retry`, async () => {
      const page = await view({ view: 'panel', theme });
      await sendHost(page, status(), ...show());
      const steps = await page.$$eval('.plan .step', (rows) => rows.map((r) => ({
        status: r.getAttribute('data-status'),
        icon: r.querySelector('svg')?.getAttribute('class'),
        color: getComputedStyle(r.querySelector('svg')!).color,
        current: r.classList.contains('current'),
      })));
      assert.deepEqual(steps.map((s) => s.status), ['completed', 'failed', 'in_progress', 'pending']);
      assert.deepEqual(steps.map((s) => s.current), [false, false, true, false]);
      assert.equal(new Set(steps.map((s) => s.icon)).size, 4, 'each status has its own icon');
      assert.equal(new Set(steps.map((s) => s.color)).size, 4, 'each status has its own colour');
      assert.equal(await page.textContent('[data-role="usage"]'), '9,510 tokens');
      assert.equal(await page.textContent('[data-role="state"]'), 'Running');
      const running = await page.$$eval('details.tool[open]', (cards) => cards.map((c) => c.getAttribute('data-call-id')));
      assert.deepEqual(running, ['c4'], 'the live tool call is expanded in the panel');
      await clearPosted(page);
      await page.click('.plan [data-step-id="s2"] [data-action="retry"]');
      assert.deepEqual(await posted(page), [{ type: 'retryStep', stepId: 's2' }]);
      await assertNoOverlap(page, ['.panel-header', '.plan-col', '.main-col', '.dock']);
      await shot(page, `panel-plan-${theme}`);
    });

    it(`panel (${theme}): a finished run shows its report, final answer and undo`, async () => {
      const page = await view({ view: 'panel', theme });
      await sendHost(page, status({ running: false }), ...show([...plannedRun(), ...finishedTail()]));
      assert.equal(await page.textContent('[data-role="state"]'), 'Finished');
      assert.ok(await page.isVisible('.report table'));
      assert.ok(await page.isVisible('.outcome-finished >> text=24 tests'));
      assert.ok(!(await page.isVisible('.dock')), 'nothing waits for the user any more');
      await clearPosted(page);
      await page.click('[data-action="undo"]');
      await page.click('.report-path');
      assert.deepEqual(await posted(page), [{ type: 'undoTaskEdits', runId: RUN }, { type: 'openFile', path: 'docs/report.md' }]);
      await shot(page, `panel-finished-${theme}`);
    });
  }

  it('sidebar: Enter sends the task with the plan mode, Shift+Enter adds a line, IME composition does not send', async () => {
    const page = await view({ view: 'sidebar' });
    await sendHost(page, status({ running: false, runId: undefined }));
    await clearPosted(page);
    await page.selectOption('[data-role="plan-mode"]', 'always');
    await page.click('[data-role="task-input"]');
    await page.keyboard.type('Refactor the parser');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('and add tests');
    await page.evaluate(() => {
      const input = document.querySelector('[data-role="task-input"]')!;
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, cancelable: true }));
    });
    assert.deepEqual(await posted(page), [], 'nothing sent yet');
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted(page), [{ type: 'submitTask', text: 'Refactor the parser\nand add tests', planMode: 'always' }]);
    assert.equal(await page.inputValue('[data-role="task-input"]'), '');
    await page.keyboard.press('Enter');
    assert.equal((await posted(page)).length, 1, 'an empty input sends nothing');
  });

  it('sidebar: approval buttons post approve / always / reject with a reason, then lock', async () => {
    const page = await view({ view: 'sidebar' });
    const approval = (callId: string): HostMessage => ({ type: 'events', runId: RUN, envelopes: wrap(RUN, [
      { type: 'approval_requested', callId, category: 'edit', title: `Edit ${callId}.ts`, detail: '+1 line' },
    ], seq++) });
    let seq = 0;
    await sendHost(page, status(), { type: 'reset', runId: RUN, task: 'T' }, approval('a'), approval('b'), approval('c'));
    await clearPosted(page);
    await page.click('[data-call-id="a"] [data-action="approve"]');
    await page.click('[data-call-id="b"] [data-action="always"]');
    await page.fill('[data-call-id="c"] [data-role="reject-reason"]', 'wrong file');
    await page.click('[data-call-id="c"] [data-action="reject"]');
    await page.click('[data-call-id="a"] [data-action="reject"]', { force: true });
    assert.deepEqual(await posted(page), [
      { type: 'approve', callId: 'a' },
      { type: 'approve', callId: 'b', always: true },
      { type: 'reject', callId: 'c', reason: 'wrong file' },
    ], 'a second click on an answered prompt sends nothing');
    assert.ok(await page.isDisabled('[data-call-id="a"] [data-action="approve"]'));
    await sendHost(page, { type: 'events', runId: RUN, envelopes: wrap(RUN, [{ type: 'approval_answered', callId: 'a', approved: true }], seq++) });
    assert.equal(await page.$('.dock [data-call-id="a"]'), null, 'the answered prompt leaves the dock');
    assert.ok(await page.isVisible('.timeline >> text=Approved'));
  });

  it('sidebar: questions take a suggested answer or free text', async () => {
    const page = await view({ view: 'sidebar', theme: 'dark' });
    await sendHost(page, status(), ...show(loopRun(), 'Turn on strict mode'));
    await shot(page, 'sidebar-question-dark');
    await clearPosted(page);
    await page.click('.question-prompt [data-action="option"] >> text=Both');
    assert.deepEqual(await posted(page), [{ type: 'answer', callId: 'q1', answer: 'Both' }]);
    await sendHost(page, { type: 'events', runId: RUN, envelopes: wrap(RUN, [
      { type: 'question_answered', callId: 'q1', answer: 'Both' },
      { type: 'question_asked', callId: 'q2', question: 'Anything else?' },
    ], loopRun().length) });
    await clearPosted(page);
    await page.fill('.question-prompt [data-role="answer-input"]', 'No, thanks');
    await page.press('.question-prompt [data-role="answer-input"]', 'Enter');
    assert.deepEqual(await posted(page), [{ type: 'answer', callId: 'q2', answer: 'No, thanks' }]);
  });

  it('sidebar: history opens a run; a finished run takes a follow-up; new task goes back', async () => {
    const page = await view({ view: 'sidebar' });
    const history = [
      { runId: 'old-1', task: 'Add a README', ts: Date.UTC(2025, 0, 2, 10, 0), outcome: 'finished' as const },
      { runId: 'old-2', task: 'Upgrade dependencies and fix the breaking changes in the build', ts: Date.UTC(2025, 0, 3, 9, 30), outcome: 'failed' as const },
    ];
    await sendHost(page, status({ running: false, runId: undefined, history }));
    const titles = await page.$$eval('.history-task', (rows) => rows.map((r) => r.textContent));
    assert.deepEqual(titles, [history[1]!.task, history[0]!.task], 'newest first');
    await shot(page, 'sidebar-history-light');
    await clearPosted(page);
    await page.click('[data-run-id="old-1"]');
    assert.deepEqual(await posted(page), [{ type: 'openRun', runId: 'old-1' }]);
    await sendHost(page, { type: 'reset', runId: 'old-1', task: 'Add a README' }, { type: 'events', runId: 'old-1', envelopes: wrap('old-1', [
      { type: 'run_started', task: 'Add a README', workspace: '/w', model: 'm' },
      { type: 'run_finished', outcome: 'finished', summary: 'README added.', turns: 1 },
    ]) });
    await clearPosted(page);
    await page.fill('[data-role="task-input"]', 'Also add a licence section');
    await page.press('[data-role="task-input"]', 'Enter');
    await page.click('[data-action="new-task"]');
    assert.deepEqual(await posted(page), [{ type: 'resumeRun', runId: 'old-1', text: 'Also add a licence section' }, { type: 'newTask' }]);
  });

  it('opens files from markdown links, code spans and tool arguments', async () => {
    const page = await view({ view: 'panel' });
    await sendHost(page, status(), ...show());
    await clearPosted(page);
    await page.click('.text a.file-link >> text=parse.ts');
    await page.click('.text code.file-link');
    await page.click('details.tool[data-call-id="c2"] > summary');
    await settle(page);
    await page.click('details.tool[data-call-id="c2"] .arg-value.file-link');
    assert.deepEqual(await posted(page), [
      { type: 'openFile', path: 'src/date/parse.ts', line: 18 },
      { type: 'openFile', path: 'test/date.test.ts', line: 42 },
      { type: 'openFile', path: 'src/date/parse.ts' },
    ]);
  });

  it('panel: plan review edits (reword, reorder, delete, add) and runs the edited plan', async () => {
    const page = await view({ view: 'panel' });
    const steps = ['Read the code', 'Change the code', 'Test the change'].map((title, i) => ({ id: `s${i + 1}`, title, description: '', role: 'coder' as const, status: 'pending' as const }));
    await sendHost(page, status({ running: true }), { type: 'reset', runId: RUN, task: 'Plan it' },
      { type: 'planReview', runId: RUN, plan: { goal: 'A reviewed plan', thought: '', steps } });
    assert.ok(await page.isVisible('text=Review the plan'));
    await page.fill('.review-step[data-index="0"] .review-title', 'Read the parser');
    await page.click('.review-step[data-index="2"] [data-action="up"]');
    await page.click('.review-step[data-index="2"] [data-action="delete"]');
    await page.click('[data-action="add-step"]');
    await page.keyboard.type('Write docs');
    await page.selectOption('.review-step[data-index="2"] .review-role', 'reporter');
    await shot(page, 'panel-review-light');
    await clearPosted(page);
    await page.click('[data-action="run-plan"]');
    assert.deepEqual(await posted(page), [{ type: 'runPlan', steps: [
      { id: 's1', title: 'Read the parser', description: '', role: 'coder' },
      { id: 's3', title: 'Test the change', description: '', role: 'coder' },
      { title: 'Write docs', description: '', role: 'reporter' },
    ] }]);
    assert.ok(await page.isDisabled('[data-action="run-plan"]'), 'sent once');
    await sendHost(page, { type: 'events', runId: RUN, envelopes: wrap(RUN, [
      { type: 'plan_created', goal: 'A reviewed plan', thought: '', steps: steps.slice(0, 1) },
      { type: 'step_started', stepId: 's1' },
    ]) });
    assert.ok(!(await page.isVisible('text=Review the plan')), 'review ends when the plan starts running');
  });

  it('panel: a run without a plan shows its work, not the loop\'s turn separators (dark)', async () => {
    const page = await view({ view: 'panel', theme: 'dark' });
    await sendHost(page, status(), ...show(loopRun(), 'Turn on strict mode'));
    assert.ok(!(await page.isVisible('.plan-col')));
    assert.equal(await page.locator('.divider.turn').count(), 0, 'turn separators are internals');
    assert.ok((await page.locator('details.tool').count()) > 0);
    await shot(page, 'panel-loop-dark');
  });

  it('speaks Simplified Chinese for zh-cn', async () => {
    const page = await view({ view: 'sidebar', lang: 'zh-cn' });
    await sendHost(page, status({ configured: false }), { type: 'setup', state: SETUP });
    assert.ok(await page.isVisible('text=设置模型'));
    assert.ok(await page.isVisible('[data-action="setup-test"] >> text=测试连接'));
    await sendHost(page, status(), ...show());
    assert.ok(await page.isVisible('text=需要批准'));
    assert.ok(await page.isVisible('[data-action="approve"] >> text=批准'));
    await shot(page, 'sidebar-running-zh-light');
  });

  it('a malformed host message is dropped, and a bad envelope does not cost its batch', async () => {
    const page = await view({ view: 'sidebar' });
    const opened = open.at(-1)!;
    await page.evaluate(() => window.postMessage({ type: 'events', runId: 'r', envelopes: 'lots' }, '*'));
    await sendHost(page, status(), { type: 'reset', runId: RUN, task: 'T' });
    const good = wrap(RUN, [{ type: 'text_delta', text: 'kept text' }, { type: 'text_delta', text: ' and more' }]);
    await page.evaluate(([a, b]) => window.postMessage({ type: 'events', runId: 'run-1', envelopes: [a, { v: 1, seq: 5, event: { type: 'nope' } }, b] }, '*'), good);
    await settle(page);
    assert.ok(await page.isVisible('text=kept text and more'));
    assert.equal(opened.problems.errors.length, 0);
  });

  it('replays through a real ViewHub after a reload, with nothing lost or doubled', async () => {
    const intents: WebviewIntent[] = [];
    const hub = new ViewHub({ logger: { debug() {}, info() {}, warn() {}, error() {} }, onIntent: (intent) => intents.push(intent), batchMs: 5 });
    const page = await view({ view: 'panel' }, (p) => bindToHub(p, hub, 'panel').then(() => undefined));
    // The panel is on screen (as PlanPanel reports it): it holds the prompts.
    hub.setVisible('panel', true);
    hub.setStatus({ configured: true, trusted: true, running: true, runId: RUN, history: [] });
    hub.startRun(RUN, 'Replay me');
    const events = wrap(RUN, plannedRun());
    for (const envelope of events.slice(0, 20)) hub.publish(envelope);
    await page.waitForFunction((n) => (window as unknown as { stepwise: { current: { run: { lastSeq: number } } } }).stepwise.current.run.lastSeq === n, 19);
    await page.reload();
    await page.waitForFunction((n) => (window as unknown as { stepwise?: { current: { run: { lastSeq: number } } } }).stepwise?.current.run.lastSeq === n, 19);
    for (const envelope of events.slice(20)) hub.publish(envelope);
    const last = events.length - 1;
    await page.waitForFunction((n) => (window as unknown as { stepwise: { current: { run: { lastSeq: number } } } }).stepwise.current.run.lastSeq === n, last);
    await settle(page);
    const cards = await page.$$eval('details.tool', (rows) => rows.map((r) => r.getAttribute('data-call-id')));
    assert.deepEqual(cards, ['c1', 'c2', 'c3', 'c4'], 'each card once, in order');
    assert.equal(await page.textContent('[data-role="task-title"]'), 'Replay me');
    await page.click('.dock [data-action="approve"]');
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(intents, [{ type: 'approve', callId: 'c4' }], 'intents reach the host; ready is answered by the hub');
    hub.dispose();
  });

  it('keeps the DOM bounded for a 10,000-event run and can still scroll to its start', async () => {
    const page = await view({ view: 'panel', height: 700 });
    const events = wrap(RUN, longRun(10_000));
    await sendHost(page, status(), { type: 'reset', runId: RUN, task: 'long' });
    for (let i = 0; i < events.length; i += 500) {
      await page.evaluate((batch) => window.postMessage({ type: 'events', runId: 'run-1', envelopes: batch }, '*'), events.slice(i, i + 500));
    }
    await settle(page);
    const items = await page.evaluate(() => (window as unknown as { stepwise: { current: { run: { items: unknown[] } } } }).stepwise.current.run.items.length);
    const nodes = await domNodeCount(page);
    const rows = await page.$$eval('.vl-row', (r) => r.length);
    assert.ok(items > 1_500, `the run has many items (${items})`);
    assert.ok(rows < 130, `only a window of rows is in the DOM (${rows})`);
    assert.ok(nodes < 2_500, `DOM nodes stay bounded (${nodes})`);
    const lastId = await page.evaluate(() => {
      const all = (window as unknown as { stepwise: { current: { run: { items: { id: string }[] } } } }).stepwise.current.run.items;
      return all[all.length - 1]!.id;
    });
    assert.ok(await page.isVisible(`.vl-row[data-id="${lastId}"]`), 'follows the run: its last item is in view');
    await shot(page, 'panel-long-run-end-light');
    await page.evaluate(() => {
      const scroller = document.querySelector('.timeline')!;
      scroller.scrollTop = 0;
    });
    await settle(page);
    await settle(page);
    assert.ok(await page.isVisible('.task >> text=A long task of 10000 events'), 'scrolled to the top, the first item is rendered');
    assert.ok((await domNodeCount(page)) < 2_500);
    await shot(page, 'panel-long-run-top-light');
  });
});

/** Fails when any two of the given regions overlap on screen (hidden ones are skipped). */
async function assertNoOverlap(page: Page, selectors: string[]): Promise<void> {
  const boxes = [];
  for (const selector of selectors) {
    const box = await page.locator(selector).first().boundingBox();
    if (box && box.height > 0) boxes.push({ selector, ...box });
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const overlap = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 1 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 1;
      assert.ok(!overlap, `${a.selector} overlaps ${b.selector}`);
    }
  }
  const viewport = page.viewportSize()!;
  for (const box of boxes) assert.ok(box.y + box.height <= viewport.height + 1 && box.x + box.width <= viewport.width + 1, `${box.selector} fits in the view`);
}
