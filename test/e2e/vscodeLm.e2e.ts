// VS Code's language models in the real workbench (code-server + chromium, the packaged VSIX): a test-only extension
// (test/e2e/fixtures/fake-lm-provider) registers two models through the stable vscode.lm provider API and answers
// from a script served on loopback, recording every request as VS Code handed it over. The user picks "VS Code
// language models" in the sidebar set-up, sees the models with their windows, tests, saves and runs tasks: native
// tool calls with the tool-calling model, the text tool protocol with the text-only one, and Stop mid-stream.
// One workbench session for all of it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { newRunDir } from '../host/codeServer';
import { packFakeLmVsix, startFakeLmScript, type FakeLmScript, type LmEvent, type LmRequest, type RecordedPart } from './support/fakeLmProvider';
import { textOf } from './support/webviewDom';
import { frameWith, hideBottomPanel, openSidebar, openWorkbench, pickColorTheme, screenshotIfFailed, screenshots, until, type Workbench } from './support/workbench';

/** Nothing of the machine's own model set-up may leak in. */
const CLEAN_ENV = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
const NOTE = 'The launch code is 4-7-1-1.';
const NATIVE_TASK = 'What does notes/lm.txt say (native)?';
const TEXT_TASK = 'What does notes/lm.txt say (text)?';
const SLOW_TASK = 'Write a long essay slowly';
const NATIVE_ANSWER = 'The note gives the launch code 4-7-1-1 (read with a native call).';
const TEXT_ANSWER = 'The note gives the launch code 4-7-1-1 (read with a tool block).';
const STREAMED = 'Essay, part one: ';
const FAILING_TASK = 'Summarise the repository';
const PROVIDER_ERROR = 'You have exceeded your monthly quota of fake requests.';

/** All text parts of a request, in order. */
function allText(request: LmRequest): string {
  return request.messages.flatMap((m) => m.content.map((p) => (p.type === 'text' ? p.value : ''))).join('\n');
}

function parts<T extends RecordedPart['type']>(request: LmRequest, type: T): Array<Extract<RecordedPart, { type: T }>> {
  return request.messages.flatMap((m) => m.content.filter((p): p is Extract<RecordedPart, { type: T }> => p.type === type));
}

const fence = (name: string, args: object): string => `\`\`\`tool\n${JSON.stringify({ name, arguments: args })}\n\`\`\`\n`;

/** The model's side: answers by task and by how far the conversation got. */
function script(request: LmRequest): LmEvent[] {
  const text = allText(request);
  if (text.includes(SLOW_TASK)) return [{ text: STREAMED }, { hold: true }];
  if (text.includes(FAILING_TASK)) return [{ error: PROVIDER_ERROR }];
  if (text.includes(NATIVE_TASK)) {
    if (parts(request, 'toolResult').length === 0) return [{ text: 'I will read the note.' }, { toolCall: { callId: 'lm-call-1', name: 'read_file', input: { path: 'notes/lm.txt' } } }];
    return [{ toolCall: { callId: 'lm-call-2', name: 'finish', input: { summary: NATIVE_ANSWER } } }];
  }
  if (text.includes(TEXT_TASK)) {
    if (!text.includes('Result of read_file')) return [{ text: 'I will read the note.\n' }, { text: fence('read_file', { path: 'notes/lm.txt' }) }];
    return [{ text: fence('finish', { summary: TEXT_ANSWER }) }];
  }
  return [{ text: 'OK' }];
}

function userSettings(wb: Workbench): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(wb.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
}

/** The sidebar's frame again (a webview that was hidden and shown has a new frame). */
function sidebarFrame(page: Page): Promise<Frame> {
  return frameWith(page, '[data-role="task-input"]', 60_000);
}

/** Starts a new task (after the last one's conversation) with plan mode `never`. */
async function sendTask(sidebar: Frame, text: string): Promise<void> {
  const planMode = sidebar.locator('[data-role="plan-mode"]');
  if (!(await planMode.isVisible())) await sidebar.locator('[data-action="new-task"]').click();
  await planMode.waitFor({ state: 'visible' });
  await sidebar.selectOption('[data-role="plan-mode"]', 'never');
  const input = sidebar.locator('[data-role="task-input"]');
  await input.fill(text);
  await input.press('Enter');
}

