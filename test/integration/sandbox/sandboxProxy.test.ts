import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EgressProxy } from '../../../src/node/web/browser/egressProxy';

// The sandbox's network is the project's one egress proxy on a unix socket: the sandbox's allow list
// first (onlyHosts), then the egress policy as for every request (the user's deny list wins).

/** A plain proxied GET through the unix socket: status and body. */
function get(socketPath: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: url, method: 'GET', headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the sandbox proxy (EgressProxy on a unix socket with onlyHosts)', () => {
  let dir: string;
  let site: http.Server;
  let port: number;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'stepwise-sbx-proxy-'));
    site = http.createServer((_req, res) => res.end('site-answer'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    port = (site.address() as AddressInfo).port;
  });

  after(async () => {
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: Array<{ name: string; onlyHosts: string[]; deny: string[]; host: string; status: number; body: RegExp }> = [
    { name: 'an allowed host is reached', onlyHosts: ['localhost'], deny: [], host: 'localhost', status: 200, body: /site-answer/ },
    { name: 'a host outside the sandbox list is refused, saying so', onlyHosts: ['localhost'], deny: [], host: '127.0.0.1', status: 403, body: /blocked by the sandbox: 127\.0\.0\.1 is not an allowed host/ },
    { name: 'the user\'s web deny list wins over the sandbox list', onlyHosts: ['localhost'], deny: ['localhost'], host: 'localhost', status: 403, body: /deny list/ },
    { name: 'a wildcard entry covers sub-domains only by name', onlyHosts: ['*.example.test'], deny: [], host: 'localhost', status: 403, body: /not an allowed host/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const socketPath = path.join(dir, `${cases.indexOf(c)}.sock`);
      const proxy = await EgressProxy.start({ policy: { allowHosts: c.onlyHosts, denyHosts: c.deny }, socketPath, onlyHosts: c.onlyHosts });
      try {
        const answer = await get(socketPath, `http://${c.host}:${port}/`);
        assert.equal(answer.status, c.status, answer.body);
        assert.match(answer.body, c.body);
      } finally {
        await proxy.close();
      }
    });
  }
});
