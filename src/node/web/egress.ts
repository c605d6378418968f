import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { CancelledError } from '../../agent/errors';
import type { WebHostPolicy } from '../../agent/web/hostPolicy';
import { WebRequestError } from '../../agent/web/webPorts';
import { checkedTarget, pinnedLookup, type Resolver, type Target } from './safeHttp';

/**
 * The one egress client: every outbound request Stepwise makes for the agent (web_fetch, the
 * search providers, MCP over HTTP through `egressFetch`) goes through `openEgress`. Every hop's URL
 * is checked and its host resolved and checked by `checkedTarget` (the egress policy), the socket
 * connects to the checked address itself (a pinned `lookup`: no DNS rebinding), redirects are
 * followed by hand and checked again, and credentials are not carried to another origin. Bodies are
 * decompressed and counted after decompression.
 */

/** What to send. */
export interface EgressSend {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** Where a request may go and how far it may follow. */
export interface EgressRoute {
  policy: WebHostPolicy;
  resolver?: Resolver | undefined;
  /** Default 5. */
  maxRedirects?: number;
  /** The origin the user configured as this endpoint (a search engine, an MCP server): reachable on any address. */
  trustedOrigin?: string | undefined;
  /** `manual` returns a redirect as it is (the MCP SDK follows its own, through this client again). */
  redirect?: 'follow' | 'manual';
}

/** An answer whose headers arrived: the final URL and the (decompressed) body stream, not yet read. */
export interface OpenedResponse {
  url: string;
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Readable;
  /** Ends the download. */
  destroy(): void;
}

export const USER_AGENT = 'Mozilla/5.0 (compatible; Stepwise/0.1; +https://github.com/stepwise)';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that may follow a redirect to another origin; credentials and custom headers (API keys) stay behind. */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'content-type', 'user-agent']);

/**
 * Sends a request through the egress policy and returns once the final answer's headers arrive.
 * `signal` covers the whole life of the request, body included. Throws `WebRequestError` for a
 * refused hop or too many redirects; other errors (network, abort) are thrown as they are.
 */
export async function openEgress(url: string, send: EgressSend, route: EgressRoute, signal: AbortSignal): Promise<OpenedResponse> {
  const policy: WebHostPolicy = route.trustedOrigin
    ? { ...route.policy, trustedOrigins: [...(route.policy.trustedOrigins ?? []), new URL(route.trustedOrigin).origin] }
    : route.policy;
  const maxRedirects = route.maxRedirects ?? 5;
  let current = { url, method: (send.method ?? 'GET').toUpperCase(), headers: send.headers ?? {}, body: send.body };
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const target = await checkedTarget(current.url, { policy, resolver: route.resolver }).catch((error: unknown) => {
      // Name the redirect: the model (and the user) see where the chain tried to go.
      throw hop > 0 && error instanceof WebRequestError ? new WebRequestError(`The redirect to ${current.url} was refused. ${error.message}`) : error;
    });
    const response = await request(target, current, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (route.redirect === 'manual' || !REDIRECTS.has(status) || !location) return opened(target.url.href, response);
    response.destroy();
    const next = new URL(location, target.url);
    // 303, and 301/302 after a POST, turn the request into a GET without a body (as browsers do).
    const toGet = status === 303 || ((status === 301 || status === 302) && current.method === 'POST');
    const sameOrigin = next.origin === target.url.origin;
    const headers = Object.fromEntries(
      Object.entries(current.headers).filter(([name]) => (sameOrigin || CROSS_ORIGIN_HEADERS.has(name.toLowerCase())) && !(toGet && name.toLowerCase() === 'content-type')),
    );
    current = { url: next.href, method: toGet ? 'GET' : current.method, headers, body: toGet ? undefined : current.body };
  }
  throw new WebRequestError(`Too many redirects (more than ${maxRedirects}) starting at ${url}.`);
}

