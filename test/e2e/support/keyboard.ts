// Keyboard-only driving of the workbench and its webviews, and theme switches that do not move the focus.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { screenshots, until, type Workbench } from './workbench';

/** Runs a palette command with keys only: F1, type the title, wait until it is the first row, Enter. */
export async function runCommandByKeys(page: Page, title: string, attempts = 20): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Control+A');
    await page.keyboard.type(`>${title}`);
    try {
      await until(`"${title}" first in the palette`, async () => {
        const first = await page.locator('.quick-input-list .monaco-list-row').first().getAttribute('aria-label').catch(() => null);
        return first?.startsWith(title) ?? false;
      }, 3_000);
      await page.keyboard.press('Enter');
      return;
    } catch {
      await page.keyboard.press('Escape');
    }
  }
  throw new Error(`command "${title}" never came first in the palette`);
}

/** The webview frame whose document has the keyboard focus on an element matching `selector`, if any. */
export async function focusedFrame(page: Page, selector: string): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    try {
      if (await frame.evaluate((sel) => document.hasFocus() && document.activeElement?.matches(sel) === true, selector)) return frame;
    } catch {
      // frames come and go while webviews load
    }
  }
  return undefined;
}

/** Waits until the keyboard focus is on `selector` inside some webview; returns that frame. */
export function waitForFocus(page: Page, selector: string, what: string, timeoutMs = 60_000): Promise<Frame> {
  return until(`the focus on ${what}`, () => focusedFrame(page, selector), timeoutMs);
}

/** The themes the screenshots cover, with the workbench class each one sets. */
export const THEMES = [
  { name: 'dark', setting: 'Default Dark Modern', workbenchClass: 'vs-dark' },
  { name: 'light', setting: 'Default Light Modern', workbenchClass: 'vs' },
  { name: 'hc-light', setting: 'Default High Contrast Light', workbenchClass: 'hc-light' },
  { name: 'hc-dark', setting: 'Default High Contrast', workbenchClass: 'hc-black' },
] as const;

/**
 * Screenshots in each theme, switched through the settings file (the palette would take the
 * focus away from a webview); leaves the last theme on. Returns the files.
 */
export async function shotsInThemes(wb: Workbench, name: string, themes: readonly (typeof THEMES)[number][] = THEMES): Promise<string[]> {
  const files: string[] = [];
  for (const theme of themes) {
    // The workspace's settings file: the workbench watches it and applies a theme change live.
    mkdirSync(path.join(wb.workspace, '.vscode'), { recursive: true });
    writeFileSync(path.join(wb.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': theme.setting }, null, 2));
    await until(`the ${theme.name} theme`, () => wb.page.evaluate((cls) => document.querySelector('.monaco-workbench')?.classList.contains(cls) ?? false, theme.workbenchClass));
    // Webviews get the new theme variables a moment after the workbench.
    await new Promise((resolve) => setTimeout(resolve, 800));
    files.push(...(await screenshots(wb.page, `${name}-${theme.name}`)));
  }
  return files;
}
