import { strict as assert } from 'node:assert';
import dgram from 'node:dgram';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { browserTool } from '../../../src/agent/tools/web/browserTool';
import type { ToolResult } from '../../../src/agent/tools/tool';
import { PlaywrightBrowserSession, type PlaywrightBrowserOptions } from '../../../src/node/web/browser/playwrightBrowser';
import { ToolHarness } from '../../unit/tools/toolHarness';
import { ATTACKS, startAttackerSite, type AttackerSite } from '../../support/attackerSite';
import { commandLine, descendants, isRunning } from '../../support/processes';

// The browser against an attacker site (127.0.0.2, allow-listed) that tries every way a page has
// to reach a loopback victim (127.0.0.1, not allow-listed) holding a secret. The victim counts
// every request it gets: the assertion is that it gets none, and that the secret is in no result.

const CHROMIUM = '/usr/bin/chromium';

describe('browser egress: every request the browser makes goes through the policy', function () {
  this.timeout(120_000);
  let site: AttackerSite;
  let session: PlaywrightBrowserSession | undefined;

  before(async function () {
    assert.ok(existsSync(CHROMIUM), 'Debian chromium must be installed (apt-get install chromium)');
    site = await startAttackerSite();
  });
  after(() => site.close());
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  function harness(options: Partial<PlaywrightBrowserOptions> = {}): ToolHarness {
    session = new PlaywrightBrowserSession({ policy: { allowHosts: ['127.0.0.2'], denyHosts: [] }, ...options });
    const h = new ToolHarness();
    h.registry.register(browserTool(session));
    return h;
  }

  const browse = (h: ToolHarness, args: Record<string, unknown>) => h.call('browser', args);
  const victimSecret = () => `${site.victimUrl}/secret`;

  /** Nothing reached the victim and the secret is nowhere in the results. */
  function assertSealed(...results: ToolResult[]): void {
    assert.deepEqual(site.victimHits, [], 'the victim was never reached');
    for (const r of results) assert.ok(!r.content.includes(site.secret), `the secret leaked into: ${r.content}`);
  }

  it('a redirect chain into the victim is refused at the hop that goes there; the result names that URL', async () => {
    const h = harness();
    const chain = await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.chain}` });
    assert.equal(chain.isError, true, chain.content);
    assert.ok(chain.content.includes(victimSecret()), chain.content);
    assert.match(chain.content, /127\.0\.0\.1 is a loopback address/);
    const byName = await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.chainByName}` });
    assert.equal(byName.isError, true, byName.content);
    assert.match(byName.content, /localhost/);
    const after = await browse(h, { action: 'snapshot' });
    assertSealed(chain, byName, after);
  });

  it('iframes that point at the victim, directly or through a redirect, load nothing from it', async () => {
    const h = harness();
    const framed = await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.frames}` });
    assert.equal(framed.isError, undefined, framed.content);
    assert.match(framed.content, /Title: Framed page/);
    assert.ok(framed.content.includes(`Refused: ${victimSecret()}`), framed.content);
    const snapshot = await browse(h, { action: 'snapshot' });
    assertSealed(framed, snapshot);
  });

  it('fetch and XHR (direct and through a redirect), a WebSocket, dedicated, shared and service workers reach nothing', async () => {
    const h = harness();
    await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.scripts}` });
    const done = await browse(h, { action: 'wait_for', text: 'all attempts done' });
    assert.equal(done.isError, undefined, done.content);
    const snapshot = await browse(h, { action: 'snapshot' });
    for (const attempt of ['fetch through a redirect', 'fetch direct', 'xhr through a redirect', 'xhr direct', 'websocket', 'dedicated worker', 'shared worker', 'service worker']) {
      assert.match(snapshot.content, new RegExp(`${attempt}: (failed|no answer)`), `every attempt ran and failed: ${snapshot.content}`);
    }
    assertSealed(done, snapshot);
  });

  for (const [how, path, title] of [
    ['a meta refresh', ATTACKS.metaRefresh, 'Waiting page'],
    ['a script', ATTACKS.scriptMove, 'Moving page'],
  ] as const) {
    it(`a page that moves itself to the victim after load (${how}) is reported at its final URL, refused, never snapshotted`, async () => {
      const h = harness();
      const landed = await browse(h, { action: 'navigate', url: `${site.url}${path}` });
      assert.equal(landed.isError, undefined, landed.content);
      assert.match(landed.content, new RegExp(`Title: ${title}`));
      let seen = landed;
      for (let i = 0; i < 50 && !seen.content.includes(victimSecret()); i++) {
        await new Promise((r) => setTimeout(r, 200));
        seen = await browse(h, { action: 'snapshot' });
      }
      assert.equal(seen.isError, true, seen.content);
      assert.ok(seen.content.includes(victimSecret()), `the final URL is reported: ${seen.content}`);
      assert.match(seen.content, /loopback address/);
      assert.ok(!/UNTRUSTED WEB CONTENT/.test(seen.content), 'no snapshot of the refused page');
      assertSealed(landed, seen);
    });
  }

  it('WebRTC sends no UDP of its own (a STUN server on loopback receives nothing)', async () => {
    const stun = dgram.createSocket('udp4');
    const packets: Buffer[] = [];
    stun.on('message', (message) => packets.push(message));
    await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve));
    try {
      const h = harness();
      await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.webrtc}?port=${stun.address().port}` });
      const done = await browse(h, { action: 'wait_for', text: 'gathering done' });
      assert.equal(done.isError, undefined, done.content);
      assert.equal(packets.length, 0, 'no STUN packet left the browser');
    } finally {
      stun.close();
    }
  });

  it('a page that never ends is cut at the byte limit of the action', async () => {
    const h = harness({ maxBytesPerAction: 4 * 1024 * 1024, actionTimeoutMs: 5_000 });
    const endless = await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.stream}` });
    assert.equal(endless.isError, true, endless.content);
    assert.match(endless.content, /limit of 4 MB/);
    const next = await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.frames}` });
    assert.equal(next.isError, undefined, `the next action has a fresh budget: ${next.content}`);
  });

  it('a page that blocks its renderer is stopped by the action deadline; the browser works afterwards', async () => {
    const h = harness({ actionTimeoutMs: 2_000, actionDeadlineMs: 5_000 });
    // The renderer may block while the navigation is still being observed, or only afterwards.
    const opened = await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.spin}` });
    const stuck = opened.isError ? opened : await browse(h, { action: 'snapshot' });
    assert.equal(stuck.isError, true, stuck.content);
    assert.match(stuck.content, /took longer than 5 s/);
    const next = await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.frames}` });
    assert.equal(next.isError, undefined, next.content);
  });

  it('Chromium is forced through the session proxy (loopback included); closing the session ends both', async () => {
    const h = harness();
    await browse(h, { action: 'navigate', url: `${site.url}${ATTACKS.frames}` });
    const chromium = descendants(process.pid).filter((pid) => /chrom/i.test(commandLine(pid)));
    assert.ok(chromium.length > 0);
    const main = commandLine(chromium[0]!);
    const proxyPort = Number(/--proxy-server=http:\/\/127\.0\.0\.1:(\d+)/.exec(main)?.[1]);
    assert.ok(proxyPort > 0, main);
    assert.match(main, /--proxy-bypass-list=<-loopback>/);
    await session!.close();
    const deadline = Date.now() + 10_000;
    while (chromium.some(isRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(chromium.filter(isRunning), [], 'every browser process ended');
    const refused = await new Promise<string>((resolve) => {
      const socket = net.connect(proxyPort, '127.0.0.1');
      socket.on('connect', () => resolve('connected'));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    assert.equal(refused, 'ECONNREFUSED', 'the proxy stopped with the session');
  });
});