function request(target: Target, send: Required<Pick<EgressSend, 'method' | 'headers'>> & EgressSend, signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = target.url.protocol === 'https:' ? https : http;
  const body = typeof send.body === 'string' ? Buffer.from(send.body) : send.body;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target.url,
      {
        method: send.method,
        signal,
        lookup: pinnedLookup(target.address),
        // No connection reuse: every request connects to the address checked for it.
        agent: false,
        headers: {
          'user-agent': USER_AGENT,
          'accept-encoding': 'gzip, deflate, br',
          ...send.headers,
          ...(body ? { 'content-length': String(body.length) } : {}),
        },
      },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

function decompressed(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return response.pipe(zlib.createInflate());
  if (encoding === 'br') return response.pipe(zlib.createBrotliDecompress());
  return response;
}

function opened(url: string, response: http.IncomingMessage): OpenedResponse {
  const body = decompressed(response);
  // A decompressor does not end when its source is destroyed: errors and ends travel by hand.
  if (body !== response) response.on('error', (error) => body.destroy(error));
  return {
    url,
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    headers: response.headers,
    body,
    destroy: () => {
      response.destroy();
      if (body !== response) body.destroy();
    },
  };
}

/** Limits and handling of a whole request (`egressRequest`). */
export interface EgressOptions extends EgressSend, EgressRoute {
  /** The whole request: resolving, redirects and the body. */
  timeoutMs: number;
  /** Bytes of (decompressed) body. */
  maxBytes: number;
  /** `cut`: keep the first `maxBytes` and mark the answer truncated; `fail` (default): refuse a bigger answer. */
  overflow?: 'cut' | 'fail';
  /** Answers with status 400 and above are returned instead of thrown (a search provider quotes them). */
  keepErrorStatus?: boolean;
  /** Looks at the content type before the body is read; a string refuses the answer with that message. */
  refuseType?: (contentType: string, url: string) => string | undefined;
  /** Who asks, for messages (`SearXNG`); default the URL. */
  name?: string;
}

/** An answer read up to its cap. */
export interface EgressResponse {
  url: string;
  status: number;
  statusText: string;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

/**
 * One whole request through the egress policy with end-to-end time and byte limits: the body is
 * read as it streams and the download stops at the cap. Throws `WebRequestError` (refusal,
 * timeout, over the cap, HTTP error) or `CancelledError`.
 */
export async function egressRequest(url: string, options: EgressOptions, signal: AbortSignal): Promise<EgressResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  try {
    const response = await openEgress(url, options, options, combined);
    return await readBody(response, options, combined);
  } catch (error) {
    if (signal.aborted) throw new CancelledError();
    const seconds = Math.round(options.timeoutMs / 1000);
    if (timeout.aborted) throw new WebRequestError(options.name ? `${options.name} did not answer within ${seconds} s` : `Timed out after ${seconds} s fetching ${url}.`);
    if (error instanceof WebRequestError) throw error;
    const message = (error as Error).message;
    throw new WebRequestError(options.name ? `${options.name} is unreachable: ${message}` : `Could not fetch ${url}: ${message}`);
  }
}

async function readBody(response: OpenedResponse, options: EgressOptions, signal: AbortSignal): Promise<EgressResponse> {
  const contentType = String(response.headers['content-type'] ?? '').trim();
  const base = { url: response.url, status: response.status, statusText: response.statusText, contentType };
  try {
    if (response.status >= 400 && !options.keepErrorStatus) {
      throw new WebRequestError(`HTTP ${response.status} ${response.statusText} from ${response.url}.`.replace(' .', '.'));
    }
    const refusal = options.refuseType?.(contentType, response.url);
    if (refusal) throw new WebRequestError(refusal);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      if (signal.aborted) throw signal.reason;
      const buf = chunk as Buffer;
      if (size + buf.length > options.maxBytes) {
        if (options.overflow !== 'cut') throw new WebRequestError(overCap(options.name ?? response.url, options.maxBytes));
        chunks.push(buf.subarray(0, options.maxBytes - size));
        return { ...base, body: Buffer.concat(chunks, options.maxBytes), truncated: true };
      }
      chunks.push(buf);
      size += buf.length;
    }
    return { ...base, body: Buffer.concat(chunks, size), truncated: false };
  } finally {
    // Stops the download (and the decompressor) at the cap, on a refusal or on abort.
    response.destroy();
  }
}

/** The message of an answer bigger than its cap. */
export function overCap(who: string, maxBytes: number): string {
  const size = maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / (1024 * 1024))} MB` : `${Math.round(maxBytes / 1024)} KB`;
  return `The answer from ${who} is larger than ${size}: Stepwise stopped reading it.`;
}
