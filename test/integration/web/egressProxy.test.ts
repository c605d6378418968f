import { strict as assert } from 'node:assert';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { WebHostPolicy } from '../../../src/agent/web/hostPolicy';
import { EgressProxy } from '../../../src/node/web/browser/egressProxy';
import type { Resolver } from '../../../src/node/web/safeHttp';

// The browser's egress proxy spoken to directly, as Chromium speaks to it: absolute-form requests,
// CONNECT tunnels and upgrades, over real sockets. Names are resolved by an injected resolver (a
// table), so a name can point at loopback the way a hostile DNS answer would.

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
}

async function server(host: string, seen: Seen[]): Promise<{ port: number; close: () => Promise<void> }> {
  const s = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
    res.end(req.url === '/big' ? 'x'.repeat(256 * 1024) : `hello from ${host}`);
  });
  s.on('upgrade', (req, socket) => {
    seen.push({ path: `upgrade ${req.url ?? ''}`, headers: req.headers });
    socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
  });
  await new Promise<void>((resolve) => s.listen(0, host, resolve));
  return { port: (s.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => s.close(() => resolve())) };
}

/** Sends raw bytes to the proxy and returns what came back until the socket ended. */
function raw(proxyUrl: string, text: string): Promise<string> {
  const { port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      got += chunk;
      // A tunnel stays open: the first answer line is what these tests look at.
      if (/^HTTP\/1\.1 200 Connection Established\r\n\r\n/.test(got)) socket.destroy();
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

/** GET through the proxy in absolute form; the status and body. */
function get(proxyUrl: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: proxy.hostname, port: proxy.port, path: url, headers: { host: url.startsWith('/') ? proxy.host : new URL(url).host, ...headers }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('EgressProxy: the browser egress chokepoint over real sockets', () => {
  const seenAllowed: Seen[] = [];
  const seenVictim: Seen[] = [];
  let allowed: { port: number; close: () => Promise<void> };
  let victim: { port: number; close: () => Promise<void> };
  let proxy: EgressProxy;
  // An allow-listed name that resolves to the allowed site, one that resolves to loopback, and one
  // that answers a public address and loopback (the whole answer is refused: nothing is connected).
  const names: Record<string, string[]> = { 'site.test': ['127.0.0.2'], 'sneaky.test': ['127.0.0.1'], 'mixed.test': ['93.184.216.34', '127.0.0.1'] };
  const resolver: Resolver = async (host) => (names[host] ?? []).map((address) => ({ address, family: 4 as const }));
  const policy: WebHostPolicy = { allowHosts: ['127.0.0.2', 'site.test'], denyHosts: ['denied.test'] };

  before(async () => {
    allowed = await server('127.0.0.2', seenAllowed);
    victim = await server('127.0.0.1', seenVictim);
    // A public address: the name alone is what refuses it (a denied name's addresses are denied under any name).
    names['denied.test'] = ['1.1.1.1'];
  });
  beforeEach(async () => {
    proxy = await EgressProxy.start({ policy, resolver, maxBytes: 64 * 1024 });
  });
  afterEach(async () => {
    await proxy.close();
    assert.deepEqual(seenVictim, [], 'the victim (127.0.0.1, not allowed) was never reached');
  });
  after(async () => {
    await allowed.close();
    await victim.close();
  });

  const refusedCases: Array<[string, (p: number) => string, RegExp]> = [
    ['a loopback literal', (p) => `http://127.0.0.1:${p}/secret`, /127\.0\.0\.1 is a loopback address/],
    ['localhost', (p) => `http://localhost:${p}/secret`, /localhost/],
    ['a name that resolves to loopback', (p) => `http://sneaky.test:${p}/secret`, /sneaky\.test \(127\.0\.0\.1\) is a loopback address/],
    ['a name whose answer also holds loopback', (p) => `http://mixed.test:${p}/secret`, /mixed\.test \(127\.0\.0\.1\)/],
    ['a deny-listed name', (p) => `http://denied.test:${p}/`, /deny list/],
    ['a user name in the URL', (p) => `http://user:pw@127.0.0.2:${p}/`, /user names or passwords/],
  ];
  for (const [what, url, reason] of refusedCases) {
    it(`refuses ${what} with 403 and the reason, and records it`, async () => {
      const target = url(victim.port);
      const answer = await get(proxy.url, target);
      assert.equal(answer.status, 403);
      assert.match(answer.body, reason);
      assert.equal(proxy.refusals().length, 1);
      assert.match(proxy.refusals()[0]!.reason, reason);
      assert.match(proxy.refusalFor(target) ?? '', reason, 'a page at that URL is known as refused');
    });
  }

  it('forwards an allowed request to the checked address, keeping Host and dropping hop-by-hop headers', async () => {
    const answer = await get(proxy.url, `http://site.test:${allowed.port}/page?q=1`, { 'proxy-authorization': 'Basic c2VjcmV0', 'x-kept': 'yes' });
    assert.deepEqual(answer, { status: 200, body: 'hello from 127.0.0.2' });
    const last = seenAllowed.at(-1)!;
    assert.equal(last.path, '/page?q=1');
    assert.equal(last.headers.host, `site.test:${allowed.port}`);
    assert.equal(last.headers['x-kept'], 'yes');
    assert.equal(last.headers['proxy-authorization'], undefined);
  });

  it('CONNECT: a tunnel to an allowed host opens; one to loopback (https, ws, wss) is refused before any byte reaches it', async () => {
    assert.match(await raw(proxy.url, `CONNECT 127.0.0.2:${allowed.port} HTTP/1.1\r\nHost: 127.0.0.2:${allowed.port}\r\n\r\n`), /^HTTP\/1\.1 200 Connection Established/);
    const refused = await raw(proxy.url, `CONNECT 127.0.0.1:${victim.port} HTTP/1.1\r\nHost: 127.0.0.1:${victim.port}\r\n\r\n`);
    assert.match(refused, /^HTTP\/1\.1 403 Forbidden[\s\S]*loopback address/);
    for (const page of [`https://127.0.0.1:${victim.port}/x`, `wss://127.0.0.1:${victim.port}/x`, `ws://127.0.0.1:${victim.port}/x`]) {
      assert.ok(proxy.refusalFor(page), `${page} is known as refused`);
    }
    assert.equal(proxy.refusalFor(`https://127.0.0.1:1/x`), undefined, 'another port was not refused');
  });

  it('an upgrade in absolute form is checked like any request', async () => {
    const upgrade = (host: string, port: number) =>
      raw(proxy.url, `GET ws://${host}:${port}/socket HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
    assert.match(await upgrade('127.0.0.1', victim.port), /^HTTP\/1\.1 403 Forbidden/);
    assert.match(await upgrade('127.0.0.2', allowed.port), /^HTTP\/1\.1 101 Switching Protocols/);
    assert.equal(seenAllowed.at(-1)!.path, 'upgrade /socket');
  });

  it('past the byte budget of a window connections are cut and new requests refused, until the next window', async () => {
    await get(proxy.url, `http://127.0.0.2:${allowed.port}/big`).catch(() => undefined);
    assert.ok(proxy.overBudget());
    const next = await get(proxy.url, `http://127.0.0.2:${allowed.port}/small`);
    assert.equal(next.status, 403);
    assert.match(next.body, /limit of 64 KB/);
    proxy.beginWindow();
    assert.equal((await get(proxy.url, `http://127.0.0.2:${allowed.port}/small`)).status, 200);
  });

  it('answers 400 to a request that is not for a proxy (origin form)', async () => {
    assert.equal((await get(proxy.url, '/not-absolute')).status, 400);
  });
});
