// Drives the real VS Code workbench (code-server) with Debian chromium: start with the packaged VSIX installed,
// run palette commands, find the Stepwise webviews (two iframes deep), switch themes, take screenshots.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium } from '../../host/browser';
import { installVsix, newRunDir, REPO_ROOT, startCodeServer, type CodeServer } from '../../host/codeServer';
import { createSampleWorkspace } from '../../host/sampleWorkspace';

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'e2e');

/** The VSIX `npm run package` built (STEPWISE_VSIX overrides). */
export function builtVsix(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = process.env.STEPWISE_VSIX ?? path.join(REPO_ROOT, `${pkg.name}-${pkg.version}.vsix`);
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\` first`);
  return vsix;
}

/** A running workbench: code-server with Stepwise installed, and a chromium page on it. */
export interface Workbench {
  server: CodeServer;
  browser: Browser;
  page: Page;
  workspace: string;
  runDir: string;
  /** Rewrites the user settings (merged); the workbench picks the change up live. */
  updateSettings(settings: Record<string, unknown>): void;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts code-server with the VSIX installed on a fresh sample workspace and opens the workbench. */
export async function openWorkbench(
  options: {
    settings?: Record<string, unknown>;
    env?: Record<string, string>;
    workspaceTrust?: boolean;
    /** Extra workspace files (relative path -> text), written before the workbench starts. */
    files?: Record<string, string>;
    /** Further VSIX files to install beside Stepwise (test-only extensions). */
    extraVsix?: string[];
  } = {},
): Promise<Workbench> {
  const runDir = newRunDir('e2e');
  const workspace = createSampleWorkspace(path.join(runDir, 'workspace'));
  for (const [rel, text] of Object.entries(options.files ?? {})) {
    const file = path.join(workspace, ...rel.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  await installVsix(runDir, builtVsix());
  for (const vsix of options.extraVsix ?? []) await installVsix(runDir, vsix);
  const server = await startCodeServer({
    runDir,
    settings: { 'workbench.colorTheme': 'Default Dark Modern', ...options.settings },
    env: options.env ?? {},
    workspaceTrust: options.workspaceTrust ?? false,
  });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.goto(server.workbenchUrl(workspace));
    await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 60_000 });
    const settingsFile = path.join(server.userDataDir, 'User', 'settings.json');
    const opened = browser;
    return {
      server,
      browser: opened,
      page,
      workspace,
      runDir,
      updateSettings(settings) {
        const current = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
        writeFileSync(settingsFile, JSON.stringify({ ...current, ...settings }, null, 2));
      },
      async close() {
        await opened.close().catch(() => {});
        await server.stop();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => {});
    await server.stop();
    throw error;
  }
}

/** Runs a command from the palette by its title; retries while the extension host is still contributing it. */
export async function runCommand(page: Page, title: string, attempts = 30): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${title}`);
    try {
      // Click the row itself: Enter would run whichever row the fuzzy match put first.
      const row = page.locator(`.quick-input-list .monaco-list-row[aria-label^="${title}"]`).first();
      await row.waitFor({ timeout: 2_000 });
      await row.click();
      return;
    } catch {
      await page.keyboard.press('Escape');
      await sleep(500);
    }
  }
  throw new Error(`command "${title}" never appeared in the palette`);
}

/** The first frame (any depth) that has `selector`, polled until `timeoutMs`. */
export async function frameWith(page: Page, selector: string, timeoutMs = 30_000): Promise<Frame> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    for (const frame of page.frames()) {
      try {
        if (await frame.$(selector)) return frame;
      } catch {
        // frames come and go while webviews load
      }
    }
    await sleep(200);
  }
  throw new Error(`no frame has ${selector}; frames:\n${page.frames().map((f) => f.url().slice(0, 120)).join('\n')}`);
}

/**
 * Opens the Stepwise view container and returns the sidebar chat's frame. Its activity-bar item
 * toggles, and after a reload the container may come back active with the side bar shown or hidden,
 * so each try acts on what it sees and checks the result: the chat already there is returned; an
 * active item with no chat goes through the palette ("View: Show Stepwise"), else a click.
 */
export async function openSidebar(page: Page): Promise<Frame> {
  const item = page.locator('.part.activitybar .action-item a[aria-label^="Stepwise"], .part.activitybar .action-item[aria-label^="Stepwise"] a').first();
  for (let attempt = 0; attempt < 4; attempt++) {
    const chat = await frameWith(page, '[data-role="task-input"]', attempt === 0 ? 3_000 : 15_000).catch(() => undefined);
    if (chat) return chat;
    try {
      await item.waitFor({ timeout: 30_000 });
      const active = await item.evaluate((a) => a.closest('.action-item')?.classList.contains('checked') === true);
      // Alternate on retries: whichever of the two left the side bar closed, the other opens it.
      if (active !== (attempt % 2 === 1)) await runCommand(page, 'View: Show Stepwise');
      else await item.click();
    } catch {
      await runCommand(page, 'View: Show Stepwise');
    }
  }
  return frameWith(page, '[data-role="task-input"]', 60_000);
}

/** The task panel's frame (the panel opens when a task starts). */
export function panelFrame(page: Page, timeoutMs = 60_000): Promise<Frame> {
  return frameWith(page, '[data-role="task-title"]', timeoutMs);
}

/** The task panel's frame; a direct task opens no panel by itself, so the sidebar's panel button opens it. */
export async function showTaskPanel(page: Page, sidebar: Frame): Promise<Frame> {
  const open = await panelFrame(page, 5_000).catch(() => undefined);
  if (open) return open;
  const button = sidebar.locator('[data-action="show-panel"]');
  await button.waitFor({ state: 'visible', timeout: 60_000 });
  await button.click();
  return panelFrame(page);
}

/**
 * In an `afterEach`: when the test failed, saves screenshots named `<prefix>-<test title>` and returns
 * that name (so `after` can keep the run folder); `undefined` when it passed or no workbench is open.
 */
export async function screenshotIfFailed(test: Mocha.Test | undefined, wb: Workbench | undefined, prefix: string): Promise<string | undefined> {
  if (test?.state !== 'failed' || !wb) return undefined;
  const name = `${prefix}-${(test.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 50) || 'test').toLowerCase()}`;
  await screenshots(wb.page, name).catch(() => {});
  return name;
}

/** Polls `check` until truthy. */
export async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 60_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Picks a color theme through the palette (the way a person does), e.g. `Light Modern`. */
export async function pickColorTheme(page: Page, label: string): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.fill(label);
  const row = page.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}"]`).first();
  await row.waitFor({ timeout: 10_000 });
  await row.click();
}

/** Hides the bottom panel (terminal) so screenshots show the sidebar and the task panel at full height. */
export async function hideBottomPanel(page: Page): Promise<void> {
  if (await page.locator('.part.panel.bottom').isVisible()) await runCommand(page, 'View: Hide Panel', 3).catch(() => runCommand(page, 'View: Close Panel', 3));
}

/** Saves a screenshot of the whole window and of the sidebar and editor (panel) parts. */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Let a closing palette finish fading out.
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
  // Park the pointer on the empty title bar: a hover tooltip left over from the last click would cover the views.
  await page.mouse.move(page.viewportSize()!.width - 260, 6);
  await sleep(400);
  const files = [path.join(ARTIFACTS, `${name}-window.png`), path.join(ARTIFACTS, `${name}-sidebar.png`), path.join(ARTIFACTS, `${name}-panel.png`)];
  await page.screenshot({ path: files[0] });
  await page.locator('.part.sidebar').screenshot({ path: files[1] });
  await page.locator('.part.editor').screenshot({ path: files[2] });
  return files;
}
