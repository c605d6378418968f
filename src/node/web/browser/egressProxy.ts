import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../../agent/ports';
import { isAllowedHost, type WebHostPolicy } from '../../../agent/web/hostPolicy';
import { WebRequestError } from '../../../agent/web/webPorts';
import { checkedTarget, type Resolver, type Target } from '../safeHttp';

/** One request the proxy refused: what the browser asked for (a URL, or `host:port` of a tunnel) and why. */
export interface ProxyRefusal {
  /** `http://…` for plain requests, `https://host:port` for a tunnel (https or wss). */
  url: string;
  reason: string;
}

/** The policy the proxy enforces and its limits. */
export interface EgressProxyOptions {
  policy: WebHostPolicy;
  resolver?: Resolver;
  /** Bytes (both directions, all connections) passed per window (`beginWindow`); default 64 MB. */
  maxBytes?: number;
  /** A connection idle this long is cut; default 30 s. */
  idleMs?: number;
  logger?: Logger;
  /** Listen on this unix socket instead of a loopback port (the command sandbox reaches it through a bind mount). */
  socketPath?: string;
  /** When set, only these hosts (names, `*.names`, addresses, CIDR blocks) are let through, then checked by the policy (the sandbox's allow list). */
  onlyHosts?: readonly string[];
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const MAX_REFUSALS = 50;
const MAX_REMEMBERED = 1000;
// Per RFC 9110 §7.6.1 these describe one connection and are never forwarded.
const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The browser's only way out: a filtering forward proxy on 127.0.0.1 (ephemeral port), one per
 * browser session. Chromium is launched with `--proxy-server` pointing here and loopback not
 * bypassed, so every request it makes (navigations, each redirect hop, frames, sub-resources,
 * fetch/XHR, workers, WebSockets) arrives as a plain proxied request or a CONNECT. Each one is
 * checked by the egress policy (`checkedTarget`: the URL, then every resolved address) and
 * connected to the checked address itself, so DNS is not asked twice. Refusals answer 403 with the
 * reason and are kept for the session to report. Bytes are counted per window (one browser
 * action): past the budget every open connection is cut and new ones are refused.
 */
export class EgressProxy {
  private readonly sockets = new Set<Duplex>();
  private refused: ProxyRefusal[] = [];
  /** Every URL (or tunnel) refused by the policy in this session, so a page that moved there later is known. */
  private readonly refusedTargets = new Map<string, string>();
  private used = 0;
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    private readonly options: EgressProxyOptions,
    /** `http://127.0.0.1:PORT`, for `--proxy-server`. */
    readonly url: string,
  ) {}

