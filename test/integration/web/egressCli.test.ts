import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeScript, type FakeTurn } from '../../support/fakeOpenAIServer';
import { startEndless, startRedirector, startVictim, type HostileServer } from '../../support/hostileServers';
import { isRunning } from '../../support/processes';
import { startCli, type CliRun } from '../cli/cliProcess';

// The egress policy end to end through the built CLI (`npm run build` first): a fake model scripted
// to call web_fetch / web_search at a loopback victim holding a secret, through names that resolve
// to loopback, redirect chains, the deny list, and search engines that redirect or never stop.
// No byte of the secret may reach any request the model server receives.
//
// Names: the CLI resolves with the system resolver; a preload (NODE_OPTIONS=--require) answers the
// test's made-up names with 127.0.0.1 and passes every other name to the real resolver.

const DNS_PRELOAD = `
const dns = require('node:dns/promises');
const names = JSON.parse(process.env.EGRESS_TEST_NAMES || '[]');
const real = dns.lookup;
dns.lookup = async (host, options) => (names.includes(host) ? [{ address: '127.0.0.1', family: 4 }] : real(host, options));
`;
const NAMES = ['victim.example', 'alias.example', 'start.example'];

const call = (name: string, args: unknown): FakeTurn => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });
const finish = (): FakeTurn => call('finish', { summary: 'Done.' });
const results = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result');

/** The peak resident set of a live process, from /proc (bytes). */
function peakRss(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? NaN) * 1024;
}

