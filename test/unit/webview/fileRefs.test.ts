import assert from 'node:assert/strict';
import { escapeHtml, parseFileRef, renderMarkdown } from '../../../webview-ui/src/markdown';
import { briefOf } from '../../../webview-ui/src/itemViews';

describe('webview file references and markdown fallback', () => {
  it('recognises file paths with optional lines', () => {
    assert.deepEqual(parseFileRef('src/a.ts'), { path: 'src/a.ts' });
    assert.deepEqual(parseFileRef('./lib/b.js:12'), { path: './lib/b.js', line: 12 });
    assert.deepEqual(parseFileRef('README.md#L3'), { path: 'README.md', line: 3 });
    assert.deepEqual(parseFileRef('package.json'), { path: 'package.json' });
    assert.deepEqual(parseFileRef('file:///home/u/x%20y/c.py'), { path: '/home/u/x y/c.py' });
    assert.deepEqual(parseFileRef('docs/my notes.md', { link: true }), { path: 'docs/my notes.md' });
    assert.equal(parseFileRef('docs/my notes.md'), undefined, 'loose text with a space is a sentence, not a path');
    assert.deepEqual(parseFileRef('file:///home/u/c.py'), { path: '/home/u/c.py' });
    assert.deepEqual(parseFileRef('文档/说明.md'), { path: '文档/说明.md' });
    assert.deepEqual(parseFileRef('C:\\repo\\main.go:7'), { path: 'C:\\repo\\main.go', line: 7 });
  });

  it('does not take URLs, words, sentences or method calls for files', () => {
    for (const text of ['https://example.com/a.ts', 'javascript:alert(1)', 'vscode://x/y.ts', '//evil.com/a.js', 'hello', 'see the file a.ts', 'console.log', 'v1.2', '']) {
      assert.equal(parseFileRef(text), undefined, text);
    }
  });

  it('without a DOM, renders markdown as escaped text rather than raw HTML', () => {
    const html = renderMarkdown('<script>alert(1)</script><img src=x onerror=alert(1)>');
    assert.ok(!html.includes('<script>'));
    assert.ok(!html.includes('<img'));
    assert.ok(html.includes('&#60;script&#62;'));
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });

  it('summarises a tool call by the argument a person recognises', () => {
    assert.equal(briefOf({ path: 'src/a.ts', content: 'long' }), 'src/a.ts');
    assert.equal(briefOf({ command: 'npm test' }), 'npm test');
    assert.equal(briefOf({ count: 3, label: 'x' }), 'x');
    assert.equal(briefOf(undefined), undefined);
  });
});
