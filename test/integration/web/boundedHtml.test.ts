import { strict as assert } from 'node:assert';
import { convertHtmlBounded, htmlShape, MAX_HTML_DEPTH, MAX_HTML_ELEMENTS } from '../../../src/node/web/boundedHtml';
import { htmlToPlainText } from '../../../src/node/web/htmlToPlainText';
import { CancelledError } from '../../../src/agent/errors';

// The conversion worker (a real worker_threads Worker running the TypeScript source through tsx):
// an ordinary page comes back as markdown; a worker out of time or heap is ended and the page
// comes back as plain text with a note; cancellation ends it too.

const ARTICLE = `<!doctype html><html><head><title>Widgets</title></head><body><nav>Home | About</nav><article><h1>Widgets</h1>
${'<p>Widgets transfer torque between shafts, and crews inspect them every week for wear.</p>'.repeat(8)}
<p>See <a href="/guide">the guide</a>.</p></article></body></html>`;

describe('bounded HTML conversion (worker thread)', function () {
  this.timeout(60_000);

  it('converts an ordinary page to markdown in the worker, links absolute', async () => {
    const page = await convertHtmlBounded(ARTICLE, 'http://site.test/a', { timeMs: 30_000 });
    assert.equal(page.format, 'markdown');
    assert.equal(page.note, undefined);
    assert.equal(page.title, 'Widgets');
    assert.match(page.markdown, /\[the guide\]\(http:\/\/site\.test\/guide\)/);
  });

  it('a worker out of time is ended: plain text with a note', async () => {
    const page = await convertHtmlBounded(ARTICLE, 'http://site.test/a', { timeMs: 2 });
    assert.equal(page.format, 'text');
    assert.match(page.note ?? '', /took longer than|used up its time/);
    assert.match(page.markdown, /Widgets transfer torque/);
    assert.doesNotMatch(page.markdown, /<p>/);
  });

  it('a worker out of heap is ended: plain text with a note', async () => {
    const big = `<html><body>${'<div><p>word word word word</p></div>'.repeat(12_000)}</body></html>`;
    const page = await convertHtmlBounded(big, 'http://site.test/a', { timeMs: 30_000, heapMb: 2 });
    assert.equal(page.format, 'text');
    assert.match(page.note ?? '', /needed more than 2 MB|could not be converted|converter stopped/);
  });

  it('cancellation ends the worker and throws CancelledError', async () => {
    const controller = new AbortController();
    const running = convertHtmlBounded(ARTICLE, 'http://site.test/a', { timeMs: 30_000, signal: controller.signal });
    controller.abort();
    await assert.rejects(running, CancelledError);
  });

  it('shape limits send hostile pages to the fallback without parsing them', () => {
    assert.ok(htmlShape('<div>'.repeat(MAX_HTML_DEPTH + 10)).depth > MAX_HTML_DEPTH);
    assert.ok(htmlShape('<span></span>'.repeat(MAX_HTML_ELEMENTS + 10)).elements > MAX_HTML_ELEMENTS);
    assert.deepEqual(htmlShape('<p>a<p>b<br><img src=x><div><b>c</b></div>'), { depth: 2, elements: 6 });
  });

  it('the plain-text fallback drops scripts, styles and tags, keeps blocks on lines, decodes entities', () => {
    const plain = htmlToPlainText('<html><head><title>T &amp; U</title><style>x{}</style></head><body><script>evil()</script><h1>Head</h1><p>One&nbsp;&lt;two&gt; &#x263A;</p><div>Three</div><script>never closed');
    assert.equal(plain.title, 'T & U');
    assert.equal(plain.text, 'Head\n\nOne <two> ☺\n\nThree');
  });
});
