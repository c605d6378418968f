import assert from 'node:assert/strict';
import { MemoryWorkspace } from '../../support/memoryWorkspace';
import { ToolHarness } from './toolHarness';

const SOURCE = ['export function greet(name) {', '  const text = `Hello, ${name}`;', '  return text;', '}', ''].join('\n');

describe('edit_file', () => {
  it('applies an exact edit after approval with a unified diff, and writes once', async () => {
    const workspace = new MemoryWorkspace({ 'src/greet.js': SOURCE });
    const h = new ToolHarness({ workspace });
    const result = await h.call('edit_file', { path: 'src/greet.js', edits: [{ search: 'Hello', replace: 'Hi' }] });
    assert.equal(result.isError, undefined, result.content);
    assert.equal(workspace.text('src/greet.js'), SOURCE.replace('Hello', 'Hi'));
    assert.equal(workspace.writes.length, 1);
    assert.match(result.content, /^Edited src\/greet\.js: 1 edit applied \(\+1 -1 lines\)\.\nedits\[0\]: now lines 2-2$/);

    assert.equal(h.approvals.length, 1);
    const approval = h.approvals[0]!;
    assert.equal(approval.category, 'edit');
    assert.equal(approval.title, 'Edit src/greet.js');
    assert.equal(
      approval.detail,
      [
        '--- a/src/greet.js',
        '+++ b/src/greet.js',
        '@@ -1,4 +1,4 @@',
        ' export function greet(name) {',
        '-  const text = `Hello, ${name}`;',
        '+  const text = `Hi, ${name}`;',
        '   return text;',
        ' }',
        '',
      ].join('\n'),
    );
    assert.deepEqual(approval.diff, { path: 'src/greet.js', before: SOURCE, after: SOURCE.replace('Hello', 'Hi') });
  });

  it('re-indents a whitespace-drifted edit and shows the model what was written', async () => {
    const workspace = new MemoryWorkspace({ 'a.py': 'class A:\n    def f(self):\n        return 1\n' });
    const h = new ToolHarness({ workspace });
    const result = await h.call('edit_file', {
      path: 'a.py',
      edits: [{ search: 'def f(self):\n    return 1', replace: 'def f(self):\n    if self.x:\n        return 2\n    return 1' }],
    });
    assert.equal(result.isError, undefined, result.content);
    assert.equal(workspace.text('a.py'), 'class A:\n    def f(self):\n        if self.x:\n            return 2\n        return 1\n');
    assert.match(result.content, /matched ignoring whitespace/);
    assert.match(result.content, /\+ {8}if self\.x:/);
  });

  it('keeps CRLF line endings and a byte-order mark', async () => {
    const workspace = new MemoryWorkspace({ 'w.cs': '\uFEFFclass W\r\n{\r\n    int x;\r\n}\r\n' });
    const h = new ToolHarness({ workspace });
    const result = await h.call('edit_file', { path: 'w.cs', edits: [{ search: 'int x;\n}', replace: 'int x;\n    int y;\n}' }] });
    assert.equal(result.isError, undefined, result.content);
    assert.equal(workspace.text('w.cs'), '\uFEFFclass W\r\n{\r\n    int x;\r\n    int y;\r\n}\r\n');
    assert.deepEqual([...workspace.bytes('w.cs')!.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  });

  it('changes nothing when a later edit fails, and names it', async () => {
    const workspace = new MemoryWorkspace({ 'src/greet.js': SOURCE });
    const h = new ToolHarness({ workspace });
    const result = await h.call('edit_file', {
      path: 'src/greet.js',
      edits: [
        { search: 'Hello', replace: 'Hi' },
        { search: 'return txt;', replace: 'return text.trim();' },
      ],
    });
    assert.equal(result.isError, true);
    assert.match(result.content, /^edits\[1\]/);
    assert.match(result.content, /closest region is lines 3-3/);
    assert.match(result.content, /No edits were applied; src\/greet\.js is unchanged\./);
    assert.equal(workspace.text('src/greet.js'), SOURCE);
    assert.equal(workspace.writes.length, 0);
    assert.equal(h.approvals.length, 0);
  });

  it('refuses an ambiguous match without asking or writing', async () => {
    const workspace = new MemoryWorkspace({ 'x.txt': 'a = 1\nb = 1\n' });
    const h = new ToolHarness({ workspace });
    const result = await h.call('edit_file', { path: 'x.txt', edits: [{ search: '= 1', replace: '= 2' }] });
    assert.equal(result.isError, true);
    assert.match(result.content, /occurs 2 times \(at lines 1, 2\)/);
    assert.equal(workspace.writes.length, 0);
  });

  it('leaves the file unchanged when the user rejects, and passes the reason on', async () => {
    const workspace = new MemoryWorkspace({ 'src/greet.js': SOURCE });
    const h = new ToolHarness({ workspace, decide: () => ({ approved: false, reason: 'keep the greeting formal' }) });
    const result = await h.call('edit_file', { path: 'src/greet.js', edits: [{ search: 'Hello', replace: 'Yo' }] });
    assert.equal(result.isError, true);
    assert.equal(result.content, 'The user rejected the edit to src/greet.js (the file is unchanged). Reason: keep the greeting formal');
    assert.equal(workspace.text('src/greet.js'), SOURCE);
    assert.equal(workspace.writes.length, 0);
  });

  it('does not overwrite a change the user made while the approval was pending', async () => {
    const workspace = new MemoryWorkspace({ 'n.txt': 'one\n' });
    const h = new ToolHarness({
      workspace,
      decide: () => {
        workspace.set('n.txt', 'one\nuser line\n');
        return { approved: true };
      },
    });
    const result = await h.call('edit_file', { path: 'n.txt', edits: [{ search: 'one', replace: 'two' }] });
    assert.equal(result.isError, true);
    assert.match(result.content, /changed while the change was waiting for approval/);
    assert.equal(workspace.text('n.txt'), 'one\nuser line\n');
  });

  it('reports a missing file and points to write_file', async () => {
    const h = new ToolHarness();
    const result = await h.call('edit_file', { path: 'nope.ts', edits: [{ search: 'a', replace: 'b' }] });
    assert.equal(result.isError, true);
    assert.equal(result.content, 'File not found: nope.ts. To create a file use write_file.');
  });

  it('refuses an empty search and a no-op edit', async () => {
    const workspace = new MemoryWorkspace({ 'a.txt': 'a\n' });
    const h = new ToolHarness({ workspace });
    const empty = await h.call('edit_file', { path: 'a.txt', edits: [{ search: '', replace: 'x' }] });
    assert.equal(empty.isError, true);
    assert.match(empty.content, /`search` is empty/);
    const same = await h.call('edit_file', { path: 'a.txt', edits: [{ search: 'a', replace: 'a' }] });
    assert.equal(same.isError, true);
    assert.match(same.content, /identical/);
    assert.equal(workspace.writes.length, 0);
  });

  it('refuses files that are binary or not valid UTF-8', async () => {
    const workspace = new MemoryWorkspace({
      'img.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'latin1.txt': new Uint8Array([...new TextEncoder().encode('caf'), 0xe9, 0x0a, ...new TextEncoder().encode('plain text line\n')]),
    });
    const h = new ToolHarness({ workspace });
    const binary = await h.call('edit_file', { path: 'img.png', edits: [{ search: 'P', replace: 'Q' }] });
    assert.match(binary.content, /binary file/);
    const latin = await h.call('edit_file', { path: 'latin1.txt', edits: [{ search: 'plain', replace: 'other' }] });
    assert.equal(latin.isError, true);
    assert.match(latin.content, /not valid UTF-8/);
    assert.equal(workspace.writes.length, 0);
  });

  it('refuses paths outside the workspace', async () => {
    const h = new ToolHarness();
    const result = await h.call('edit_file', { path: '../etc/passwd', edits: [{ search: 'a', replace: 'b' }] });
    assert.equal(result.isError, true);
    assert.match(result.content, /outside the workspace/);
  });

  it('gives a readable validation error when `edits` is missing or malformed', async () => {
    const h = new ToolHarness();
    const missing = await h.call('edit_file', { path: 'a.txt' });
    assert.equal(missing.isError, true);
    assert.match(missing.content, /^Invalid arguments for `edit_file`: `edits`: .*expected array/);
    const malformed = await h.call('edit_file', { path: 'a.txt', edits: [{ search: 'a' }] });
    assert.match(malformed.content, /`edits\.0\.replace`/);
    const notJson = await h.call('edit_file', '{"path": "a.txt", "edits": [');
    assert.match(notJson.content, /not valid JSON/);
  });
});
