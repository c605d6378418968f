import { pipeline, Readable, Transform } from 'node:stream';
import { WebRequestError } from '../../agent/web/webPorts';
import { openEgress, overCap, type EgressRoute } from './egress';

/** Limits of a fetch built on the egress client. */
export interface EgressFetchOptions extends Omit<EgressRoute, 'redirect'> {
  /** Until the answer's headers arrive (a long-lived event stream then runs as long as its caller wants). */
  headersTimeoutMs: number;
  /** Bytes of (decompressed) body per answer; the stream fails past it. */
  maxBytes: number;
  /** Who answers, for messages (`MCP server "docs"`). */
  name: string;
}

/** A `fetch` as libraries take it (the MCP SDK's transports). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A WHATWG `fetch` over the egress client, for libraries that take a `fetch` option (the MCP SDK's
 * Streamable HTTP and SSE transports): every call and every redirect hop goes through the egress
 * policy, the headers must arrive within `headersTimeoutMs`, and each body is cut off with an
 * error past `maxBytes`. `redirect: 'manual'` is honoured (the SDK follows same-origin redirects
 * itself, each through this fetch again).
 */
export function egressFetch(options: EgressFetchOptions): FetchLike {
  return async (input, init) => {
    const req = new Request(input, init);
    const method = req.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await req.arrayBuffer());
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => (headers[name] = value));
    const headersTimeout = new AbortController();
    const timer = setTimeout(() => headersTimeout.abort(), options.headersTimeoutMs);
    const lifetime = new AbortController();
    const onAbort = () => lifetime.abort(req.signal.reason);
    req.signal.addEventListener('abort', onAbort, { once: true });
    headersTimeout.signal.addEventListener('abort', () => lifetime.abort(new WebRequestError(`${options.name} did not answer within ${Math.round(options.headersTimeoutMs / 1000)} s.`)), { once: true });
    try {
      const response = await openEgress(
        req.url,
        { method, headers, ...(body && body.length ? { body } : {}) },
        { ...options, redirect: init?.redirect === 'manual' ? 'manual' : 'follow' },
        lifetime.signal,
      );
      clearTimeout(timer);
      const nullBody = method === 'HEAD' || response.status === 204 || response.status === 304 || (response.status >= 300 && response.status < 400);
      if (nullBody) response.destroy();
      return new Response(nullBody ? null : (Readable.toWeb(capped(response.body, options)) as ReadableStream<Uint8Array>), {
        status: response.status,
        statusText: response.statusText,
        headers: responseHeaders(response.headers),
      });
    } catch (error) {
      if (headersTimeout.signal.aborted && !req.signal.aborted) throw lifetime.signal.reason as Error;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The body through `byteCap`; an error on either side ends both (and the download). */
function capped(body: Readable, options: EgressFetchOptions): Readable {
  return pipeline(body, byteCap(options), () => {});
}

/** Fails the stream once more than `maxBytes` went through. */
function byteCap(options: EgressFetchOptions): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > options.maxBytes) callback(new WebRequestError(overCap(options.name, options.maxBytes)));
      else callback(null, chunk);
    },
  });
}

/** Node's headers as WHATWG headers; the body is already decompressed, so its encoding and length go. */
function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}