describe('stepwise run (CLI): the egress policy holds for web_fetch and every search provider', function () {
  this.timeout(120_000);
  let ws: string;
  let preload: string;
  let victim: Awaited<ReturnType<typeof startVictim>>;
  let fake: FakeOpenAIServer | undefined;
  const servers: HostileServer[] = [];
  const pids: number[] = [];

  before(async () => {
    victim = await startVictim();
  });
  after(() => victim.close());
  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-egress-'));
    preload = path.join(ws, 'names.cjs');
    await writeFile(preload, DNS_PRELOAD);
  });
  afterEach(async () => {
    for (const pid of pids.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    await fake?.close();
    fake = undefined;
    for (const s of servers.splice(0)) await s.close();
    await rm(ws, { recursive: true, force: true });
  });
  const track = <T extends HostileServer>(s: T): T => (servers.push(s), s);

  async function run(script: FakeScript, extra: string[], env: Record<string, string> = {}, onStart?: (pid: number) => void): Promise<CliRun> {
    fake = await startFakeOpenAI(script);
    const cli = startCli(
      ['run', 'Read the web pages and search online.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read,web', ...extra],
      { STEPWISE_HOME: path.join(ws, '.home'), NODE_OPTIONS: `--require ${preload}`, EGRESS_TEST_NAMES: JSON.stringify(NAMES), ...env },
    );
    pids.push(cli.child.pid!);
    onStart?.(cli.child.pid!);
    return cli.done;
  }

  /** Nothing the victim holds reached the model, and the victim was never asked. */
  function assertNoLeak(): void {
    for (const request of fake!.requests) assert.ok(!request.rawBody.includes(victim.secret), `the secret reached the model: ${request.rawBody.slice(0, 500)}`);
    assert.equal(victim.requests.length, 0, `the victim was reached: ${JSON.stringify(victim.requests)}`);
  }

  it('web_fetch: a public-looking name at loopback, redirect chains into loopback (by IP and by name) are refused', async () => {
    const v = victim.port;
    const toIp = track(await startRedirector(`http://127.0.0.1:${v}/`, 302));
    const toName = track(await startRedirector(`http://victim.example:${v}/`, 307));
    const chain = track(await startRedirector(`http://start.example:${toIp.port}/`, 301));
    const urls = [`http://victim.example:${v}/`, `http://start.example:${chain.port}/a`, `http://start.example:${toName.port}/b`, `http://0x7f.1:${v}/`, `http://[::ffff:7f00:1]:${v}/`];
    const r = await run([...urls.map((url) => call('web_fetch', { url })), finish()], ['--web-allow-host', 'start.example']);
    assert.equal(r.code, 0, r.stderr);
    const fetched = results(r).filter((e) => e.name === 'web_fetch');
    assert.equal(fetched.length, urls.length);
    for (const result of fetched) {
      assert.equal(result.isError, true, result.content);
      assert.match(result.content, /Refused: .*(loopback|IPv4-mapped form of 127\.0\.0\.1)/);
    }
    assert.equal(chain.requests.length, 1, 'the allowed first hop was fetched');
    assert.equal(toIp.requests.length, 1, 'the allowed second hop was fetched');
    assertNoLeak();
  });

  it('web_fetch: a deny-listed host is not reached through another name, its IP literal or its mapped form, even with loopback allowed', async () => {
    const v = victim.port;
    const urls = [`http://alias.example:${v}/`, `http://127.0.0.1:${v}/`, `http://[::ffff:127.0.0.1]:${v}/`, `http://victim.example:${v}/`];
    const r = await run([...urls.map((url) => call('web_fetch', { url })), finish()], [
      '--web-allow-host', '127.0.0.1', '--web-allow-host', 'alias.example', '--web-deny-host', 'victim.example',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const fetched = results(r).filter((e) => e.name === 'web_fetch');
    assert.equal(fetched.length, urls.length);
    for (const result of fetched) {
      assert.equal(result.isError, true, result.content);
      assert.match(result.content, /deny list/);
    }
    assertNoLeak();
  });

  // Two runs cover each provider with each hostile server: all providers fail, so one web_search tries all three.
  const layouts: { name: string; hostile: Record<'tavily' | 'brave' | 'searxng', 'redirect' | 'endless'> }[] = [
    { name: 'Tavily and SearXNG redirect to the victim, Brave streams 1 GB', hostile: { tavily: 'redirect', brave: 'endless', searxng: 'redirect' } },
    { name: 'Brave redirects to the victim, Tavily and SearXNG stream 1 GB', hostile: { tavily: 'endless', brave: 'redirect', searxng: 'endless' } },
  ];
  for (const layout of layouts) {
    it(`web_search: ${layout.name}; every answer is refused or cut, the CLI stays small`, async () => {
      const endless: Awaited<ReturnType<typeof startEndless>>[] = [];
      const endpoint = async (kind: 'redirect' | 'endless') => {
        if (kind === 'redirect') return track(await startRedirector(`http://127.0.0.1:${victim.port}/`, 307)).url;
        const server = track(await startEndless());
        endless.push(server);
        return server.url;
      };
      const tavily = await endpoint(layout.hostile.tavily);
      const brave = await endpoint(layout.hostile.brave);
      const searxng = await endpoint(layout.hostile.searxng);
      let pid = 0;
      let peak = NaN;
      const script: FakeScript = (_request, index) => {
        if (index === 0) return call('web_search', { query: 'anything' });
        // The CLI is alive and waiting for this answer: its peak memory includes the search.
        peak = peakRss(pid);
        return finish();
      };
      const r = await run(script, ['--searxng-url', searxng], {
        TAVILY_API_KEY: 'tvly-test', STEPWISE_TAVILY_ENDPOINT: `${tavily}/search`,
        BRAVE_API_KEY: 'brave-test', STEPWISE_BRAVE_ENDPOINT: `${brave}/res/v1/web/search`,
      }, (p) => (pid = p));
      assert.equal(r.code, 0, r.stderr);
      const [search] = results(r).filter((e) => e.name === 'web_search');
      assert.ok(search, 'web_search ran');
      assert.equal(search.isError, true, search.content);
      const expect = { redirect: /127\.0\.0\.1 is a loopback address/, endless: /is larger than 5 MB: Stepwise stopped reading it/ };
      for (const [provider, label] of [['tavily', 'Tavily'], ['brave', 'Brave Search'], ['searxng', 'SearXNG']] as const) {
        const part = new RegExp(`${label}: ([^;]*)`).exec(search.content)?.[1] ?? '';
        assert.match(part, expect[layout.hostile[provider]], `${label}: ${search.content}`);
      }
      for (const server of endless) assert.ok(server.sent() < 64 * 1024 * 1024, `an endless answer sent ${server.sent()} bytes`);
      assert.ok(peak < 500 * 1024 * 1024, `peak RSS of the CLI: ${peak} bytes`);
      assertNoLeak();
    });
  }
});
