import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { abortAfter, type FaultCase, type FaultWorld } from './faultHarness';

// Files that hang, bloat or get corrupted if a tool trusts them.

const GB = 1024 ** 3;
const MB = 1024 * 1024;

/** A tool call that must fail with a message matching `pattern` and leave `file` (if given) byte for byte. */
function refused(group: FaultCase['group'], name: string, setup: (world: FaultWorld) => void | Promise<void>, tool: string, args: unknown, pattern: RegExp, keep?: string): FaultCase {
  return {
    group,
    name,
    boundMs: 6_000,
    async run(world) {
      await setup(world);
      const before = keep ? readFileSync(world.at(keep)) : undefined;
      const result = await world.call(tool, args);
      assert.equal(result.isError, true, result.content);
      assert.match(result.content, pattern);
      if (keep) assert.deepEqual(readFileSync(world.at(keep)), before, `${keep} is unchanged`);
    },
  };
}

const fifo = (name: string) => (world: FaultWorld) => {
  execFileSync('mkfifo', [world.at(name)]);
};
const file = (name: string, content: string | Buffer, mode?: number) => (world: FaultWorld) => {
  writeFileSync(world.at(name), content);
  if (mode !== undefined) chmodSync(world.at(name), mode);
};
const latin1 = Buffer.from('caf\xe9 cr\xe8me\n', 'latin1');