  /** Starts a proxy on an ephemeral loopback port. */
  static async start(options: EgressProxyOptions): Promise<EgressProxy> {
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if (options.socketPath) server.listen(options.socketPath, resolve);
      else server.listen(0, '127.0.0.1', resolve);
    });
    const url = options.socketPath ? `unix:${options.socketPath}` : `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const proxy = new EgressProxy(server, options, url);
    server.on('connection', (socket) => proxy.track(socket));
    server.on('request', (req, res) => void proxy.onRequest(req, res));
    server.on('connect', (req, socket, head) => void proxy.onTunnel(req, socket, head));
    server.on('upgrade', (req, socket, head) => void proxy.onUpgrade(req, socket, head));
    server.on('clientError', (_error, socket) => socket.destroy());
    return proxy;
  }

  /** Starts a new window (one browser action): clears the refusals and the byte count. */
  beginWindow(): void {
    this.refused = [];
    this.used = 0;
  }

  /** The requests refused in this window, oldest first (at most 50). */
  refusals(): readonly ProxyRefusal[] {
    return this.refused;
  }

  /** True when this window passed its byte budget (its connections were cut). */
  overBudget(): boolean {
    return this.used > this.maxBytes();
  }

  /** Why requests are cut once the budget is spent. */
  budgetMessage(): string {
    const max = this.maxBytes();
    const size = max >= 1048576 ? `${Math.round(max / 1048576)} MB` : `${Math.round(max / 1024)} KB`;
    return `The browser passed its limit of ${size} for this action; its connections were cut.`;
  }

  /** Why a page at this URL was refused (this session, any window), or `undefined` when it was not. */
  refusalFor(pageUrl: string): string | undefined {
    let url: URL;
    try {
      url = new URL(pageUrl);
    } catch {
      return undefined;
    }
    url.hash = '';
    if (url.protocol === 'http:') return this.refusedTargets.get(url.href);
    // https, wss and ws all travel through CONNECT tunnels, remembered by host and port.
    const port = url.port || { 'https:': '443', 'wss:': '443', 'ws:': '80' }[url.protocol];
    return port ? this.refusedTargets.get(`https://${url.hostname}:${port}`) : undefined;
  }

  /** Stops listening and cuts every connection; idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (socket instanceof net.Socket) socket.setTimeout(this.options.idleMs ?? 30_000, () => socket.destroy());
  }

  /** Counts bytes through this window; past the budget every connection is cut. */
  private count(bytes: number): void {
    this.used += bytes;
    if (!this.overBudget()) return;
    for (const socket of this.sockets) socket.destroy();
  }

  private maxBytes(): number {
    return this.options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  private refuse(url: string, reason: string, byPolicy = true): string {
    if (this.refused.length < MAX_REFUSALS) this.refused.push({ url, reason });
    if (byPolicy && this.refusedTargets.size < MAX_REMEMBERED) this.refusedTargets.set(url, reason);
    this.options.logger?.info(`browser request refused: ${url}: ${reason}`);
    return reason;
  }

  /** The checked target, or the refusal's reason (recorded). */
  private async check(url: string, shown: string): Promise<Target | string> {
    if (this.overBudget()) return this.refuse(shown, this.budgetMessage(), false);
    const outsideList = this.outsideOnlyHosts(url);
    if (outsideList) return this.refuse(shown, outsideList);
    try {
      return await checkedTarget(url, this.options);
    } catch (error) {
      return this.refuse(shown, error instanceof WebRequestError ? error.message : `Refused ${shown}.`);
    }
  }

  /** Why a host is refused by `onlyHosts` (the sandbox's allow list), or `undefined` when the list lets it through. */
  private outsideOnlyHosts(url: string): string | undefined {
    const only = this.options.onlyHosts;
    if (!only) return undefined;
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return `Not a URL: ${url}`;
    }
    if (isAllowedHost(host, { allowHosts: only, denyHosts: [] })) return undefined;
    return `blocked by the sandbox: ${host} is not an allowed host (allow it with --sandbox-allow-host ${host} or stepwise.sandbox.allowHosts).`;
  }

  /** A plain `http://` request in absolute form (https goes through CONNECT). */
  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = req.url ?? '';
    if (!/^http:\/\//i.test(raw)) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('This proxy serves only the task browser.\n');
    const target = await this.check(raw, withoutHash(raw));
    if (typeof target === 'string') return void res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${target}\n`);
    const upstream = http.request({
      host: target.address.address,
      family: target.address.family,
      port: Number(target.url.port || 80),
      method: req.method,
      path: `${target.url.pathname}${target.url.search}`,
      headers: forwardHeaders(req.rawHeaders),
      agent: false,
    });
    upstream.on('socket', (socket) => this.track(socket));
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardHeaders(answer.rawHeaders));
      answer.on('data', (chunk: Buffer) => this.count(chunk.length));
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`Could not reach ${raw}: ${error.message}\n`);
      else res.destroy();
    });
    req.on('data', (chunk: Buffer) => this.count(chunk.length));
    req.pipe(upstream);
  }

  /** CONNECT host:port (https, wss, and ws through a proxy): checked, then a byte tunnel to the checked address. */
  private async onTunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const authority = req.url ?? '';
    const shown = `https://${authority}`;
    const target = /^[^/?#@\s]+:\d+$/.test(authority) ? await this.check(`${shown}/`, shown) : this.refuse(shown, `Not a host and port: ${authority}`);
    if (typeof target === 'string') return void client.end(plainAnswer(403, 'Forbidden', target));
    this.splice(client, target, head, 'HTTP/1.1 200 Connection Established\r\n\r\n');
  }

  /** An `Upgrade` (WebSocket) sent in absolute form instead of CONNECT: checked, then relayed raw. */
  private async onUpgrade(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const raw = req.url ?? '';
    const target = /^(http|ws):\/\//i.test(raw) ? await this.check(raw.replace(/^ws/i, 'http'), raw) : 'This proxy serves only the task browser.';
    if (typeof target === 'string') return void client.end(plainAnswer(403, 'Forbidden', target));
    const pairs = forwardHeaders(req.rawHeaders);
    const lines = [`${req.method} ${target.url.pathname}${target.url.search} HTTP/1.1`];
    for (let i = 0; i < pairs.length; i += 2) lines.push(`${pairs[i]}: ${pairs[i + 1]}`);
    // The upgrade itself is hop-by-hop but is what this request is for: passed on explicitly.
    lines.push('Connection: Upgrade', `Upgrade: ${String(req.headers.upgrade ?? 'websocket')}`);
    this.splice(client, target, Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), head]));
  }

  /** Connects to the checked address and relays bytes both ways, counted. */
  private splice(client: Duplex, target: Target, first: Buffer, greeting?: string): void {
    const port = Number(target.url.port || (target.url.protocol === 'https:' ? 443 : 80));
    const upstream = net.connect({ host: target.address.address, port, family: target.address.family });
    this.track(client);
    this.track(upstream);
    upstream.on('connect', () => {
      if (greeting) client.write(greeting);
      if (first.length) upstream.write(first);
      client.on('data', (chunk: Buffer) => this.count(chunk.length));
      upstream.on('data', (chunk: Buffer) => this.count(chunk.length));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on('error', (error) => client.end(plainAnswer(502, 'Bad Gateway', `Could not reach ${target.url.host}: ${error.message}`)));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  }
}

/** The URL as Chromium and Playwright print it, without a fragment (never sent anyway). */
function withoutHash(raw: string): string {
  try {
    const url = new URL(raw);
    url.hash = '';
    return url.href;
  } catch {
    return raw;
  }
}

/** Raw headers without hop-by-hop ones (and those the `Connection` header names), as a flat list. */
function forwardHeaders(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const n of raw[i + 1]!.split(',')) named.add(n.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** A complete HTTP/1.1 answer with a plain-text reason, for sockets outside the `http` server. */
function plainAnswer(status: number, text: string, reason: string): string {
  const body = `${reason}\n`;
  return `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
