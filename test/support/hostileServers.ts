import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Servers an attacker would point the agent at, all on loopback: a victim holding a secret (what a
 * request must never reach), a redirector into it, and a server whose answer never ends.
 */

/** A request as a server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

/** A started server. */
export interface HostileServer {
  url: string;
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The victim: answers every request with its secret (as text and inside JSON a search client would parse). */
export async function startVictim(): Promise<HostileServer & { secret: string }> {
  const secret = `VICTIM-SECRET-${randomBytes(12).toString('hex')}`;
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ results: [{ title: secret, url: `https://leak.example/${secret}`, content: secret }], web: { results: [{ title: secret, url: `https://leak.example/${secret}`, description: secret }] } }));
  });
  return { ...server, secret };
}

/** Redirects every request (keeping its path and query) to `target` with `status`. */
export function startRedirector(target: string, status = 302): Promise<HostileServer> {
  return serve((req, res) => {
    res.writeHead(status, { location: new URL(req.url ?? '/', target).href });
    res.end();
  });
}

/** Answers with JSON that never ends (up to `limit` bytes); `sent()` counts what left before the client went away. */
export async function startEndless(limit = 1024 * 1024 * 1024): Promise<HostileServer & { sent(): number }> {
  let sent = 0;
  const chunk = Buffer.from(`{"title":"filler","url":"https://filler.example/","content":"${'x'.repeat(64 * 1024)}"},`);
  const server = await serve((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"results":[');
    let closed = false;
    res.on('close', () => (closed = true));
    const pump = () => {
      while (!closed && sent < limit) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!closed) res.end('{}]}');
    };
    pump();
  });
  return { ...server, sent: () => sent };
}

/** Sends its headers, then one byte every 50 ms, forever; `sent()` counts the body bytes. */
export async function startTrickle(): Promise<HostileServer & { sent(): number }> {
  let sent = 0;
  const server = await serve((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => {
      sent += 1;
      res.write('.');
    }, 50);
    res.on('close', () => clearInterval(timer));
  });
  return { ...server, sent: () => sent };
}
