// UI end-to-end tests: the packaged VSIX in a real VS Code (code-server 4.139 = VS Code 1.139) driven by Debian
// chromium, with the fake OpenAI server as the model. Run with `npm run test:e2e` (builds the VSIX first).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../support/fakeOpenAIServer';
import { hideBottomPanel, openSidebar, openWorkbench, panelFrame, pickColorTheme, screenshots, showTaskPanel, until, type Workbench, screenshotIfFailed } from './support/workbench';

const ORIGINAL = "export function greet(name) {\n  return 'Hello, ' + name;\n}\n";
const CHANGED = "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n";
const HOSTILE = 'Careful: <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> <a href="javascript:window.__pwned=3">bait</a>';

const call = (name: string, args: unknown, text?: string): FakeTurn => ({ ...(text ? { text } : {}), toolCalls: [{ name, arguments: JSON.stringify(args) }] });
const finish = (summary: string): FakeTurn => call('finish', { summary });

/** The model's answers, by task (the first words of the user's task) and turn. */
const SCRIPTS: Record<string, FakeTurn[]> = {
  'Make the greeting friendlier': [
    { ...call('read_file', { path: 'src/greet.js' }, 'I will read `src/greet.js` first.'), chunkChars: 4, delayMs: 20 },
    call('write_file', { path: 'src/greet.js', content: CHANGED }, 'Now I change the greeting.'),
    finish('Changed `greet` to use a template string with an exclamation mark.'),
  ],
  'Run the slow script': [
    call('run_command', {
      command: 'echo $$ > .pids; (sleep 317; echo late) & echo $! >> .pids; sleep 318 & echo $! >> .pids; echo started; wait',
      timeout_seconds: 600,
    }),
    finish('The script ended.'),
  ],
  'Show me something odd': [{ text: HOSTILE }],
  'Check the project': [
    {
      ...call('list_files', { path: '.', recursive: true }, '## Plan\n\n1. Look at the files\n2. Run the tests\n\n```js\ngreet("Ada")\n```'),
      chunkChars: 6,
      delayMs: 10,
    },
    call('run_command', { command: 'npm test' }, 'Running the tests.'),
    finish('The project has **one** function and its test passes:\n\n- `src/greet.js`\n- `test/greet.test.js`'),
  ],
};

function scriptFor(request: RecordedRequest): FakeTurn {
  const messages = request.body?.messages ?? [];
  const task = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const key = Object.keys(SCRIPTS).find((k) => task.startsWith(k));
  if (!key) return { status: 500, body: { error: { message: `e2e fake: no script for task ${JSON.stringify(task.slice(0, 80))}` } } };
  const turn = messages.filter((m) => m.role === 'assistant').length;
  return SCRIPTS[key]![turn] ?? finish('Done.');
}

/** Live (non-zombie) processes whose command line contains `needle`. */
function liveProcesses(needle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmdline.includes(needle) && state !== 'Z') pids.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

async function textOf(frame: Frame): Promise<string> {
  try {
    return await frame.evaluate(() => document.body.innerText);
  } catch {
    return ''; // the webview reloaded (hidden, then shown again); callers poll
  }
}

