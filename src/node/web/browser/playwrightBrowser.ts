import type { Browser, Locator, Page } from 'playwright-core';
import { CancelledError } from '../../../agent/errors';
import type { Logger } from '../../../agent/ports';
import type { WebHostPolicy } from '../../../agent/web/hostPolicy';
import { WebRequestError, type BrowserAction, type BrowserObservation, type BrowserSession, type ElementTarget } from '../../../agent/web/webPorts';
import { nodeChildEnvironment } from '../../childEnv';
import { checkedTarget, type Resolver } from '../safeHttp';
import { findBrowser, noBrowserMessage } from './findBrowser';

/** Flags for a headless Chromium that makes no background connections of its own. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How the task's browser is found, what it may reach, and its time limits. */
export interface PlaywrightBrowserOptions {
  policy: WebHostPolicy;
  resolver?: Resolver;
  /** A configured executable (setting / flag); else one is looked for. */
  executablePath?: string;
  /** Per action (click, navigation…); default 15 s. */
  actionTimeoutMs?: number;
  logger?: Logger;
}

/**
 * The `BrowserSession` of one task over `playwright-core` and a Chromium-family browser already on
 * the machine (Playwright never downloads one here). Started on the first action; every request
 * the page makes is checked against the host policy (names resolved and addresses checked), and
 * the page's URL is checked after each action since Chromium follows redirects by itself. An
 * aborted action closes the browser, so no browser process outlives a cancelled task.
 */
export class PlaywrightBrowserSession implements BrowserSession {
  private browser: Browser | undefined;
  private starting: Promise<Page> | undefined;
  private closed = false;
  private refused: string | undefined;

  constructor(private readonly options: PlaywrightBrowserOptions) {}

  async run(action: BrowserAction, signal: AbortSignal): Promise<BrowserObservation> {
    if (signal.aborted) throw new CancelledError();
    if (this.closed) throw new WebRequestError('The browser of this task was closed.');
    const onAbort = () => void this.close();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const page = await this.page();
      this.refused = undefined;
      await this.perform(page, action);
      await this.checkLanding(page);
      return await this.observe(page, action);
    } catch (error) {
      if (signal.aborted) throw new CancelledError();
      if (error instanceof WebRequestError) throw error;
      const message = ((error as Error).message ?? String(error)).split('\n')[0]!;
      throw new WebRequestError(this.refused ?? `Browser ${action.action} failed: ${message}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Ends the browser process; later actions fail with a clear message. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = undefined;
    if (!browser) {
      // A launch in progress is closed as soon as it completes.
      await this.starting?.then((p) => p.context().browser()?.close()).catch(() => undefined);
      return;
    }
    await browser.close().catch((error: unknown) => this.options.logger?.warn('browser close failed', error));
  }

  private page(): Promise<Page> {
    this.starting ??= this.launch();
    return this.starting;
  }

  private async launch(): Promise<Page> {
    const executablePath = findBrowser(this.options.executablePath);
    if (!executablePath) throw new WebRequestError(noBrowserMessage(this.options.executablePath));
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath, args: CHROMIUM_FLAGS, headless: true, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
      // The one builder: no API key or other secret in the browser's environment.
      env: nodeChildEnvironment({ kind: 'browser' }),
    });
    if (this.closed) {
      await browser.close();
      throw new CancelledError();
    }
    this.browser = browser;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: false, serviceWorkers: 'block' });
    context.setDefaultTimeout(this.options.actionTimeoutMs ?? 15_000);
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (!/^https?:/i.test(url)) return route.continue();
      try {
        await checkedTarget(url, this.options);
        return await route.continue();
      } catch (error) {
        this.refused ??= error instanceof WebRequestError ? error.message : `Refused ${url}`;
        return route.abort('blockedbyclient');
      }
    });
    return context.newPage();
  }

  private async perform(page: Page, action: BrowserAction): Promise<void> {
    switch (action.action) {
      case 'navigate':
        await checkedTarget(action.url, this.options);
        await page.goto(action.url, { waitUntil: 'domcontentloaded' });
        return;
      case 'click':
        await locate(page, action.target, 'click').click();
        await settle(page);
        return;
      case 'type': {
        const field = locate(page, action.target, 'type');
        await field.fill(action.text);
        if (action.submit) {
          await field.press('Enter');
          await settle(page);
        }
        return;
      }
      case 'select':
        await locate(page, action.target, 'type').selectOption({ label: action.option }).catch(() => locate(page, action.target, 'type').selectOption(action.option));
        return;
      case 'scroll':
        await page.mouse.wheel(0, action.direction === 'up' ? -800 : 800);
        return;
      case 'back':
        await page.goBack({ waitUntil: 'domcontentloaded' });
        return;
      case 'wait_for':
        await page.getByText(action.text).first().waitFor({ state: 'visible', timeout: action.timeoutMs ?? 10_000 });
        return;
      default:
        return;
    }
  }

  /** Chromium follows redirects without asking the route handler: the page it landed on is checked here. */
  private async checkLanding(page: Page): Promise<void> {
    const url = page.url();
    if (!/^https?:/i.test(url)) return;
    try {
      await checkedTarget(url, this.options);
    } catch (error) {
      await page.goto('about:blank').catch(() => undefined);
      throw error;
    }
  }

  private async observe(page: Page, action: BrowserAction): Promise<BrowserObservation> {
    const base = { url: page.url(), title: await page.title().catch(() => '') };
    if (action.action === 'screenshot') {
      const png = await page.screenshot({ type: 'png' });
      return { ...base, screenshot: { mimeType: 'image/png', data: png.toString('base64') } };
    }
    const snapshot = await page.locator('body').ariaSnapshot().catch(() => '');
    return { ...base, snapshot };
  }
}

/** Waits briefly for a navigation a click or Enter may have started. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded', { timeout: 5_000 }).catch(() => undefined);
}

type AriaRole = Parameters<Page['getByRole']>[0];

/** Finds an element by role+name, label, visible text (links and buttons first), or selector. */
function locate(page: Page, target: ElementTarget, purpose: 'click' | 'type'): Locator {
  if (target.selector) return page.locator(target.selector).first();
  if (target.role) return page.getByRole(target.role as AriaRole, target.name ? { name: target.name } : {}).first();
  if (target.label) return page.getByLabel(target.label).first();
  const text = target.text ?? '';
  if (purpose === 'type') return page.getByLabel(text).or(page.getByPlaceholder(text)).first();
  return page
    .getByRole('link', { name: text })
    .or(page.getByRole('button', { name: text }))
    .or(page.getByText(text))
    .first();
}
