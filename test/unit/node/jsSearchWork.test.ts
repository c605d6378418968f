import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CancelledError, ToolError } from '../../../src/agent/errors';
import { IgnoreRules } from '../../../src/node/ignoreRules';
import { literalOf, searchWithJs, type JsSearchInput, type JsSearchWork } from '../../../src/node/search/jsSearch';
import { FileScanner } from '../../../src/node/search/fileScanner';
import { RegexMeter } from '../../../src/node/search/regexMeter';
import { requiredLiteral } from '../../../src/node/search/requiredLiteral';
import { liveSearchWorkers, searchWorkersEnded } from '../../../src/node/search/searchPool';
import { makeTempDir } from './support';

// The search without ripgrep, over real files in real worker threads: the work it does is
// counted (files read, lines the regex ran on, folders listed, workers started), its time limit
// counts matching only (never a false "backtracks" error), and no worker outlives its search.
describe('search without ripgrep: workers, required text, ignore rules while walking', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  const FILES = 1500; // 24 batches of 64: past the 16 the search's own thread takes before workers start
  const LINES = FILES + 1 + 1; // one line per file, the needle's second line, slow.txt
  const FOLDERS = 1 + FILES / 100; // the root and pkg0..pkg14; nothing under build/

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('stepwise-js-search-'));
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(root, `pkg${Math.floor(i / 100)}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `f${String(i).padStart(4, '0')}.ts`), `export const value${i} = ${i};\n${i === 777 ? 'const needle = true;\n' : ''}`);
    }
    writeFileSync(path.join(root, 'slow.txt'), `${'a'.repeat(40)}b\n`);
    writeFileSync(path.join(root, '.ignore'), 'build/\n');
    for (let i = 0; i < 20; i++) {
      mkdirSync(path.join(root, 'build', `out${i}`, 'deep'), { recursive: true });
      writeFileSync(path.join(root, 'build', `out${i}`, 'deep', 'x.js'), 'const needle = 1;\n');
    }
  });
  after(() => cleanup());

  const input = (pattern: string, extra: Partial<JsSearchInput> = {}): JsSearchInput & { work: JsSearchWork } => ({
    root, scope: { rel: '', isFile: false }, regex: new RegExp(pattern), contextLines: 0, maxMatches: 100,
    rules: new IgnoreRules(root), work: { filesRead: 0, regexLines: 0, foldersRead: 0, workersStarted: 0 }, ...extra,
  });

  const literalCases: Array<[string, string | undefined]> = [
    ['needle', 'needle'], ['const needle', 'const needle'], ['need.e', undefined], ['a|b', undefined], ['\\bword', undefined], ['x(y)', undefined], ['a/b', undefined],
  ];
  for (const [pattern, expected] of literalCases) it(`literalOf(/${pattern}/) = ${JSON.stringify(expected)}`, () => assert.equal(literalOf(new RegExp(pattern)), expected));

  const requiredCases: Array<[string, string, string | undefined]> = [
    ['return x \\* 97[0-9] \\+', '', 'return x * 97'],
    ['nee+dle', '', 'dle'],
    ['needle', '', 'needle'],
    ['foo|bar', '', undefined],
    ['(foo|bar)baz', '', 'baz'],
    ['colou?r', '', 'colo'],
    ['ab{0,2}cd', '', 'cd'],
    ['a{2}bc', '', 'bc'],
    ['\\d+px', '', 'px'],
    ['[a|b]xy', '', 'xy'],
    ['x(?=abc)yz', '', 'yz'],
    ['\\w+\\(', '', '('],
    ['needle', 'i', undefined],
    ['^\\s*$', '', undefined],
  ];
  for (const [pattern, flags, expected] of requiredCases) {
    it(`requiredLiteral(/${pattern}/${flags}) = ${JSON.stringify(expected)}`, () => assert.equal(requiredLiteral(new RegExp(pattern, flags)), expected));
  }

  it('a plain word: every file read once, no regex run, no worker for a tree smaller than 16 batches', async () => {
    const i = input('needle', { scope: { rel: 'pkg7', isFile: false } });
    const result = await searchWithJs(i);
    assert.deepEqual(result.matches.map((m) => `${m.path}:${m.line}`), ['pkg7/f0777.ts:2']);
    assert.deepEqual(i.work, { filesRead: 100, regexLines: 0, foldersRead: 1, workersStarted: 0 });
  });

  it('a plain word over the whole tree: ignored folders never listed, their files never read, workers started past 16 batches', async () => {
    const i = input('needle');
    const result = await searchWithJs(i);
    assert.deepEqual(result.matches.map((m) => `${m.path}:${m.line}`), ['pkg7/f0777.ts:2']);
    assert.equal(i.work.filesRead, FILES + 2); // with .ignore and slow.txt
    assert.equal(i.work.foldersRead, FOLDERS);
    assert.equal(i.work.regexLines, 0);
    assert.ok(i.work.workersStarted >= 1);
    await searchWorkersEnded();
    assert.equal(liveSearchWorkers(), 0);
  });

  it('a regex runs only on the lines holding its required text', async () => {
    const i = input('nee+dle');
    const result = await searchWithJs(i);
    assert.deepEqual(result.matches.map((m) => m.path), ['pkg7/f0777.ts']);
    // Every file read once; the needle's file twice when the search's own thread found the text there
    // before a worker was up (the worker that runs the regex reads it again).
    assert.ok(i.work.filesRead === FILES + 2 || i.work.filesRead === FILES + 3, `${i.work.filesRead} files read`);
    assert.equal(i.work.regexLines, 1);
  });

  it('a regex without a required text runs once on every line, in workers', async () => {
    const i = input('^(export|const)\\b');
    const result = await searchWithJs(i);
    assert.equal(result.matches.length, 100);
    assert.equal(result.truncated, true);
    const all = input('^(export|const)\\b', { maxMatches: 10_000 });
    const everything = await searchWithJs(all);
    assert.equal(everything.matches.length, FILES + 1);
    assert.equal(all.work.regexLines, LINES + 1); // and the .ignore file's line
    assert.equal(all.work.filesRead, FILES + 2);
    assert.ok(all.work.workersStarted >= 1);
  });

  it('a search that stops early stops its walk: the walk waits while 16 batches wait, and ends when the search does', async () => {
    const i = input('const value\\d+', { maxMatches: 5, maxWorkers: 1 });
    const result = await searchWithJs(i);
    assert.deepEqual(result.matches.map((m) => m.path), ['pkg0/f0000.ts', 'pkg0/f0001.ts', 'pkg0/f0002.ts', 'pkg0/f0003.ts', 'pkg0/f0004.ts']);
    assert.equal(result.truncated, true);
    assert.ok(i.work.foldersRead < FOLDERS, `${i.work.foldersRead} folders listed`);
    await searchWorkersEnded();
    assert.equal(liveSearchWorkers(), 0);
  });

  it('a literal nowhere in the tree never yields a "backtracks" error, even with a 1 ms limit', async () => {
    for (const pattern of ['zebrafinch', 'zebra+finch', 'return x \\* 97[0-9] \\+']) {
      const i = input(pattern, { deadlineMs: 1 });
      const result = await searchWithJs(i);
      assert.deepEqual(result.matches, [], pattern);
      assert.equal(i.work.regexLines, 0, pattern);
      assert.equal(i.work.filesRead, FILES + 2, pattern);
    }
  });

  it('the limit counts matching time, not reading or round trips: 1,502 files in 24 batches under a 5 ms limit', async () => {
    // The regex runs on one line (the only one holding "dle"); reading and round trips would take far more than 5 ms.
    const i = input('nee+dle', { deadlineMs: 5, maxWorkers: 1 });
    const result = await searchWithJs(i);
    assert.deepEqual(result.matches.map((m) => m.path), ['pkg7/f0777.ts']);
    assert.equal(i.work.regexLines, 1);
  });

  it('the regex meter runs only around matching: once per file that reaches the regex, never around reading', () => {
    class CountingMeter extends RegexMeter {
      starts = 0;
      override start(slot: number): void {
        this.starts++;
        super.start(slot);
      }
    }
    const meter = new CountingMeter(RegexMeter.buffer(1));
    const scanner = new FileScanner({ required: 'dle', regex: { source: 'nee+dle', flags: '' }, contextLines: 0, limit: 10, skipBinary: true, maxBytes: 1 << 20 }, meter);
    const rels = ['pkg7/f0700.ts', 'pkg7/f0777.ts', 'pkg7/f0799.ts', 'slow.txt'];
    const scans = scanner.scanAll(rels.map((rel) => path.join(root, rel)), rels, true);
    assert.deepEqual(scans.map((scan) => (scan && scan !== 'regex' && 'matches' in scan ? scan.matches.map((m) => m.line) : scan)), [undefined, [2], undefined, undefined]);
    assert.equal(scanner.work.filesRead, 4);
    assert.equal(meter.starts, 1);
  });

  it('a pattern that really backtracks still stops at its limit, and its worker is ended', async () => {
    const i = input('^(a+)+\\1$', { deadlineMs: 300, scope: { rel: 'slow.txt', isFile: true } });
    await assert.rejects(searchWithJs(i), (error: unknown) => error instanceof ToolError && /took over 0.3 s/.test(error.message));
    assert.equal(liveSearchWorkers(), 0);
  });

  it('the task\'s signal ends a search stuck in a backtracking line, and every worker with it', async () => {
    const controller = new AbortController();
    const i = input('^(a+)+\\1$', { signal: controller.signal, maxWorkers: 2 });
    setTimeout(() => controller.abort(), 200);
    await assert.rejects(searchWithJs(i), CancelledError);
    assert.ok(i.work.workersStarted >= 1);
    assert.equal(liveSearchWorkers(), 0);
  });
});
