import assert from 'node:assert/strict';
import { mcpSectionAutoOpen, shortToolName } from '../../../webview-ui/src/mcpSection';
import { joinSegments, resolveDocumentPath, resolveImageTarget } from '../../../webview-ui/src/workspaceImage';

const WS = 'https://file+.vscode-resource.vscode-cdn.net/home/u/my%20ws';

describe('report images: resolving a markdown image against the workspace', () => {
  it('resolves a relative image against the report\'s folder into a URL under the workspace', () => {
    assert.deepEqual(resolveImageTarget('charts/sales.png', { documentPath: 'docs/report.md', workspaceUri: WS }),
      { kind: 'image', path: 'docs/charts/sales.png', url: `${WS}/docs/charts/sales.png` });
    assert.deepEqual(resolveImageTarget('./a.SVG', { documentPath: 'report.md', workspaceUri: `${WS}/` }),
      { kind: 'image', path: 'a.SVG', url: `${WS}/a.SVG` }, 'a trailing slash on the base is not doubled');
    assert.deepEqual(resolveImageTarget('../out/chart.webp', { documentPath: 'docs/r.md', workspaceUri: WS }),
      { kind: 'image', path: 'out/chart.webp', url: `${WS}/out/chart.webp` }, '.. inside the workspace is fine');
    assert.deepEqual(resolveImageTarget('chart.jpeg', { workspaceUri: WS }), { kind: 'image', path: 'chart.jpeg', url: `${WS}/chart.jpeg` },
      'a report without a file resolves against the workspace root');
    for (const ext of ['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp']) assert.equal(resolveImageTarget(`x.${ext}`, { workspaceUri: WS }).kind, 'image', ext);
  });

  it('percent-encodes each segment of the URL and decodes the markdown src first', () => {
    assert.deepEqual(resolveImageTarget('my%20charts/图 1.png', { documentPath: 'r.md', workspaceUri: WS }),
      { kind: 'image', path: 'my charts/图 1.png', url: `${WS}/my%20charts/${encodeURIComponent('图 1.png')}` });
    assert.deepEqual(resolveImageTarget('a%23b.png?v=2#top', { workspaceUri: WS }), { kind: 'image', path: 'a#b.png', url: `${WS}/a%23b.png` },
      'query and fragment are dropped, an encoded # stays part of the name');
    assert.deepEqual(resolveImageTarget('charts\\win.png', { documentPath: 'docs\\r.md', workspaceUri: WS }),
      { kind: 'image', path: 'docs/charts/win.png', url: `${WS}/docs/charts/win.png` }, 'backslashes separate segments');
  });

  it('never loads anything that leaves the workspace', () => {
    const base = { documentPath: 'docs/report.md', workspaceUri: WS };
    for (const src of ['../../etc/passwd.png', '../../../x.png', '..%2F..%2F..%2Fx.png', 'a/../../../x.png', '..\\..\\x.png']) {
      assert.deepEqual(resolveImageTarget(src, base), { kind: 'outside' }, src);
    }
    assert.deepEqual(resolveImageTarget('%2Fetc%2Fx.png', base), { kind: 'outside' }, 'an encoded absolute path');
    assert.deepEqual(resolveImageTarget('C%3A/x.png', base), { kind: 'outside' }, 'an encoded drive letter');
    assert.deepEqual(resolveImageTarget('bad%E0%A4%A.png', base), { kind: 'outside' }, 'broken percent-encoding');
    assert.deepEqual(resolveImageTarget('a%00.png', base), { kind: 'outside' }, 'control characters');
    assert.deepEqual(resolveImageTarget('x.png', { documentPath: '/abs/report.md', workspaceUri: WS }), { kind: 'outside' }, 'a document outside the workspace');
    assert.deepEqual(resolveImageTarget('x.png', { documentPath: '../report.md', workspaceUri: WS }), { kind: 'outside' });
  });

  it('treats URLs and absolute paths as external: never resolved, never loaded', () => {
    for (const src of ['https://tracker.example/pixel.gif', 'http://127.0.0.1/x.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)',
      '//evil.example/x.png', '/etc/x.png', '\\\\server\\share\\x.png', 'C:/x.png', 'c:\\x.png', 'file:///home/u/x.png', 'vscode-resource:/x.png', '', '  ']) {
      assert.deepEqual(resolveImageTarget(src, { documentPath: 'r.md', workspaceUri: WS }), { kind: 'external' }, src);
    }
  });

  it('links (does not inline) other file types, and everything when there is no usable workspace URI', () => {
    assert.deepEqual(resolveImageTarget('data/table.csv', { documentPath: 'docs/r.md', workspaceUri: WS }), { kind: 'file', path: 'docs/data/table.csv' });
    assert.deepEqual(resolveImageTarget('chart.bmp', { workspaceUri: WS }), { kind: 'file', path: 'chart.bmp' });
    assert.deepEqual(resolveImageTarget('chart.png', { documentPath: 'docs/r.md' }), { kind: 'file', path: 'docs/chart.png' });
    for (const workspaceUri of ['javascript:alert(1)//', 'data:image/png,', 'not a url', 'https://x.example/ws?q=1', 'https://x.example/ws#f', '']) {
      assert.deepEqual(resolveImageTarget('chart.png', { workspaceUri }), { kind: 'file', path: 'chart.png' }, workspaceUri);
    }
  });

  it('resolves links the way the reporter writes them: from the report\'s folder', () => {
    const report = '.stepwise/reports/20250102-100000-draw-a-chart.md';
    assert.deepEqual(resolveDocumentPath('../../src/chart.py', report), { kind: 'inside', path: 'src/chart.py' });
    assert.deepEqual(resolveDocumentPath('../../my%20docs/a%5Bb%5D.md', report), { kind: 'inside', path: 'my docs/a[b].md' });
    assert.deepEqual(resolveDocumentPath('../../../x.md', report), { kind: 'outside' });
    assert.deepEqual(resolveDocumentPath('https://example.com/a.md', report), { kind: 'external' });
    assert.deepEqual(resolveDocumentPath('src/a.ts', undefined), { kind: 'inside', path: 'src/a.ts' }, 'no document: from the root');
  });

  it('joins segments with . and .., refusing to climb above the root', () => {
    assert.deepEqual(joinSegments(['a', 'b'], './c/../d'), ['a', 'b', 'd']);
    assert.deepEqual(joinSegments([], 'a//b/'), ['a', 'b']);
    assert.deepEqual(joinSegments(['a'], '..'), []);
    assert.equal(joinSegments(['a'], '../..'), undefined);
  });
});

describe('MCP section helpers', () => {
  it('shows tools without their server prefix', () => {
    assert.equal(shortToolName('everything', 'everything__echo'), 'echo');
    assert.equal(shortToolName('my server', 'my_server__read'), 'read', 'the prefix is the sanitised server name');
    assert.equal(shortToolName('a', 'b__c'), 'b__c', 'another server\'s prefix stays');
    assert.equal(shortToolName('a', 'a__'), 'a__');
  });

  it('opens by itself only when a server failed', () => {
    assert.equal(mcpSectionAutoOpen([]), false);
    assert.equal(mcpSectionAutoOpen([{ name: 'a', status: 'connected', tools: [] }, { name: 'b', status: 'disabled', tools: [], lastError: 'old' }]), false);
    assert.equal(mcpSectionAutoOpen([{ name: 'a', status: 'connected', tools: [] }, { name: 'b', status: 'error', tools: [] }]), true);
  });
});
