import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { webFetchTool } from '../../../src/agent/tools/web/webFetchTool';
import { NodeWebFetcher } from '../../../src/node/web/nodeWebFetcher';
import { ToolHarness } from '../../unit/tools/toolHarness';

// Content handling of web_fetch against a real loopback server: the bytes decide what is text
// (acceptance 5), and HTML conversion is bounded in time and memory (acceptance 6).

const PNG = readFileSync('media/icon.png');
const DEEP = `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(60_000)}deep text${'</div>'.repeat(60_000)}</body></html>`;
const BLOCK = (i: number) => `<div class="b"><p>Block ${i}: lorem ipsum dolor sit amet, consectetur.</p></div>\n`;
const MANY = `<!doctype html><html><head><title>Many</title></head><body><main>${Array.from({ length: 80_000 }, (_, i) => BLOCK(i)).join('')}</main></body></html>`;

const ROUTES: Record<string, { type?: string; body: Buffer | string }> = {
  '/png-untyped': { body: PNG },
  '/png-as-text': { type: 'text/plain; charset=utf-8', body: PNG },
  '/png-as-html': { type: 'text/html', body: PNG },
  '/text-untyped': { body: 'plain words, no header\n' },
  '/deep': { type: 'text/html', body: DEEP },
  '/many': { type: 'text/html; charset=utf-8', body: MANY },
};

describe('web_fetch content: sniffed bytes and bounded conversion', function () {
  this.timeout(120_000);
  let server: http.Server;
  let base: string;
  before(async () => {
    server = http.createServer((req, res) => {
      const route = ROUTES[req.url ?? ''];
      if (!route) return res.writeHead(404).end();
      // Without `type`, Node sends no Content-Type header at all.
      res.writeHead(200, route.type ? { 'content-type': route.type } : {});
      res.end(route.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const fetchPage = (path: string, timeoutMs = 30_000) => {
    const h = new ToolHarness();
    h.registry.register(webFetchTool(new NodeWebFetcher({ policy: { allowHosts: ['127.0.0.1'], denyHosts: [] }, timeoutMs })));
    return h.call('web_fetch', { url: `${base}${path}` });
  };

  it('a PNG served without Content-Type is refused as binary, with a clear message', async () => {
    const result = await fetchPage('/png-untyped');
    assert.equal(result.isError, true);
    assert.match(result.content, /is a PNG image \(served without a Content-Type\); web_fetch reads only HTML, JSON and text/);
    assert.ok(!result.content.includes('IHDR'), 'no byte of the image reaches the model');
  });

  it('binary bytes declared as text or HTML are refused too; untyped text still reads', async () => {
    for (const path of ['/png-as-text', '/png-as-html']) {
      const result = await fetchPage(path);
      assert.equal(result.isError, true, path);
      assert.match(result.content, /is a PNG image \(served as text\/(plain|html)\)/);
    }
    const text = await fetchPage('/text-untyped');
    assert.equal(text.isError, undefined, text.content);
    assert.match(text.content, /plain words, no header/);
  });

  for (const [path, what] of [['/deep', 'a 60,000-deep page'], ['/many', 'a 5 MB page of 80,000 blocks']] as const) {
    it(`${what} ends within the fetch limit with RSS under 500 MB`, async () => {
      const limitMs = 20_000;
      let peak = process.memoryUsage().rss;
      // The worker thread's memory is part of this process's RSS.
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
      const started = Date.now();
      let result;
      try {
        result = await fetchPage(path, limitMs);
      } finally {
        clearInterval(sampler);
      }
      const elapsed = Date.now() - started;
      peak = Math.max(peak, process.memoryUsage().rss);
      assert.equal(result.isError, undefined, result.content.slice(0, 500));
      assert.ok(elapsed <= limitMs, `ended after ${elapsed} ms, limit ${limitMs} ms`);
      assert.ok(peak < 500 * 1024 * 1024, `peak RSS ${Math.round(peak / 1048576)} MB`);
      assert.match(result.content, path === '/deep' ? /deep text/ : /Block 0: lorem ipsum/);
      assert.match(result.content, /UNTRUSTED CONTENT/);
    });
  }
});
