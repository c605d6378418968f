import assert from 'node:assert/strict';
import { LIST_FILES_LIMIT } from '../../../src/agent/tools/builtins/listFiles';
import { SEARCH_MAX_MATCHES } from '../../../src/agent/tools/builtins/searchFiles';
import { MemoryWorkspace } from '../../support/memoryWorkspace';
import { ToolHarness } from './toolHarness';

function project(): MemoryWorkspace {
  const workspace = new MemoryWorkspace({
    'README.md': '# Demo\nTODO: write docs\n',
    'src/app.ts': 'import { util } from "./util";\n\nexport function main() {\n  // TODO: handle errors\n  return util();\n}\n',
    'src/util.ts': 'export function util() {\n  return 42;\n}\n',
    'src/deep/more.ts': 'export const x = 1; // TODO\n',
  });
  workspace.mkdir('empty');
  return workspace;
}

describe('list_files', () => {
  it('lists the root with folders marked by a slash', async () => {
    const h = new ToolHarness({ workspace: project() });
    const result = await h.call('list_files', {});
    assert.equal(result.content, 'README.md\nempty/\nsrc/');
  });

  it('lists a folder recursively with workspace-relative paths', async () => {
    const h = new ToolHarness({ workspace: project() });
    const result = await h.call('list_files', { path: 'src', recursive: true });
    assert.equal(result.content, 'src/app.ts\nsrc/deep/\nsrc/deep/more.ts\nsrc/util.ts');
  });

  it('says when a folder is empty, missing, or a file', async () => {
    const h = new ToolHarness({ workspace: project() });
    assert.match((await h.call('list_files', { path: 'empty' })).content, /^empty is empty/);
    const missing = await h.call('list_files', { path: 'nope' });
    assert.equal(missing.isError, true);
    assert.equal(missing.content, 'Folder not found: nope.');
    assert.match((await h.call('list_files', { path: 'src/app.ts' })).content, /is a file, not a folder; use read_file/);
    assert.match((await h.call('list_files', { path: '../..' })).content, /outside the workspace/);
  });

  it('stops at the limit and says the list was cut', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < LIST_FILES_LIMIT + 20; i++) files[`gen/f${String(i).padStart(4, '0')}.txt`] = '';
    const h = new ToolHarness({ workspace: new MemoryWorkspace(files) });
    const lines = (await h.call('list_files', { path: 'gen' })).content.split('\n');
    assert.equal(lines.length, LIST_FILES_LIMIT + 1);
    assert.match(lines.at(-1)!, /^\[Showing the first 500 entries; more exist\./);
  });
});

describe('search_files', () => {
  it('shows matches as path:line: text with context lines, grouped', async () => {
    const h = new ToolHarness({ workspace: project() });
    const result = await h.call('search_files', { pattern: 'TODO' });
    assert.equal(
      result.content,
      [
        'README.md-1- # Demo',
        'README.md:2: TODO: write docs',
        '--',
        'src/app.ts-3- export function main() {',
        'src/app.ts:4:   // TODO: handle errors',
        'src/app.ts-5-   return util();',
        '--',
        'src/deep/more.ts:1: export const x = 1; // TODO',
        '[3 matches in 3 files.]',
      ].join('\n'),
    );
  });

  it('narrows by path and glob', async () => {
    const h = new ToolHarness({ workspace: project() });
    const byPath = await h.call('search_files', { pattern: 'export', path: 'src/deep' });
    assert.match(byPath.content, /^src\/deep\/more\.ts:1: /);
    assert.match(byPath.content, /\[1 match in 1 file\.\]$/);
    const byGlob = await h.call('search_files', { pattern: 'TODO', glob: '*.md' });
    assert.match(byGlob.content, /^README\.md-1- # Demo\nREADME\.md:2: TODO/);
  });

  it('shows overlapping context once', async () => {
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'a.txt': 'x1\nx2\nmid\n' }) });
    assert.equal((await h.call('search_files', { pattern: '^x' })).content, 'a.txt:1: x1\na.txt:2: x2\na.txt-3- mid\n[2 matches in 1 file.]');
  });

  it('says clearly when nothing matches', async () => {
    const h = new ToolHarness({ workspace: project() });
    const result = await h.call('search_files', { pattern: 'FIXME', glob: '*.ts' });
    assert.equal(result.isError, undefined);
    assert.equal(result.content, 'No matches for /FIXME/ in files matching *.ts.');
  });

  it('stops at the match limit and says so', async () => {
    const many = Array.from({ length: SEARCH_MAX_MATCHES + 50 }, (_, i) => `hit ${i}`).join('\n');
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'many.txt': many }) });
    const result = await h.call('search_files', { pattern: 'hit' });
    assert.equal(result.content.split('\n').filter((l) => /^many\.txt:\d+: /.test(l)).length, SEARCH_MAX_MATCHES);
    assert.match(result.content, /\[Showing the first 100 matches in 1 file; more exist\. Narrow the search/);
  });

  it('returns an invalid pattern as an error the model can fix', async () => {
    const h = new ToolHarness({ workspace: project() });
    const result = await h.call('search_files', { pattern: 'foo(' });
    assert.equal(result.isError, true);
    assert.match(result.content, /Invalid regular expression/);
  });
});
