import { createHash, timingSafeEqual } from 'node:crypto';

/** What the guard looks at in a request: its headers as Node gives them. */
export interface GuardedRequest {
  host?: string;
  origin?: string;
  authorization?: string;
}

/** The guard's verdict: `ok`, or the status and the words of a refusal. */
export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

/** Compares two strings in time that does not depend on where they differ (or on their lengths: both are hashed first). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The `Host` values a loopback server on `port` answers to; any other name is a DNS-rebinding attempt. */
export function loopbackHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/**
 * The one check every request of `stepwise serve` passes before any route: the `Host` must name
 * the loopback address and port (a page that rebinds its own name to 127.0.0.1 sends its own name),
 * an `Origin`, when sent, must be the server itself (a page's scripts send theirs), and the bearer
 * token must match, compared in constant time. Deny by default: a missing header fails.
 */
export function guardRequest(request: GuardedRequest, port: number, token: string): GuardVerdict {
  const hosts = loopbackHosts(port);
  if (!request.host || !hosts.has(request.host.toLowerCase())) return { ok: false, status: 403, message: 'Host not allowed: this server answers only to 127.0.0.1' };
  if (request.origin !== undefined && !hosts.has(originHost(request.origin))) return { ok: false, status: 403, message: 'Origin not allowed' };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.authorization ?? '');
  if (!match || !sameSecret(match[1]!, token)) return { ok: false, status: 401, message: 'Missing or wrong token (Authorization: Bearer <token>)' };
  return { ok: true };
}

/** `host:port` of an `http:` origin; anything else (other schemes, `null`, garbage) names no allowed host. */
function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:') return '';
    return url.host.toLowerCase();
  } catch {
    return '';
  }
}
