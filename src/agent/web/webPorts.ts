import { StepwiseError } from '../errors';

/**
 * Ports of the web tools. The core decides what may be fetched and how results are framed; the
 * Node adapters (src/node/web) do the HTTP, DNS and browser work behind these interfaces.
 */

/** A problem with a web request the model can act on (refused host, timeout, HTTP error, binary type). */
export class WebRequestError extends StepwiseError {}

/** A fetched page, already turned into text. */
export interface FetchedPage {
  /** The URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** `markdown` for HTML turned into readable markdown; `text` and `json` pass through. */
  format: 'markdown' | 'text' | 'json';
  title?: string;
  text: string;
  /** Set when the body was cut at the size cap. */
  truncatedAtBytes?: number;
  /** Our own words on how the page was read (the plain-text fallback of a page too costly to convert). */
  note?: string;
}

/** Fetches a URL; throws `WebRequestError` for refusals and failures, `CancelledError` on abort. */
export interface WebFetcher {
  fetch(url: string, signal: AbortSignal): Promise<FetchedPage>;
}

/** One search hit. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** One search engine (Tavily, Brave, SearXNG, …); throws `WebRequestError` when it fails. */
export interface SearchProvider {
  readonly name: string;
  search(query: string, count: number, signal: AbortSignal): Promise<SearchHit[]>;
}

/** How to find an element: by visible text, ARIA role (+ accessible name), form label, or a CSS selector. */
export interface ElementTarget {
  text?: string;
  role?: string;
  name?: string;
  label?: string;
  selector?: string;
}

/** One browser action, as the `browser` tool's arguments give it. */
export type BrowserAction =
  | { action: 'navigate'; url: string }
  | { action: 'click'; target: ElementTarget }
  | { action: 'type'; target: ElementTarget; text: string; submit?: boolean }
  | { action: 'select'; target: ElementTarget; option: string }
  | { action: 'scroll'; direction: 'up' | 'down' }
  | { action: 'back' }
  | { action: 'wait_for'; text: string; timeoutMs?: number }
  | { action: 'snapshot' }
  | { action: 'screenshot' };

/** What an action left: the page's URL and title, a compact snapshot, and a screenshot when asked. */
export interface BrowserObservation {
  url: string;
  title: string;
  /** Accessibility snapshot of the page (roles, names, text), possibly cut. */
  snapshot?: string;
  screenshot?: { mimeType: string; data: string };
  /** Requests the web policy refused during the action (`url: reason`), e.g. a frame or script's fetch. */
  refused?: string[];
}

/**
 * One headless browser for one task. Started on first use; `close` ends the browser process and is
 * idempotent. An aborted signal ends the running action and closes the browser.
 */
export interface BrowserSession {
  run(action: BrowserAction, signal: AbortSignal): Promise<BrowserObservation>;
  close(): Promise<void>;
}
