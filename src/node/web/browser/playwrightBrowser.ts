import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { CancelledError } from '../../../agent/errors';
import type { Logger } from '../../../agent/ports';
import type { WebHostPolicy } from '../../../agent/web/hostPolicy';
import { WebRequestError, type BrowserAction, type BrowserObservation, type BrowserSession, type ElementTarget } from '../../../agent/web/webPorts';
import { nodeChildEnvironment } from '../../childEnv';
import type { Resolver } from '../safeHttp';
import { EgressProxy } from './egressProxy';
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

/** Flags that force every connection Chromium makes through the session's egress proxy. */
export function egressFlags(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    // Chromium sends loopback straight out by default; `<-loopback>` takes it back through the proxy.
    '--proxy-bypass-list=<-loopback>',
    // Nothing resolves names outside the proxy (prefetch, preconnect): only the proxy's own address is reachable.
    `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${new URL(proxyUrl).hostname}`,
    // WebRTC may only use the proxy (TCP), never UDP of its own.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--disable-quic',
  ];
}

/** How the task's browser is found, what it may reach, and its time and byte limits. */
export interface PlaywrightBrowserOptions {
  policy: WebHostPolicy;
  resolver?: Resolver;
  /** A configured executable (setting / flag); else one is looked for. */
  executablePath?: string;
  /** Per Playwright operation (click, navigation…); default 15 s. */
  actionTimeoutMs?: number;
  /** A whole action, snapshot included; past it the page is closed; default 45 s. */
  actionDeadlineMs?: number;
  /** Bytes through the proxy per action (both ways); past it the page's connections are cut; default 64 MB. */
  maxBytesPerAction?: number;
  logger?: Logger;
}

const MAX_ASKED = 2_000;

/** The browser of one task: its process, its egress proxy and its page. */
interface Running {
  browser: Browser;
  proxy: EgressProxy;
  context: BrowserContext;
  page?: Page;
  /** URLs the pages asked for in this action (to name the refused ones; the browser's own background traffic is not here). */
  asked: Set<string>;
}

/**
 * The `BrowserSession` of one task over `playwright-core` and a Chromium-family browser already on
 * the machine (Playwright never downloads one here). Started on the first action together with its
 * `EgressProxy`: Chromium's only way out, which checks every request, redirect hop, frame, worker
 * and WebSocket against the host policy. A page whose URL the proxy refused is reported, never
 * snapshotted. Each action has a deadline and a byte budget. An aborted action closes the browser,
 * so no browser process (nor proxy) outlives a cancelled task.
 */
export class PlaywrightBrowserSession implements BrowserSession {
  private running: Running | undefined;
  private starting: Promise<Running> | undefined;
  private closed = false;

  constructor(private readonly options: PlaywrightBrowserOptions) {}

