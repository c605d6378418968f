import assert from 'node:assert/strict';
import { MAX_APPROVAL_DIFF_CHARS } from '../../../src/agent/tools/builtins/writeFile';
import { MemoryWorkspace } from '../../support/memoryWorkspace';
import { ToolHarness } from './toolHarness';

describe('write_file', () => {
  it('creates a file after approval of a /dev/null diff', async () => {
    const workspace = new MemoryWorkspace();
    const h = new ToolHarness({ workspace });
    const result = await h.call('write_file', { path: 'src/new.ts', content: 'a\nb\n' });
    assert.equal(result.isError, undefined);
    assert.equal(result.content, 'Created src/new.ts (2 lines).');
    assert.equal(workspace.text('src/new.ts'), 'a\nb\n');
    const approval = h.approvals[0]!;
    assert.equal(approval.category, 'edit');
    assert.equal(approval.title, 'Create src/new.ts');
    assert.equal(approval.detail, '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n');
    assert.deepEqual(approval.diff, { path: 'src/new.ts', before: '', after: 'a\nb\n' });
  });

  it('a generated file of megabytes shows the first 64 KB of its diff in the approval, the whole in diff.after (issue 28)', async () => {
    const workspace = new MemoryWorkspace();
    const h = new ToolHarness({ workspace });
    const content = 'const x = 1;\n'.repeat(200_000);
    const result = await h.call('write_file', { path: 'big.ts', content });
    assert.equal(result.content, 'Created big.ts (200000 lines).');
    assert.equal(workspace.text('big.ts'), content);
    const approval = h.approvals[0]!;
    assert.ok(approval.detail.length <= MAX_APPROVAL_DIFF_CHARS + 60, `${approval.detail.length} characters`);
    assert.ok(approval.detail.startsWith('--- /dev/null\n+++ b/big.ts\n@@ -0,0 +1,200000 @@\n+const x = 1;\n'));
    const shown = approval.detail.split('\n').filter((line) => line.startsWith('+const')).length;
    assert.ok(approval.detail.endsWith(`… ${200_000 - shown} more lines of the diff not shown\n`), approval.detail.slice(-80));
    assert.equal(approval.diff?.after, content);
  });

  it('overwrites a file, showing the diff against the old content', async () => {
    const workspace = new MemoryWorkspace({ 'a.txt': 'old\nsame\n' });
    const h = new ToolHarness({ workspace });
    const result = await h.call('write_file', { path: './a.txt', content: 'new\nsame\n' });
    assert.equal(result.content, 'Overwrote a.txt (2 lines).');
    assert.equal(h.approvals[0]!.title, 'Overwrite a.txt');
    assert.equal(h.approvals[0]!.detail, '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-old\n+new\n same\n');
    assert.equal(workspace.text('a.txt'), 'new\nsame\n');
  });

  it('keeps CRLF line endings of the file it overwrites', async () => {
    const workspace = new MemoryWorkspace({ 'w.txt': 'x\r\ny\r\n' });
    const h = new ToolHarness({ workspace });
    const result = await h.call('write_file', { path: 'w.txt', content: 'x\nz\n' });
    assert.equal(result.content, 'Overwrote w.txt (2 lines). Kept its CRLF line endings.');
    assert.equal(workspace.text('w.txt'), 'x\r\nz\r\n');
  });

  it('writes nothing when the content is already there', async () => {
    const workspace = new MemoryWorkspace({ 'a.txt': 'same\n' });
    const h = new ToolHarness({ workspace });
    assert.equal((await h.call('write_file', { path: 'a.txt', content: 'same\n' })).content, 'a.txt already has this content; nothing was written.');
    assert.equal(workspace.writes.length, 0);
    assert.equal(h.approvals.length, 0);
  });

  it('returns a rejection with the reason and writes nothing', async () => {
    const workspace = new MemoryWorkspace({ 'a.txt': 'keep\n' });
    const h = new ToolHarness({ workspace, decide: () => ({ approved: false, reason: 'wrong file' }) });
    const result = await h.call('write_file', { path: 'a.txt', content: 'replaced\n' });
    assert.equal(result.isError, true);
    assert.equal(result.content, 'The user rejected writing a.txt (nothing was written). Reason: wrong file');
    assert.equal(workspace.text('a.txt'), 'keep\n');
  });

  it('words a rejection without a reason', async () => {
    const h = new ToolHarness({ decide: () => ({ approved: false }) });
    const result = await h.call('write_file', { path: 'a.txt', content: 'x' });
    assert.equal(result.isError, true);
    assert.match(result.content, /^The user rejected writing a\.txt \(nothing was written\)\. Ask what they want instead/);
  });

  it('refuses a folder path and a path outside the workspace', async () => {
    const workspace = new MemoryWorkspace({ 'src/a.ts': '' });
    const h = new ToolHarness({ workspace });
    assert.match((await h.call('write_file', { path: 'src', content: 'x' })).content, /src is a folder/);
    assert.match((await h.call('write_file', { path: '/etc/passwd', content: 'x' })).content, /outside the workspace/);
    assert.equal(workspace.writes.length, 0);
  });

  it('replaces a binary file only with an explicit approval text', async () => {
    const workspace = new MemoryWorkspace({ 'b.bin': new Uint8Array([1, 0, 2]) });
    const h = new ToolHarness({ workspace });
    const result = await h.call('write_file', { path: 'b.bin', content: 'text\n' });
    assert.equal(result.content, 'Overwrote b.bin (1 line).');
    assert.equal(h.approvals[0]!.detail, 'Replace the binary file b.bin with 1 line of text.');
  });
});