describe('Stepwise in a real VS Code workbench (code-server + chromium)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAIServer;
  let wb: Workbench;
  let sidebar: Frame;

  before(async () => {
    fake = await startFakeOpenAI((request) => scriptFor(request));
    wb = await openWorkbench({
      settings: {
        'stepwise.baseUrl': fake.url,
        'stepwise.plan.mode': 'never',
        'stepwise.approvals.autoApprove': ['read', 'command'],
        // The sample has an `npm test` script: with verification on, the first finish after the edit
        // would be answered with a note asking for it (tested in test/integration/checkpoints).
        'stepwise.verify.mode': 'off',
      },
      // As with `npm start`: the key reaches the extension host through its environment, never settings.json.
      env: { OPENAI_API_KEY: 'sk-e2e-test-key-000000000000' },
    });
    sidebar = await openSidebar(wb.page);
  });

  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, wb, 'failed');
  });

  after(async () => {
    await wb?.close();
    await fake?.close();
  });

  /** The panel's text now (its webview may have been reloaded since last time). */
  async function panelText(): Promise<string> {
    return textOf(await panelFrame(wb.page));
  }

  /** Whether the panel shows an element matching `selector` now. */
  async function panelHas(selector: string): Promise<boolean> {
    try {
      return (await (await panelFrame(wb.page, 5_000)).$(selector)) !== null;
    } catch {
      return false;
    }
  }

  async function submitTask(text: string): Promise<void> {
    const newTask = sidebar.locator('[data-action="new-task"]');
    if (await newTask.isVisible()) await newTask.click();
    await sidebar.selectOption('[data-role="plan-mode"]', 'never');
    const input = sidebar.locator('[data-role="task-input"]');
    await input.fill(text);
    await input.press('Enter');
    // A direct task opens no panel by itself: the sidebar's button opens it (once; it then follows the shown task).
    await until(`the sidebar to show "${text}"`, async () => (await textOf(sidebar)).includes(text));
    await showTaskPanel(wb.page, sidebar);
    await until(`the panel to show "${text}"`, async () => (await panelText()).includes(text));
  }

  it('runs a task typed in the sidebar: cards stream in the panel, the edit is approved in the diff, then undone', async () => {
    const greet = path.join(wb.workspace, 'src', 'greet.js');
    assert.equal(readFileSync(greet, 'utf8'), ORIGINAL);
    await submitTask('Make the greeting friendlier');

    // The edit waits for approval in a diff editor with labelled Keep / Undo in its title bar.
    const accept = wb.page.locator('.editor-actions .action-item', { hasText: /^Keep/ }).first();
    await accept.waitFor({ timeout: 60_000 });
    assert.equal(readFileSync(greet, 'utf8'), ORIGINAL, 'nothing is written before approval');
    // Meanwhile the panel (beside the diff) shows the streamed text and the tool cards.
    await until('the read_file card', async () => (await panelText()).includes('read_file'));
    await until('the streamed text', async () => (await panelText()).includes('I will read'));
    await until('the write_file card', async () => (await panelText()).includes('write_file'));
    await screenshots(wb.page, 'review');
    await accept.click();
    await until('greet.js changed on disk', () => readFileSync(greet, 'utf8') === CHANGED);
    await until('the finished outcome', async () => panelHas('.outcome-finished'));
    assert.match(await panelText(), /template string/);

    // "Undo" on the outcome card restores the file.
    await (await panelFrame(wb.page)).locator('.outcome-finished [data-action="undo"]').click();
    // It asks first, saying how many files.
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    assert.match((await dialog.textContent()) ?? '', /1 file/);
    await dialog.locator('a.monaco-button', { hasText: 'Undo Changes' }).click();
    await until('greet.js restored', () => readFileSync(greet, 'utf8') === ORIGINAL);
    await until('the timeline says what was undone', async () => (await panelText()).includes('Undone: src/greet.js'));
  });

  it('stops a long-running command and leaves no process behind', async () => {
    await submitTask('Run the slow script');
    const pidsFile = path.join(wb.workspace, '.pids');
    await until('the script to start', () => existsSync(pidsFile) && readFileSync(pidsFile, 'utf8').trim().split('\n').length === 3);
    await until('the command output in the panel', async () => (await panelText()).includes('started'));
    assert.ok(liveProcesses('sleep 318').length > 0, 'the command is running');
    await sidebar.locator('[data-action="stop"]').click();
    await until('the cancelled outcome', async () => panelHas('.outcome-cancelled'));
    const pids = readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number);
    await until('the process tree to be gone', () => pids.every((pid) => liveProcesses('').indexOf(pid) === -1));
    assert.deepEqual(liveProcesses('sleep 317'), []);
    assert.deepEqual(liveProcesses('sleep 318'), []);
  });

  it('shows a model message with <script> / onerror / javascript: safely and runs nothing', async () => {
    await submitTask('Show me something odd');
    await until('the message', async () => (await panelText()).includes('Careful:'));
    await until('the sidebar to show it too', async () => (await textOf(sidebar)).includes('Careful:'));
    for (const frame of [await panelFrame(wb.page), sidebar]) {
      const found = await frame.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        onerror: document.querySelectorAll('[onerror]').length,
        images: document.querySelectorAll('img[src="x"]').length,
        jsLinks: document.querySelectorAll('a[href^="javascript:"]').length,
        scripts: Array.from(document.querySelectorAll("script")).filter((s) => s.textContent?.includes('__pwned')).length,
      }));
      assert.deepEqual(found, { pwned: undefined, onerror: 0, images: 0, jsLinks: 0, scripts: 0 });
      assert.match(await textOf(frame), /Careful:.*bait/s, 'the rest of the message is shown');
      // The markup the model wrote is shown as the text it is.
      assert.match(await textOf(frame), /<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2<\/script>/, 'the payload renders as text');
    }
    // Clicking what was a javascript: link runs nothing either.
    const panel = await panelFrame(wb.page);
    await panel.locator('text=bait').first().click();
    assert.equal(await panel.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });

  it('looks right in a dark and a light theme (screenshots in test-artifacts/e2e)', async () => {
    await submitTask('Check the project');
    await until('the finished outcome', async () => panelHas('.outcome-finished'));
    await until('the test output', async () => (await panelText()).includes('pass'));
    await hideBottomPanel(wb.page);
    const dark = await screenshots(wb.page, 'dark');
    await pickColorTheme(wb.page, 'Light Modern');
    await until('the light theme', async () => wb.page.evaluate(() => document.querySelector('.monaco-workbench')?.classList.contains('vs') ?? false));
    // Webviews get the new theme variables a moment after the workbench.
    await until('the panel in the light theme', async () => (await panelFrame(wb.page)).evaluate(() => document.body.classList.contains('vscode-light')));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const light = await screenshots(wb.page, 'light');
    for (const file of [...dark, ...light]) assert.ok(existsSync(file), `${file} saved`);
  });
});
