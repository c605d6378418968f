// MCP servers in the real workbench (issue 5, acceptance 5): a workspace's `.vscode/mcp.json` (VS Code's format) starts
// the reference server-everything over stdio once the user trusts it (issue 8); the sidebar's MCP SERVERS section shows it connected with its tools, and
// Restart replaces the server process. Run with `npm run test:e2e`.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { REPO_ROOT } from '../host/codeServer';
import { closeAndRemove } from './support/cleanup';
import { descendantProcesses, isAlive } from './support/processes';
import { textOf } from './support/webviewDom';
import { openSidebar, openWorkbench, pickColorTheme, screenshots, until, type Workbench, screenshotIfFailed } from './support/workbench';

const SERVER_JS = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
// `node` as a user writes it: in the extension host Stepwise runs it with the editor's own runtime as plain Node.
const MCP_JSON = JSON.stringify({ servers: { everything: { type: 'stdio', command: 'node', args: [SERVER_JS, 'stdio'] } } }, null, 2);
const ROW = 'li.mcp-server[data-server="everything"]';

/** The server row's status in the sidebar, or '' when it is not shown (or the webview reloads). */
async function rowStatus(sidebar: Frame): Promise<string> {
  return sidebar.evaluate((row) => document.querySelector<HTMLElement>(row)?.dataset.status ?? '', ROW).catch(() => '');
}

/** The short tool names listed under the server. */
async function listedTools(sidebar: Frame): Promise<string[]> {
  return sidebar.evaluate((row) => Array.from(document.querySelectorAll(`${row} .mcp-tool-list code`)).map((c) => c.textContent ?? ''), ROW);
}

/** The server-everything processes the workbench started. */
function serverProcesses(wb: Workbench): number[] {
  return descendantProcesses(wb.server.pid, SERVER_JS).map((p) => p.pid);
}

/** Opens the MCP section (collapsed while all is well) and the server's tool list. */
async function expandServer(sidebar: Frame): Promise<void> {
  const toggle = sidebar.locator('[data-action="mcp-toggle"]');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const tools = sidebar.locator(`${ROW} details[data-role="mcp-tools"]`);
  if (!(await tools.evaluate((d) => (d as HTMLDetailsElement).open))) await tools.locator('summary').click();
  await until('the tool list', async () => (await listedTools(sidebar)).length > 0, 10_000);
}

describe('MCP servers from .vscode/mcp.json in the real workbench', function () {
  this.timeout(300_000);
  let wb: Workbench | undefined;
  let sidebar: Frame;
  let failed: string | undefined;
  /** Every server process seen, to check none is left behind. */
  const seen = new Set<number>();

  before(async () => {
    assert.ok(existsSync(SERVER_JS), `${SERVER_JS} is installed`);
    wb = await openWorkbench({ files: { '.vscode/mcp.json': MCP_JSON } });
    sidebar = await openSidebar(wb.page);
  });

  afterEach(async function () {
    failed = (await screenshotIfFailed(this.currentTest, wb, 'failed-mcp')) ?? failed;
  });

  after(async () => {
    for (const pid of wb ? serverProcesses(wb) : []) seen.add(pid);
    await closeAndRemove(wb, failed);
    // Stopping code-server ends its process group; the MCP server it spawned must not outlive it.
    await until('the MCP server processes to end', () => [...seen].every((pid) => !isAlive(pid)), 15_000);
  });

  it('starts the workspace server only once the user trusts it, then shows it connected with its tools', async () => {
    const w = wb!;
    // A server from the workspace's mcp.json is code the repository asks to run: the user is asked first.
    const trust = w.page.locator('.notifications-toasts .notification-toast', { hasText: 'workspace MCP server "everything"' });
    await trust.waitFor({ timeout: 90_000 });
    assert.match((await trust.textContent()) ?? '', /\.vscode\/mcp\.json.*wants to run: node \S*server-everything\S*index\.js stdio/);
    assert.deepEqual(serverProcesses(w), [], 'nothing runs before the user trusts it');
    await screenshots(w.page, 'mcp-trust-question');
    await trust.locator('.monaco-button', { hasText: 'Trust and Start' }).click();
    await until('the server to connect', async () => (await rowStatus(sidebar)) === 'connected', 90_000);
    const pids = serverProcesses(w);
    pids.forEach((pid) => seen.add(pid));
    assert.equal(pids.length, 1, 'one server-everything process, started by the extension host');

    const summary = await sidebar.locator('[data-role="mcp-summary"]').textContent();
    assert.equal(summary, '1/1 connected');
    await expandServer(sidebar);
    const tools = await listedTools(sidebar);
    for (const name of ['echo', 'get-sum']) assert.ok(tools.includes(name), `${name} is listed (got ${tools.join(', ')})`);
    const row = await textOf(sidebar);
    assert.match(row, /Connected/);
    assert.match(row, new RegExp(`${tools.length} tools`), 'the count matches the list');
    assert.match(row, /mcp\.json/, 'where the server comes from');

    await screenshots(w.page, 'mcp-dark');
    await pickColorTheme(w.page, 'Light Modern');
    await until('the sidebar in the light theme', async () => sidebar.evaluate(() => document.body.classList.contains('vscode-light')).catch(() => false));
    await screenshots(w.page, 'mcp-light');
  });

  it('restarts the server: the state goes through connecting and back to connected, with a new process', async () => {
    const w = wb!;
    const [before] = serverProcesses(w);
    assert.ok(before, 'the server runs');
    // Record every state the row shows from now on (the change can be quick).
    // A string, not a function: tsx's name helpers do not exist inside the webview.
    await sidebar.evaluate(`(() => {
      const states = (window.__mcpStates = []);
      const record = () => {
        const status = document.querySelector(${JSON.stringify(ROW)})?.dataset.status;
        if (status && states.at(-1) !== status) states.push(status);
      };
      record();
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
    })()`);
    await sidebar.locator(`${ROW} [data-action="mcp-restart"]`).click();

    const states = () => sidebar.evaluate(() => (window as unknown as { __mcpStates: string[] }).__mcpStates);
    await until('connected again after a restart', async () => {
      const s = await states();
      return s.length >= 3 && s.at(-1) === 'connected';
    }, 90_000);
    const shown = await states();
    assert.equal(shown[0], 'connected');
    assert.ok(shown.slice(1, -1).every((s) => s === 'connecting' || s === 'restarting'), `states shown: ${shown.join(' -> ')}`);

    await until('the old process to end', () => !isAlive(before), 15_000);
    const after = serverProcesses(w);
    after.forEach((pid) => seen.add(pid));
    assert.equal(after.length, 1, 'one server process again');
    assert.notEqual(after[0], before, 'a new process');
    // The tools are back (the list stays open across the redraws).
    await expandServer(sidebar);
    assert.ok((await listedTools(sidebar)).includes('echo'));
    assert.equal(await sidebar.locator(`${ROW} [data-action="mcp-restart"]`).isEnabled(), true, 'Restart can be pressed again');
  });
});