  async run(action: BrowserAction, signal: AbortSignal): Promise<BrowserObservation> {
    if (signal.aborted) throw new CancelledError();
    if (this.closed) throw new WebRequestError('The browser of this task was closed.');
    const onAbort = () => void this.close();
    signal.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const limit = this.options.actionDeadlineMs ?? 45_000;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineError(`The browser ${action.action} took longer than ${Math.round(limit / 1000)} s and was stopped; the page was closed.`)), limit);
    });
    try {
      const running = await this.start();
      running.proxy.beginWindow();
      running.asked.clear();
      return await Promise.race([this.act(running, action), deadline]);
    } catch (error) {
      if (signal.aborted) throw new CancelledError();
      if (error instanceof DeadlineError) await this.dropPage();
      if (error instanceof WebRequestError) throw error;
      throw new WebRequestError(this.failure(action, error as Error));
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Ends the browser process and its proxy; later actions fail with a clear message. */
  async close(): Promise<void> {
    this.closed = true;
    const running = this.running ?? (await this.starting?.catch(() => undefined));
    this.running = undefined;
    if (!running) return;
    await running.browser.close().catch((error: unknown) => this.options.logger?.warn('browser close failed', error));
    await running.proxy.close();
  }

  private start(): Promise<Running> {
    this.starting ??= this.launch();
    return this.starting;
  }

  private async launch(): Promise<Running> {
    const executablePath = findBrowser(this.options.executablePath);
    if (!executablePath) throw new WebRequestError(noBrowserMessage(this.options.executablePath));
    const { chromium } = await import('playwright-core');
    const proxy = await EgressProxy.start({ policy: this.options.policy, resolver: this.options.resolver, maxBytes: this.options.maxBytesPerAction, logger: this.options.logger });
    const browser = await chromium
      .launch({
        executablePath, args: [...CHROMIUM_FLAGS, ...egressFlags(proxy.url)], headless: true, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
        // The one builder: no API key or other secret in the browser's environment.
        env: nodeChildEnvironment({ kind: 'browser' }),
      })
      .catch(async (error: unknown) => {
        await proxy.close();
        throw error;
      });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: false, serviceWorkers: 'block' });
    context.setDefaultTimeout(this.options.actionTimeoutMs ?? 15_000);
    const asked = new Set<string>();
    const note = (url: string) => void (asked.size < MAX_ASKED && asked.add(url));
    context.on('request', (request) => note(request.url()));
    context.on('page', (page) => page.on('websocket', (socket) => note(socket.url())));
    this.running = { browser, proxy, context, asked };
    if (this.closed) {
      await this.close();
      throw new CancelledError();
    }
    return this.running;
  }

  /** The page, opened again after a deadline closed it. */
  private async page(running: Running): Promise<Page> {
    running.page ??= await running.context.newPage();
    return running.page;
  }

  /** Closes a page that did not finish in time (a busy renderer does not answer any more). */
  private async dropPage(): Promise<void> {
    const page = this.running?.page;
    if (!page || !this.running) return;
    this.running.page = undefined;
    await page.close({ runBeforeUnload: false }).catch(() => undefined);
  }

  private async act(running: Running, action: BrowserAction): Promise<BrowserObservation> {
    const page = await this.page(running);
    await perform(page, action);
    await this.guard(page);
    const observation = await observe(page, action);
    // The page may have moved (meta refresh, script) while it was being read.
    await this.guard(page);
    const refused: string[] = [];
    for (const url of running.asked) {
      const reason = url === observation.url ? undefined : running.proxy.refusalFor(url);
      if (reason !== undefined && refused.length < 10) refused.push(`${url}: ${reason.replace(/^Refused: /, '')}`);
    }
    return refused.length ? { ...observation, refused } : observation;
  }

  /** Refuses to show a page the proxy refused (by its URL) or cut short (byte budget); the tab is emptied. */
  private async guard(page: Page): Promise<void> {
    const reason = this.pageRefusal(page);
    if (reason === undefined) return;
    await page.goto('about:blank', { timeout: 5_000 }).catch(() => undefined);
    throw new WebRequestError(reason);
  }

  private pageRefusal(page: Page | undefined): string | undefined {
    const proxy = this.running?.proxy;
    if (!proxy || !page) return undefined;
    if (proxy.overBudget()) return proxy.budgetMessage();
    const url = page.url();
    const reason = proxy.refusalFor(url);
    return reason === undefined ? undefined : `Refused: ${url}: ${reason.replace(/^Refused: /, '')}`;
  }

  /** Why an action failed: the refused or cut page when that is the cause, else Playwright's first line. */
  private failure(action: BrowserAction, error: Error): string {
    const page = this.pageRefusal(this.running?.page);
    if (page) return page;
    const message = (error.message ?? String(error)).split('\n')[0]!;
    return `Browser ${action.action} failed: ${message}`;
  }
}

/** A whole action took longer than its deadline. */
class DeadlineError extends WebRequestError {}

/** Runs one action on the page. */
async function perform(page: Page, action: BrowserAction): Promise<void> {
  switch (action.action) {
    case 'navigate':
      requireWebUrl(action.url);
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

/** Only web pages are opened: `file:`, `chrome:` and the like never reach the proxy, so they are refused here. */
function requireWebUrl(raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebRequestError(`Not a valid URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebRequestError(`Only http and https pages can be opened, not ${url.protocol}`);
}

/** The page's final URL (after redirects, meta refresh, scripts), title, and snapshot or screenshot. */
async function observe(page: Page, action: BrowserAction): Promise<BrowserObservation> {
  const base = { url: page.url(), title: await page.title().catch(() => '') };
  if (action.action === 'screenshot') {
    const png = await page.screenshot({ type: 'png' });
    return { ...base, screenshot: { mimeType: 'image/png', data: png.toString('base64') } };
  }
  const snapshot = await page.locator('body').ariaSnapshot().catch(() => '');
  return { ...base, snapshot };
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
