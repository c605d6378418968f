import { strict as assert } from 'node:assert';
import { egressRequest } from '../../../src/node/web/egress';
import { egressFetch } from '../../../src/node/web/egressFetch';
import { NodeWebFetcher } from '../../../src/node/web/nodeWebFetcher';
import { checkedTarget, machineAddresses, type Resolver } from '../../../src/node/web/safeHttp';
import { braveProvider, searxngProvider, tavilyProvider } from '../../../src/node/web/searchProviders';
import { connectMcpServer } from '../../../src/mcp/mcpConnect';
import { startEndless, startRedirector, startTrickle, startVictim, type HostileServer } from '../../support/hostileServers';

// The egress client against real loopback servers: a victim with a secret, redirectors into it and
// an answer that never ends. Names are pointed at loopback by an injected resolver.

const signal = () => new AbortController().signal;
const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

describe('egress client (real loopback servers)', function () {
  this.timeout(60_000);
  let victim: Awaited<ReturnType<typeof startVictim>>;
  const servers: HostileServer[] = [];
  before(async () => {
    victim = await startVictim();
  });
  after(() => victim.close());
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    victim.requests.length = 0;
  });
  const track = <T extends HostileServer>(s: T): T => (servers.push(s), s);

  it("refuses every address of this machine's interfaces (read from os.networkInterfaces) unless allowed", async () => {
    const own = machineAddresses();
    assert.ok(own.length > 0);
    for (const address of own) {
      const host = address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address;
      await assert.rejects(checkedTarget(`http://${host}:${victim.port}/`, { policy: { allowHosts: [], denyHosts: [] } }), /Refused: .* address/, address);
    }
  });

  it('a deny-listed host is not reached through another name or its IP literal, even with loopback allowed', async () => {
    const fetcher = new NodeWebFetcher({ policy: { allowHosts: ['127.0.0.1', 'alias.example'], denyHosts: ['victim.example'] }, resolver: toLoopback });
    for (const url of [`http://alias.example:${victim.port}/`, `http://127.0.0.1:${victim.port}/`, `http://[::ffff:127.0.0.1]:${victim.port}/`]) {
      await assert.rejects(fetcher.fetch(url, signal()), /deny list/, url);
    }
    await assert.rejects(fetcher.fetch(`http://victim.example:${victim.port}/`, signal()), /The host victim\.example is on the deny list/);
    assert.equal(victim.requests.length, 0);
  });

  it('web_fetch: a public-looking name at loopback and a redirect chain into loopback are refused', async () => {
    const fetcher = new NodeWebFetcher({ policy: { allowHosts: ['start.example'], denyHosts: [] }, resolver: toLoopback });
    await assert.rejects(fetcher.fetch(`http://victim.example:${victim.port}/`, signal()), /victim\.example \(127\.0\.0\.1\) is a loopback address/);
    const hop2 = track(await startRedirector(`http://127.0.0.1:${victim.port}/`, 307));
    const hop1 = track(await startRedirector(`http://start.example:${hop2.port}/`, 301));
    await assert.rejects(fetcher.fetch(`http://start.example:${hop1.port}/a`, signal()), /127\.0\.0\.1 is a loopback address/);
    assert.equal(hop1.requests.length, 1);
    assert.equal(hop2.requests.length, 1);
    assert.equal(victim.requests.length, 0);
  });

  const providers = [
    { name: 'Tavily', make: (endpoint: string, allow: string[]) => tavilyProvider('tvly-KEY-123', `${endpoint}/search`, { policy: { allowHosts: allow, denyHosts: [] } }), key: 'tvly-KEY-123' },
    { name: 'Brave Search', make: (endpoint: string, allow: string[]) => braveProvider('BRAVE-KEY-123', `${endpoint}/res/v1/web/search`, { policy: { allowHosts: allow, denyHosts: [] } }), key: 'BRAVE-KEY-123' },
    { name: 'SearXNG', make: (endpoint: string, allow: string[]) => searxngProvider(endpoint, { policy: { allowHosts: allow, denyHosts: [] } }), key: undefined },
  ];
  for (const provider of providers) {
    it(`${provider.name}: the configured endpoint on loopback works, its redirect to another origin on loopback is refused`, async () => {
      const redirector = track(await startRedirector(`http://127.0.0.1:${victim.port}/`, 307));
      await assert.rejects(provider.make(redirector.url, []).search('anything', 3, signal()), /127\.0\.0\.1 is a loopback address/);
      assert.equal(redirector.requests.length, 1, 'the configured endpoint itself was reached');
      assert.equal(victim.requests.length, 0);
    });

    it(`${provider.name}: a redirect the user allowed is followed without the API key`, async () => {
      const redirector = track(await startRedirector(`http://127.0.0.1:${victim.port}/`, 307));
      await provider.make(redirector.url, ['127.0.0.1']).search('anything', 3, signal());
      assert.equal(victim.requests.length, 1);
      const headers = JSON.stringify(victim.requests[0]!.headers);
      assert.ok(!headers.includes('KEY-123'), `the key went to another origin: ${headers}`);
      if (provider.key) assert.ok(JSON.stringify(redirector.requests[0]!.headers).includes(provider.key), 'the key went to the configured endpoint');
    });

    it(`${provider.name}: an answer that never ends is cut at 5 MB with a clear error, memory stays small`, async () => {
      const endless = track(await startEndless());
      const before = process.memoryUsage().rss;
      await assert.rejects(provider.make(endless.url, []).search('anything', 3, signal()), new RegExp(`The answer from ${provider.name} is larger than 5 MB: Stepwise stopped reading it`));
      const grown = process.memoryUsage().rss - before;
      assert.ok(endless.sent() < 64 * 1024 * 1024, `the server sent ${endless.sent()} bytes`);
      assert.ok(grown < 200 * 1024 * 1024, `RSS grew by ${grown} bytes`);
    });
  }

  it('the time limit covers the whole request: a body that trickles forever is ended', async () => {
    const trickle = track(await startTrickle());
    await assert.rejects(
      egressRequest(trickle.url, { policy: { allowHosts: ['127.0.0.1'], denyHosts: [] }, timeoutMs: 1000, maxBytes: 1024 * 1024, name: 'Slow' }, signal()),
      /Slow did not answer within 1 s/,
    );
    assert.ok(trickle.sent() > 0, 'the headers and some body had arrived');
  });

  it('MCP over HTTP: a fetch that follows redirects checks every hop; the SDK transport never reaches the victim', async () => {
    const redirector = track(await startRedirector(`http://127.0.0.1:${victim.port}/mcp`, 307));
    const fetch = egressFetch({ policy: { allowHosts: [], denyHosts: [] }, trustedOrigin: redirector.url, headersTimeoutMs: 10_000, maxBytes: 1024 * 1024, name: 'MCP server "x"' });
    await assert.rejects(fetch(`${redirector.url}/mcp`, { method: 'POST', body: '{}' }), /127\.0\.0\.1 is a loopback address/);
    await assert.rejects(
      connectMcpServer(
        { name: 'evil', source: 'test', kind: 'http', url: `${redirector.url}/mcp`, headers: { authorization: 'Bearer MCP-KEY-123' }, transport: 'auto', enabled: true, autoApprove: [] },
        { clientInfo: { name: 't', version: '0' }, roots: () => [], connectTimeoutMs: 10_000, onStderr: () => {}, onToolsChanged: () => {} },
      ),
    );
    assert.ok(redirector.requests.length >= 1);
    assert.equal(victim.requests.length, 0);
  });
});
