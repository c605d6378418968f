import assert from 'node:assert/strict';
import { READ_FILE_MAX_CHARS, READ_FILE_MAX_LINES } from '../../../src/agent/tools/builtins/readFile';
import { MemoryWorkspace } from '../../support/memoryWorkspace';
import { ToolHarness } from './toolHarness';

const numbered = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('numbers the lines of a small file: the first and every fifth line, a tab, the line', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `l${i + 1}`);
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'a.txt': lines.join('\n') + '\n' }) });
    const result = await h.call('read_file', { path: 'a.txt' });
    assert.equal(result.isError, undefined);
    const out = result.content.split('\n');
    assert.equal(out.length, 12);
    assert.equal(out[0], '1\tl1');
    assert.equal(out[1], '\tl2');
    assert.equal(out[4], '5\tl5');
    assert.equal(out[9], '10\tl10');
    assert.equal(out[11], '\tl12');
  });

  describe('the gutter: a number column (first line, every fifth), a tab, the line exactly', () => {
    const cases: Array<[string, string, Record<string, number>, string]> = [
      ['empty lines keep their column\'s tab', 'a\n\n\nb\n\n', {}, '1\ta\n\t\n\t\n\tb\n5\t'],
      ['tabs inside and at the start of lines', '\tx\ty\n\t\t\n', {}, '1\t\tx\ty\n\t\t\t'],
      ['CRLF without the CR, a lone CR kept', 'a\r\nb\rc\r\n', {}, '1\ta\n\tb\rc'],
      ['lines that look like gutters themselves', '7\tseven\n  9| nine\n', {}, '1\t7\tseven\n\t  9| nine'],
      ['a window starting between fives has its first number', Array.from({ length: 8 }, (_, i) => `l${i + 1}`).join('\n'), { start_line: 3, end_line: 6 }, '3\tl3\n\tl4\n5\tl5\n\tl6\n[Lines 3-6 of 8.]'],
      ['no padding when the numbers grow a digit', Array.from({ length: 11 }, (_, i) => `l${i + 1}`).join('\n'), { start_line: 9 }, '9\tl9\n10\tl10\n\tl11\n[Lines 9-11 of 11.]'],
    ];
    for (const [name, text, window, shown] of cases) {
      it(name, async () => {
        const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'f.txt': text }) });
        assert.equal((await h.call('read_file', { path: 'f.txt', ...window })).content, shown);
      });
    }

    it('six- and seven-digit line numbers in a file of over a million lines', async () => {
      const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'big.txt': 'x\n'.repeat(1_000_001) }) });
      const result = await h.call('read_file', { path: 'big.txt', start_line: 999_999, end_line: 1_000_001 });
      assert.equal(result.content, '999999\tx\n1000000\tx\n\tx\n[Lines 999999-1000001 of 1000001.]');
    });
  });

  it('shows CRLF files without the CR and keeps indentation', async () => {
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'w.txt': 'a\r\n\tb\r\n' }) });
    assert.equal((await h.call('read_file', { path: 'w.txt' })).content, '1\ta\n\t\tb');
  });

  it('pages a long file and says how to read more', async () => {
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'long.txt': numbered(1234) }) });
    const first = await h.call('read_file', { path: 'long.txt' });
    const lines = first.content.split('\n');
    assert.equal(lines[0], '1\tline 1');
    assert.equal(lines[READ_FILE_MAX_LINES - 1], `${READ_FILE_MAX_LINES}\tline ${READ_FILE_MAX_LINES}`);
    assert.equal(lines.at(-1), `[Lines 1-500 of 1234. To read more, call read_file with start_line=501.]`);

    const last = await h.call('read_file', { path: 'long.txt', start_line: 1001 });
    assert.equal(last.content.split('\n')[0], '1001\tline 1001');
    assert.equal(last.content.split('\n').at(-1), '[Lines 1001-1234 of 1234.]');

    const window = await h.call('read_file', { path: 'long.txt', start_line: 10, end_line: 12 });
    assert.equal(window.content, '10\tline 10\n\tline 11\n\tline 12\n[Lines 10-12 of 1234.]');
  });

  it('stops at the character budget and continues from the next line', async () => {
    const wide = Array.from({ length: 300 }, (_, i) => `${i + 1} ${'x'.repeat(200)}`).join('\n');
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'wide.txt': wide }) });
    const result = await h.call('read_file', { path: 'wide.txt' });
    assert.ok(result.content.length <= READ_FILE_MAX_CHARS + 200);
    const footer = /\[Lines 1-(\d+) of 300\. To read more, call read_file with start_line=(\d+)\.\]$/.exec(result.content);
    assert.ok(footer, result.content.slice(-200));
    assert.equal(Number(footer[2]), Number(footer[1]) + 1);
    const next = await h.call('read_file', { path: 'wide.txt', start_line: Number(footer[2]) });
    assert.match(next.content, new RegExp(`^${footer[2]}\t${footer[2]} x{200}\n`));
  });

  it('cuts very long lines and says so', async () => {
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'min.js': 'y'.repeat(5000) }) });
    assert.match((await h.call('read_file', { path: 'min.js' })).content, /^1\ty{2000} \.\.\. \[3000 more characters on this line\]$/);
  });

  it('says when a file is empty', async () => {
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'e.txt': '' }) });
    const result = await h.call('read_file', { path: 'e.txt' });
    assert.equal(result.isError, undefined);
    assert.equal(result.content, 'e.txt is empty (0 lines).');
  });

  it('refuses binary files', async () => {
    const bytes = new Uint8Array(100).fill(65);
    bytes[50] = 0;
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'blob.bin': bytes }) });
    const result = await h.call('read_file', { path: 'blob.bin' });
    assert.equal(result.isError, true);
    assert.equal(result.content, 'blob.bin is a binary file (100 bytes); it cannot be shown or edited as text.');
  });

  it('refuses content that is mostly invalid UTF-8 but shows a few bad bytes', async () => {
    const garbage = new Uint8Array(200).map((_, i) => 0x80 + (i % 60));
    const few = new Uint8Array([...new TextEncoder().encode('caf'), 0xe9, 0x0a, ...new TextEncoder().encode('ok line\n')]);
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'g.dat': garbage, 'latin.txt': few }) });
    const bad = await h.call('read_file', { path: 'g.dat' });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /is not UTF-8 text/);
    const ok = await h.call('read_file', { path: 'latin.txt' });
    assert.equal(ok.isError, undefined);
    assert.equal(ok.content, '1\tcaf\uFFFD\n\tok line\n[1 invalid UTF-8 sequence is shown as \uFFFD.]');
  });

  it('names the file length when start_line is past the end', async () => {
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'a.txt': numbered(20) }) });
    const result = await h.call('read_file', { path: 'a.txt', start_line: 21 });
    assert.equal(result.isError, true);
    assert.equal(result.content, 'start_line 21 is past the end of a.txt, which has 20 lines.');
  });

  it('rejects an end_line before start_line, a missing file, a folder and a bad start_line', async () => {
    const h = new ToolHarness({ workspace: new MemoryWorkspace({ 'src/a.txt': numbered(5) }) });
    assert.match((await h.call('read_file', { path: 'src/a.txt', start_line: 4, end_line: 2 })).content, /end_line 2 is before start_line 4/);
    assert.equal((await h.call('read_file', { path: 'src/b.txt' })).content, 'File not found: src/b.txt. Check the path with list_files or search_files.');
    assert.match((await h.call('read_file', { path: 'src' })).content, /src is a folder/);
    const zero = await h.call('read_file', { path: 'src/a.txt', start_line: 0 });
    assert.equal(zero.isError, true);
    assert.match(zero.content, /`start_line`/);
  });
});