export const fileFaults: FaultCase[] = [
  refused('file', 'read_file on a FIFO', fifo('p1'), 'read_file', { path: 'p1' }, /FIFO|not a regular file/),
  refused('file', 'write_file onto a FIFO', fifo('p2'), 'write_file', { path: 'p2', content: 'x' }, /not a regular file/),
  refused('file', 'edit_file on a FIFO', fifo('p3'), 'edit_file', { path: 'p3', edits: [{ search: 'a', replace: 'b' }] }, /not a regular file/),
  refused('search', 'search_files with a FIFO as its path', fifo('p4'), 'search_files', { pattern: 'x', path: 'p4' }, /FIFO/),
  {
    group: 'file',
    name: 'read_file on a Unix socket',
    boundMs: 6_000,
    async run(world) {
      const server = createServer().listen(world.at('sock'));
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const result = await world.call('read_file', { path: 'sock' });
        assert.equal(result.isError, true);
        assert.match(result.content, /not a regular file/);
      } finally {
        server.close();
      }
    },
  },
  refused('path', 'read_file through a symlink to /dev/zero', (w) => symlinkSync('/dev/zero', w.at('zero')), 'read_file', { path: 'zero' }, /outside the workspace/),
  refused('path', 'read_file through a symlink loop', (w) => {
    symlinkSync('loop-b', w.at('loop-a'));
    symlinkSync('loop-a', w.at('loop-b'));
  }, 'read_file', { path: 'loop-a' }, /symbolic link/),
  refused('path', 'read_file on a dangling symlink', (w) => symlinkSync('nowhere.txt', w.at('dangling')), 'read_file', { path: 'dangling' }, /not found/i),
  refused('file', 'read_file on a 1 GB sparse file of zeros reads a prefix only', (w) => w.sparse('zeros.img', GB), 'read_file', { path: 'zeros.img' }, /binary file \(1073741824 bytes\)/),
  refused('file', 'read_file on UTF-16 text (NUL bytes)', file('u16.txt', Buffer.from('\ufeffhello', 'utf16le')), 'read_file', { path: 'u16.txt' }, /binary/),
  refused('file', 'read_file on mostly invalid UTF-8', file('junk.txt', Buffer.alloc(300, 0xff)), 'read_file', { path: 'junk.txt' }, /not UTF-8/),
  refused('file', 'read_file past the end names the length', file('short.txt', 'a\nb\n'), 'read_file', { path: 'short.txt', start_line: 5 }, /has 2 lines/),
  refused('file', 'write_file over Latin-1 text', file('l1.txt', latin1), 'write_file', { path: 'l1.txt', content: 'café crème\n' }, /not UTF-8/, 'l1.txt'),
  refused('file', 'edit_file on Latin-1 text', file('l2.txt', latin1), 'edit_file', { path: 'l2.txt', edits: [{ search: 'caf', replace: 'the' }] }, /not valid UTF-8/, 'l2.txt'),
  refused('file', 'write_file over a 0444 file (as root too)', file('ro1.txt', 'keep\n', 0o444), 'write_file', { path: 'ro1.txt', content: 'lost\n' }, /read-only/, 'ro1.txt'),
  refused('file', 'edit_file on a 0444 file', file('ro2.txt', 'keep\n', 0o444), 'edit_file', { path: 'ro2.txt', edits: [{ search: 'keep', replace: 'lose' }] }, /read-only/, 'ro2.txt'),
  refused('file', 'write_file over a 0400 file', file('ro3.txt', 'keep\n', 0o400), 'write_file', { path: 'ro3.txt', content: 'lost\n' }, /read-only/, 'ro3.txt'),
  refused('file', 'write_file onto a folder', (w) => mkdirSync(w.at('dir1')), 'write_file', { path: 'dir1', content: 'x' }, /folder/),
  refused('file', 'write_file below a file', file('plain.txt', 'x'), 'write_file', { path: 'plain.txt/child.txt', content: 'x' }, /Could not write|not a directory|ENOTDIR/i, 'plain.txt'),
  refused('file', 'write_file of a file over 32 MB', (w) => w.sparse('huge.log', 40 * MB, 'text\n'), 'write_file', { path: 'huge.log', content: 'x' }, /40 MB/),
  refused('file', 'edit_file of a file over 32 MB', (w) => w.sparse('huge2.log', 40 * MB, 'text\n'.repeat(2000)), 'edit_file', { path: 'huge2.log', edits: [{ search: 'text', replace: 'x' }] }, /too big to edit/),
  {
    group: 'file',
    name: 'read_file on a 1 GB sparse log returns its first window and a continuation',
    boundMs: 6_000,
    async run(world) {
      world.sparse('big.log', GB, Array.from({ length: 3000 }, (_, i) => `entry ${i + 1}`).join('\n') + '\n');
      const first = await world.call('read_file', { path: 'big.log' });
      assert.match(first.content, /^1\tentry 1\n/);
      assert.match(first.content, /start_line=501\.\]$/);
      const next = await world.call('read_file', { path: 'big.log', start_line: 501, end_line: 502 });
      assert.equal(next.content.split('\n').slice(0, 2).join('\n'), '501\tentry 501\n\tentry 502');
    },
  },
  {
    group: 'file',
    name: 'a 5 MB single line is cut, not read whole into the answer',
    boundMs: 6_000,
    async run(world) {
      writeFileSync(world.at('one-line.min.js'), 'v'.repeat(5 * MB));
      const result = await world.call('read_file', { path: 'one-line.min.js' });
      assert.ok(result.content.length < 3_000);
      assert.match(result.content, /more characters on this line/);
    },
  },
  {
    group: 'file',
    name: 'a dense-code window is never cut in its middle by the token cap',
    boundMs: 8_000,
    async run(world) {
      const line = (n: number) => `const v${n}=[${Array.from({ length: 24 }, (_, k) => (n * 31 + k) % 97).join(',')}].map((x)=>x*${n}^0x${n.toString(16)});`;
      writeFileSync(world.at('dense.js'), Array.from({ length: 600 }, (_, i) => line(i + 1)).join('\n') + '\n');
      const result = await world.call('read_file', { path: 'dense.js' }, { resultTokens: 6_000 });
      const body = result.content.split('\n').filter((l) => /^\d*\t/.test(l));
      // Consecutive lines from 1: the column names the first line and each fifth, nothing between.
      const shown = body.map((l) => l.split('\t')[0]);
      assert.deepEqual(shown, body.map((_, i) => (i === 0 || (i + 1) % 5 === 0 ? String(i + 1) : '')), 'consecutive lines from 1');
      const footer = /\[Lines 1-(\d+) of 600\. To read more, call read_file with start_line=(\d+)\.\]$/.exec(result.content);
      assert.ok(footer, result.content.slice(-200));
      assert.equal(Number(footer[1]), shown.length);
      assert.equal(Number(footer[2]), shown.length + 1);
    },
  },
  {
    group: 'file',
    name: 'temporary files of a killed write are removed when the workspace starts',
    boundMs: 4_000,
    async run(world) {
      mkdirSync(world.at('.stepwise/tmp'), { recursive: true });
      writeFileSync(world.at('.stepwise/tmp/.999999999.0a0b0c.x.txt.stepwise-tmp'), 'partial');
      writeFileSync(world.at(`.stepwise/tmp/.${process.pid}.0a0b0d.y.txt.stepwise-tmp`), 'in flight');
      assert.equal(world.workspace().staleTempsRemoved, 1);
      assert.deepEqual(readdirSync(world.at('.stepwise/tmp')).filter((n) => n.endsWith('.stepwise-tmp')), [`.${process.pid}.0a0b0d.y.txt.stepwise-tmp`]);
    },
  },
  {
    group: 'file',
    name: 'a write leaves no temporary file beside the target',
    boundMs: 4_000,
    async run(world) {
      const result = await world.call('write_file', { path: 'fresh/new.txt', content: 'hello\n' });
      assert.equal(result.isError, undefined, result.content);
      assert.deepEqual(readdirSync(world.at('fresh')), ['new.txt']);
    },
  },
  refused('path', 'a 40,000-character path', () => undefined, 'read_file', { path: `${'abcdefghi/'.repeat(4000)}x` }, /characters long/),
  refused('path', 'a path climbing out with ..', () => undefined, 'read_file', { path: '../../etc/passwd' }, /outside the workspace/),
  refused('path', 'an absolute path elsewhere', () => undefined, 'write_file', { path: '/etc/stepwise-test', content: 'x' }, /outside the workspace/),
  refused('path', 'a path with a NUL byte', () => undefined, 'read_file', { path: 'a\u0000b' }, /NUL/),
  refused('path', 'a symlinked folder pointing outside', (w) => symlinkSync('/etc', w.at('etc-link')), 'write_file', { path: 'etc-link/x.conf', content: 'x' }, /outside the workspace/),
  {
    group: 'search',
    name: 'a catastrophic regex is cancelled within a second',
    boundMs: 4_000,
    async run(world) {
      writeFileSync(world.at('a.txt'), `${'a'.repeat(40)}b\n`);
      const started = Date.now();
      await assert.rejects(() => world.call('search_files', { pattern: '^(a+)+\\1$' }, { signal: abortAfter(300) }), /Cancel/);
      assert.ok(Date.now() - started < 1_300, `${Date.now() - started} ms`);
    },
  },
  {
    group: 'search',
    name: 'a catastrophic regex stops at its deadline with advice',
    boundMs: 9_000,
    async run(world) {
      // The line holds the pattern's required text ("c"): a file without it is passed over before the regex runs.
      writeFileSync(world.at('b.txt'), `${'a'.repeat(40)}bc\n`);
      const result = await world.call('search_files', { pattern: '(a|aa)+\\1c', path: 'b.txt' });
      assert.equal(result.isError, true);
      assert.match(result.content, /took over 5 s/);
    },
  },
  {
    group: 'search',
    name: 'a 50 MB log is searched with ripgrep and its match found',
    boundMs: 10_000,
    async run(world) {
      const line = 'INFO 2026-11-24T12:00:00Z request served in 12 ms by worker 7 of the pool\n';
      writeFileSync(world.at('app.log'), Buffer.concat([Buffer.from(line.repeat(Math.ceil((50 * MB) / line.length))), Buffer.from('ERROR needle-4711 at the end\n')]));
      const result = await world.call('search_files', { pattern: 'needle-\\d+', glob: '*.log' }, { search: 'ripgrep' });
      assert.match(result.content, /app\.log:\d+: ERROR needle-4711 at the end/);
    },
  },
  {
    group: 'search',
    name: 'the JS engine names the big and binary files it skipped instead of a bare "No matches"',
    boundMs: 8_000,
    async run(world) {
      mkdirSync(world.at('logs'));
      writeFileSync(world.at('logs/big.log'), 'x\n'.repeat(1.5 * MB));
      writeFileSync(world.at('logs/blob.bin'), Buffer.from([1, 0, 2, 0]));
      const result = await world.call('search_files', { pattern: 'zzz-not-here', path: 'logs' }, { search: 'js' });
      assert.match(result.content, /^No matches/);
      assert.match(result.content, /Not searched: logs\/big\.log \(3\.0 MB, too big\), logs\/blob\.bin \(1 KB, binary\)/);
    },
  },
  {
    group: 'search',
    name: 'a folder holding a FIFO is searched and listed without blocking',
    boundMs: 6_000,
    async run(world) {
      mkdirSync(world.at('with-fifo'));
      execFileSync('mkfifo', [world.at('with-fifo/pipe')]);
      writeFileSync(world.at('with-fifo/ok.txt'), 'needle\n');
      for (const search of ['js', 'ripgrep'] as const) {
        const result = await world.call('search_files', { pattern: 'needle', path: 'with-fifo' }, { search });
        assert.match(result.content, /with-fifo\/ok\.txt:1: needle/);
      }
      const listed = await world.call('list_files', { path: 'with-fifo' });
      assert.equal(listed.isError, undefined, listed.content);
    },
  },
  refused('search', 'an invalid regex', () => undefined, 'search_files', { pattern: 'foo(' }, /Invalid regular expression/),
  refused('search', 'an invalid glob', () => undefined, 'search_files', { pattern: 'x', glob: '[' }, /glob/i),
];