/** How often `needle` occurs in `haystack`. */
function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Waits for the run's outcome card in the sidebar and returns its class list. */
/**
 * Waits for `task`'s own outcome card: the sidebar shows the earlier task (and its card) until the new
 * run's first events arrive, so the card counts only once the task's message is the one shown.
 */
async function outcome(page: Page, kind: 'finished' | 'cancelled', task: string): Promise<void> {
  await until(`the ${kind} outcome of "${task}"`, async () => {
    const sidebar = await sidebarFrame(page);
    const shown = await sidebar.locator('.card.task .task-text').first().innerText().catch(() => '');
    return shown.includes(task) && (await sidebar.locator(`.card.outcome.outcome-${kind}`).count()) === 1;
  });
}

describe('VS Code language models (vscode.lm) in the real workbench', function () {
  this.timeout(600_000);
  let wb: Workbench | undefined;
  let lm: FakeLmScript;

  before(async () => {
    lm = await startFakeLmScript();
    lm.answer(script);
    const vsix = await packFakeLmVsix(newRunDir('fake-lm'));
    wb = await openWorkbench({
      env: { ...CLEAN_ENV, STEPWISE_FAKE_LM_URL: lm.url },
      extraVsix: [vsix],
      files: { 'notes/lm.txt': `${NOTE}\n` },
      // code-server's quiet profile turns AI features off; a user with Copilot has them on.
      settings: { 'stepwise.verify.mode': 'off', 'chat.disableAIFeatures': false },
    });
  });

  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, wb, 'failed-vscode-lm');
  });

  after(async () => {
    await wb?.close();
    await lm?.close();
  });

  it('the set-up offers the models VS Code lists, with their windows; Test connection and Save write provider vscode-lm', async () => {
    const page = wb!.page;
    const sidebar = await openSidebar(page);
    await hideBottomPanel(page);
    await sidebar.locator('[data-role="setup"]').waitFor({ state: 'visible', timeout: 60_000 });
    // Nothing set up and VS Code has language models: they are suggested first.
    await until('the VS Code preset', async () => (await sidebar.inputValue('[data-role="setup-provider"]')) === 'vscode-lm');
    assert.equal(await sidebar.locator('[data-role="setup-base-url"]').isVisible(), false, 'no URL for VS Code models');
    assert.equal(await sidebar.locator('[data-role="setup-key"]').isVisible(), false, 'no key for VS Code models');
    const options = await sidebar.$$eval('[data-role="setup-model-list"] option', (all) => all.map((o) => [o.getAttribute('value'), o.textContent]));
    assert.deepEqual(options, [['', 'Pick a model…'], ['fake-tools', 'Fake Tools Model · 64,000'], ['fake-text', 'Fake Text Model · 12,000']]);
    assert.equal(await sidebar.locator('[data-role="setup-models-note"]').innerText(), 'VS Code offers 2 language models.');

    await sidebar.selectOption('[data-role="setup-model-list"]', 'fake-tools');
    assert.equal(await sidebar.locator('[data-role="setup-summary"]').innerText(), 'Will use Fake Tools Model from VS Code. Context window: 64,000 tokens (as VS Code reports it).');
    await screenshots(page, 'vscode-lm-setup-dark');

    const before = lm.requests.length;
    await sidebar.click('[data-action="setup-test"]');
    const result = sidebar.locator('[data-role="setup-test-result"].ok');
    await result.waitFor({ timeout: 60_000 });
    assert.match(await result.innerText(), /^Connected: Fake Tools Model answered in [\d,]+ ms\.$/);
    // VS Code 1.139 asks no consent for this vendor (its access prompt is for providers that declare an account through
    // the proposed chatProvider API, as Copilot does); had it asked, a dialog would be open now, and none is.
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no consent dialog');
    const tested = lm.requests.slice(before);
    assert.equal(tested.length, 1);
    assert.equal(tested[0]!.model, 'fake-tools');
    assert.deepEqual(tested[0]!.tools, [], 'the test offers no tools');
    assert.equal(allText(tested[0]!), 'Reply with the single word OK.');

    await pickColorTheme(page, 'Light Modern');
    await screenshots(page, 'vscode-lm-setup-light');

    await sidebar.click('[data-action="setup-save"]');
    await sidebar.locator('[data-role="task-input"]').waitFor({ state: 'visible', timeout: 60_000 });
    const settings = userSettings(wb!);
    assert.equal(settings['stepwise.provider'], 'vscode-lm');
    assert.equal(settings['stepwise.model'], 'fake-tools');
    assert.equal(settings['stepwise.contextWindow'], 64_000);
    assert.equal(settings['stepwise.baseUrl'], '');
    await until('the model switcher', async () => (await sidebar.locator('[data-action="model-switch"]').innerText()) === 'VS Code language models · Fake Tools Model');
    await pickColorTheme(page, 'Dark Modern');
  });

  it('after a window reload the saved VS Code model is still the one in use', async () => {
    const page = wb!.page;
    await page.reload();
    await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 60_000 });
    const sidebar = await openSidebar(page);
    await until('the switcher', async () => (await sidebar.locator('[data-action="model-switch"]').innerText().catch(() => '')) === 'VS Code language models · Fake Tools Model');
    assert.equal(await sidebar.locator('[data-role="setup"]').isVisible(), false, 'the chat, not the set-up');
  });

  it('native tool calls: the tools reach the model, the tool result goes back as a tool-result part, the answer shows once', async () => {
    const page = wb!.page;
    const before = lm.requests.length;
    await sendTask(await sidebarFrame(page), NATIVE_TASK);
    await outcome(page, 'finished', NATIVE_TASK);
    const sent = lm.requests.slice(before).filter((r) => allText(r).includes(NATIVE_TASK));
    assert.equal(sent.length, 2, 'read, then finish');
    for (const request of sent) assert.equal(request.model, 'fake-tools');
    const tools = new Map(sent[0]!.tools.map((t) => [t.name, t]));
    assert.ok(tools.has('read_file') && tools.has('finish'), `tools offered: ${[...tools.keys()].join(', ')}`);
    assert.deepEqual((tools.get('read_file')!.inputSchema as { required?: string[] }).required, ['path']);
    assert.equal(sent[0]!.toolMode, 1, 'LanguageModelChatToolMode.Auto');
    // The second request carries the call as the model made it and its result as VS Code's tool-result part.
    const calls = parts(sent[1]!, 'toolCall');
    assert.deepEqual(calls.map((c) => [c.callId, c.name, c.input]), [['lm-call-1', 'read_file', { path: 'notes/lm.txt' }]]);
    const results = parts(sent[1]!, 'toolResult');
    assert.equal(results.length, 1);
    assert.equal(results[0]!.callId, 'lm-call-1');
    assert.match(JSON.stringify(results[0]!.content), /The launch code is 4-7-1-1\./);
    const resultMessage = sent[1]!.messages.find((m) => m.content.some((p) => p.type === 'toolResult'))!;
    assert.equal(resultMessage.role, 'user');
    const shown = await textOf(await sidebarFrame(page));
    assert.equal(occurrences(shown, NATIVE_ANSWER), 1, `the answer once in:\n${shown}`);
    await screenshots(page, 'vscode-lm-native-run-dark');
  });

  it('a text-only model: the text tool protocol carries the calls (no native tools), the answer shows once without the blocks', async () => {
    const page = wb!.page;
    // Switch models the way a user does: the switcher under the chat box opens the set-up on the current choice.
    let sidebar = await sidebarFrame(page);
    await sidebar.click('[data-action="model-switch"]');
    await sidebar.locator('[data-role="setup"]').waitFor({ state: 'visible' });
    assert.equal(await sidebar.inputValue('[data-role="setup-provider"]'), 'vscode-lm');
    assert.equal(await sidebar.inputValue('[data-role="setup-model-list"]'), 'fake-tools');
    await sidebar.selectOption('[data-role="setup-model-list"]', 'fake-text');
    await sidebar.click('[data-action="setup-save"]');
    sidebar = await sidebarFrame(page);
    await until('the switcher to name the text model', async () => (await sidebar.locator('[data-action="model-switch"]').innerText()) === 'VS Code language models · Fake Text Model');
    assert.equal(userSettings(wb!)['stepwise.model'], 'fake-text');
    assert.equal(userSettings(wb!)['stepwise.contextWindow'], 12_000);
    const before = lm.requests.length;
    await sendTask(await sidebarFrame(page), TEXT_TASK);
    await outcome(page, 'finished', TEXT_TASK);
    // The provider's record of the requests is written by the test extension as they happen; wait for both.
    await until('both requests recorded', () => lm.requests.slice(before).filter((r) => allText(r).includes(TEXT_TASK)).length >= 2, 30_000).catch(() => undefined);
    const sent = lm.requests.slice(before).filter((r) => allText(r).includes(TEXT_TASK));
    assert.equal(sent.length, 2, 'read, then finish');
    for (const request of sent) {
      assert.equal(request.model, 'fake-text');
      assert.deepEqual(request.tools, [], 'no native tools for a model without tool calling');
      assert.deepEqual([...parts(request, 'toolCall'), ...parts(request, 'toolResult')], [], 'text parts only');
    }
    assert.match(allText(sent[0]!), /# Tools[\s\S]*```tool[\s\S]*- read_file: /);
    assert.match(allText(sent[1]!), /Result of read_file \(call_lm_\d+\):[\s\S]*The launch code is 4-7-1-1\./);
    const shown = await textOf(await sidebarFrame(page));
    assert.equal(occurrences(shown, TEXT_ANSWER), 1, `the answer once in:\n${shown}`);
    assert.ok(!shown.includes('```tool') && !shown.includes('"arguments"'), 'the tool blocks are not shown as prose');
    await screenshots(page, 'vscode-lm-text-run-dark');
  });

  it('Stop during a streaming answer ends the request: the provider sees its cancellation token fire', async () => {
    const page = wb!.page;
    const sidebar = await sidebarFrame(page);
    const before = lm.requests.length;
    await sendTask(sidebar, SLOW_TASK);
    await until('the streamed start', async () => (await textOf(await sidebarFrame(page))).includes(STREAMED.trim()));
    const held = lm.requests.slice(before).find((r) => allText(r).includes(SLOW_TASK));
    assert.ok(held, 'the slow request reached the provider');
    assert.ok(!lm.cancelled.includes(held.requestId));
    await (await sidebarFrame(page)).click('[data-action="stop"]');
    await until('the provider to see the cancellation', () => lm.cancelled.includes(held.requestId));
    await outcome(page, 'cancelled', SLOW_TASK);
    const card = await (await sidebarFrame(page)).locator('.card.outcome.outcome-cancelled').innerText();
    assert.equal(occurrences(card, 'Stopped by the user.'), 1, `said once in:\n${card}`);
    await screenshots(page, 'vscode-lm-stopped-dark');
  });

  it("a provider's failure reaches the user in its own words, once", async () => {
    const page = wb!.page;
    await sendTask(await sidebarFrame(page), FAILING_TASK);
    await until('the failed outcome', async () => (await (await sidebarFrame(page)).locator('.card.outcome.outcome-failed').count()) === 1);
    const card = await (await sidebarFrame(page)).locator('.card.outcome.outcome-failed').innerText();
    // The card: the outcome, the kind of failure in plain words, then the provider's own words on a line of their own.
    const lines = card.split('\n');
    assert.equal(lines[0], 'Failed');
    assert.ok(lines.includes(PROVIDER_ERROR), `the words as the provider said them, on their own line, in:\n${card}`);
    assert.equal(occurrences(card, PROVIDER_ERROR), 1, `said once in:\n${card}`);
    assert.equal(await (await sidebarFrame(page)).locator('.card.outcome [data-action="retry-task"]').count(), 1, 'Retry offered');
    await screenshots(page, 'vscode-lm-provider-error-dark');
  });
});
