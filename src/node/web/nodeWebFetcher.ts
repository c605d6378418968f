import type { WebHostPolicy } from '../../agent/web/hostPolicy';
import { WebRequestError, type FetchedPage, type WebFetcher } from '../../agent/web/webPorts';
import { convertHtmlBounded } from './boundedHtml';
import { isHtmlType } from './isHtmlType';
import { loadWebParsers } from './loadWebParsers';
import { egressRequest } from './egress';
import type { Resolver } from './safeHttp';
import { sniffContent } from './sniffContent';

/** Limits of the fetcher; the defaults suit interactive use. */
export interface NodeWebFetcherOptions {
  policy: WebHostPolicy;
  resolver?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

/** Defaults: 30 s per fetch, 5 MB of body, 5 redirects. */
export const FETCH_DEFAULTS = { timeoutMs: 30_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };
const USER_AGENT = 'Mozilla/5.0 (compatible; Stepwise/0.1; +https://github.com/stepwise) web_fetch';

/** Content types passed through as text (besides `text/*`). */
const TEXTUAL = /^(application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|sql|graphql)|text\/)/i;

/** The refusal for a binary content type, or `undefined` for text. */
export function binaryRefusal(contentType: string, url: string): string | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!type || TEXTUAL.test(type) || isHtmlType(type)) return undefined;
  const what = type === 'application/pdf' ? 'a PDF document' : type.startsWith('image/') ? 'an image' : `binary content (${type})`;
  return `${url} is ${what}; web_fetch reads only HTML, JSON and text. Find an HTML version of the page, or download it with run_command if you really need the file.`;
}

/** The refusal for bytes the sniffer finds binary, whatever the server declared; `undefined` for text. */
export function sniffedRefusal(body: Uint8Array, contentType: string, url: string): string | undefined {
  const sniffed = sniffContent(body, contentType);
  if (!sniffed.binary) return undefined;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const served = type ? `served as ${/^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'an unreadable type'}` : 'served without a Content-Type';
  return `${url} is ${sniffed.what} (${served}); web_fetch reads only HTML, JSON and text, and binary content never reaches you as text. Find an HTML version of the page, or download it with run_command if you really need the file.`;
}

/** `WebFetcher` over the egress client (`egressRequest`): HTML becomes readable markdown, JSON is pretty-printed, text passes through. */
export class NodeWebFetcher implements WebFetcher {
  constructor(private readonly options: NodeWebFetcherOptions) {}

  async fetch(url: string, signal: AbortSignal): Promise<FetchedPage> {
    // One time limit for the whole fetch: what the download leaves is the conversion's budget.
    const timeoutMs = this.options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs;
    const started = Date.now();
    const response = await egressRequest(
      url,
      {
        policy: this.options.policy,
        resolver: this.options.resolver,
        timeoutMs,
        maxBytes: this.options.maxBytes ?? FETCH_DEFAULTS.maxBytes,
        maxRedirects: this.options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects,
        overflow: 'cut',
        headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5' },
        refuseType: binaryRefusal,
      },
      signal,
    );
    // The bytes decide, not the header: a PNG served without (or with a false) Content-Type is still a PNG.
    const refusal = sniffedRefusal(response.body, response.contentType, response.url);
    if (refusal) throw new WebRequestError(refusal);
    const { decodeText } = loadWebParsers();
    const text = decodeText(response.body, response.contentType);
    const base = {
      url: response.url,
      status: response.status,
      contentType: response.contentType || 'unknown',
      ...(response.truncated ? { truncatedAtBytes: response.body.length } : {}),
    };
    const type = response.contentType.split(';')[0]!.trim().toLowerCase();
    if (isHtmlType(type) || (!type && /^\s*<(!doctype html|html)/i.test(text))) {
      const page = await convertHtmlBounded(text, response.url, { timeMs: timeoutMs - (Date.now() - started), signal });
      return { ...base, format: page.format, text: page.markdown, ...(page.title ? { title: page.title } : {}), ...(page.note ? { note: page.note } : {}) };
    }
    if (/json/.test(type)) return { ...base, format: 'json', text: prettyJson(text) };
    return { ...base, format: 'text', text };
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
