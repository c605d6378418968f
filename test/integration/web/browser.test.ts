import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { browserTool } from '../../../src/agent/tools/web/browserTool';
import { PlaywrightBrowserSession } from '../../../src/node/web/browser/playwrightBrowser';
import { ToolHarness } from '../../unit/tools/toolHarness';
import { startBrowserSite, type BrowserSite } from '../../support/browserSite';
import { commandLine, descendants, isRunning } from '../../support/processes';

// The browser tool in Debian's Chromium (/usr/bin/chromium, found automatically) against a local
// multi-page site. The site is on 127.0.0.1, which the tests allow explicitly.

const CHROMIUM = '/usr/bin/chromium';

describe('browser tool in Chromium against a local site', function () {
  this.timeout(90_000);
  let site: BrowserSite;
  let session: PlaywrightBrowserSession | undefined;

  before(async function () {
    assert.ok(existsSync(CHROMIUM), 'Debian chromium must be installed (apt-get install chromium)');
    site = await startBrowserSite();
  });
  after(() => site.close());
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  function harness(allow = ['127.0.0.1'], actionTimeoutMs?: number): ToolHarness {
    session = new PlaywrightBrowserSession({ policy: { allowHosts: allow, denyHosts: [] }, ...(actionTimeoutMs ? { actionTimeoutMs } : {}) });
    const h = new ToolHarness();
    h.registry.register(browserTool(session));
    return h;
  }

  const chromiumPids = () => descendants(process.pid).filter((pid) => /chrom/i.test(commandLine(pid)));

  it('logs in through a form, navigates by link text and reads a table', async () => {
    const h = harness();
    const login = await h.call('browser', { action: 'navigate', url: `${site.url}/login` });
    assert.equal(login.isError, undefined, login.content);
    assert.match(login.content, /Title: Sign in/);
    assert.match(login.content, /textbox "User name"/);
    assert.equal(h.approvals.length, 1, 'navigating asks a web approval');
    assert.equal(h.approvals[0]!.category, 'web');

    const typed = await h.call('browser', { action: 'type', label: 'User name', value: 'ada' });
    assert.equal(typed.isError, undefined, typed.content);
    await h.call('browser', { action: 'select', label: 'Region', value: 'Asia' });
    await h.call('browser', { action: 'type', label: 'Password', value: 'lovelace' });
    const signedIn = await h.call('browser', { action: 'click', text: 'Sign in', role: 'button', name: 'Sign in' });
    assert.equal(signedIn.isError, undefined, signedIn.content);
    const welcome = await h.call('browser', { action: 'wait_for', text: 'Welcome, Ada' });
    assert.match(welcome.content, /URL: http:\/\/127\.0\.0\.1:\d+\/home/);

    const orders = await h.call('browser', { action: 'click', text: 'Orders' });
    assert.equal(orders.isError, undefined, orders.content);
    assert.match(orders.content, /URL: http:\/\/127\.0\.0\.1:\d+\/orders/);
    const table = await h.call('browser', { action: 'snapshot' });
    for (const cell of ['A-1001', 'Widget W-42', '12.50 EUR', 'A-1002', 'Shaft S-7', '48.00 EUR']) assert.match(table.content, new RegExp(`cell "${cell}"`));
    assert.match(table.content, /UNTRUSTED CONTENT/);

    const scrolled = await h.call('browser', { action: 'scroll', direction: 'down' });
    assert.equal(scrolled.isError, undefined, scrolled.content);
    const byRole = await h.call('browser', { action: 'click', role: 'link', name: 'Back home' });
    assert.match(byRole.content, /\/home/);
    await h.call('browser', { action: 'click', selector: 'a[href="/orders"]' });
    const back = await h.call('browser', { action: 'back' });
    assert.match(back.content, /\/home/);
    const shot = await h.call('browser', { action: 'screenshot' });
    assert.equal(shot.images?.length, 1);
    assert.equal(shot.images![0]!.mimeType, 'image/png');
    assert.ok(Buffer.from(shot.images![0]!.data, 'base64').subarray(1, 4).toString() === 'PNG');
    assert.equal(h.approvals.length, 1, 'only navigation asks');
  });

  it('says clearly when an element is not there, and when a field is missing', async () => {
    const h = harness(['127.0.0.1'], 1000);
    await h.call('browser', { action: 'navigate', url: `${site.url}/login` });
    const absent = await h.call('browser', { action: 'click', text: 'Delete my account' });
    assert.equal(absent.isError, true);
    assert.match(absent.content, /^Browser click failed: .*Timeout 1000ms exceeded/);
    const missing = await h.call('browser', { action: 'type', value: 'x' });
    assert.equal(missing.isError, true);
    assert.match(missing.content, /needs an element: give text, role \(\+ name\), label or selector/);
  });

  it('refuses loopback pages that are not allowed', async () => {
    const h = harness([]);
    const refused = await h.call('browser', { action: 'navigate', url: `${site.url}/login` });
    assert.equal(refused.isError, true);
    assert.match(refused.content, /127\.0\.0\.1 is a loopback address/);
  });

  it('cancelling mid-action closes the browser: no browser process is left (checked in /proc)', async () => {
    const h = harness();
    await h.call('browser', { action: 'navigate', url: `${site.url}/login` });
    const running = chromiumPids();
    assert.ok(running.length > 0, 'the browser runs as a descendant of this process');
    const arrived = site.waitFor('/slow');
    const pending = h.call('browser', { action: 'navigate', url: `${site.url}/slow` });
    await arrived;
    h.controller.abort();
    await assert.rejects(pending, (error: Error) => error.name === 'CancelledError');
    const deadline = Date.now() + 10_000;
    while (running.some(isRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(running.filter(isRunning), [], 'every browser process ended');
    assert.deepEqual(chromiumPids(), []);
    const after = await browserTool(session!).execute({ action: 'snapshot' }, h.context()).catch((e: Error) => e);
    assert.ok(after instanceof Error, 'the closed session refuses further actions');
  });

  it('says clearly when no browser is found', async () => {
    session = new PlaywrightBrowserSession({ policy: { allowHosts: ['127.0.0.1'], denyHosts: [] }, executablePath: '/nonexistent/chrome' });
    const h = new ToolHarness();
    h.registry.register(browserTool(session));
    const result = await h.call('browser', { action: 'navigate', url: `${site.url}/login` });
    assert.equal(result.isError, true);
    assert.match(result.content, /The browser at \/nonexistent\/chrome \(stepwise\.web\.browserPath \/ --browser-path\) is missing or not executable/);
  });
});
