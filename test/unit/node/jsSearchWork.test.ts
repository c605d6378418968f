import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../../src/agent/errors';
import { IgnoreRules } from '../../../src/node/ignoreRules';
import { literalOf, searchWithJs, type JsSearchInput } from '../../../src/node/search/jsSearch';
import { RegexWorker } from '../../../src/node/search/regexWorker';
import { makeTempDir } from './support';

// The search without ripgrep, over real files: the work it does is counted (files read, regex
// batches), and its time limit counts matching only (never a false "backtracks" error).
describe('search without ripgrep: literal fast path, regex time only', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  const FILES = 1500;

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('stepwise-js-search-'));
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(root, `pkg${Math.floor(i / 100)}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `f${String(i).padStart(4, '0')}.ts`), `export const value${i} = ${i};\n${i === 777 ? 'const needle = true;\n' : ''}`);
    }
    writeFileSync(path.join(root, 'slow.txt'), `${'a'.repeat(40)}b\n`);
  });
  after(() => cleanup());

  const input = (pattern: string, extra: Partial<JsSearchInput> = {}): JsSearchInput & { work: { filesRead: number; regexBatches: number } } => ({
    root, scope: { rel: '', isFile: false }, regex: new RegExp(pattern), contextLines: 0, maxMatches: 100,
    rules: new IgnoreRules(root), work: { filesRead: 0, regexBatches: 0 }, ...extra,
  });

  const literalCases: Array<[string, string | undefined]> = [
    ['needle', 'needle'], ['const needle', 'const needle'], ['need.e', undefined], ['a|b', undefined], ['\\bword', undefined], ['x(y)', undefined], ['a/b', undefined],
  ];
  for (const [pattern, expected] of literalCases) it(`literalOf(/${pattern}/) = ${JSON.stringify(expected)}`, () => assert.equal(literalOf(new RegExp(pattern)), expected));

  it('a plain word is found without the regex worker: no batch for any file', async () => {
    const i = input('needle');
    const result = await searchWithJs(i);
    assert.deepEqual(result.matches.map((m) => `${m.path}:${m.line}`), ['pkg7/f0777.ts:2']);
    assert.equal(i.work.filesRead, FILES + 1);
    assert.equal(i.work.regexBatches, 0);
  });

  it('a regex over many files goes to the worker in batches of 64 files', async () => {
    const i = input('nee+dle');
    const result = await searchWithJs(i);
    assert.deepEqual(result.matches.map((m) => m.path), ['pkg7/f0777.ts']);
    assert.equal(i.work.regexBatches, Math.ceil((FILES + 1) / 64));
  });

  it('the limit counts matching time, not the round trips: 2,000 batches under a 20 ms limit', async () => {
    const worker = new RegexWorker(/nee+dle/, undefined, 20);
    try {
      for (let n = 0; n < 2000; n++) assert.deepEqual(await worker.matchingLines([`line ${n}`, 'a needle']), [1]);
      assert.equal(worker.batches, 2000);
    } finally {
      worker.dispose();
    }
  });

  it('a pattern that really backtracks still stops at its limit', async () => {
    const i = input('^(a+)+\\1$', { deadlineMs: 300, scope: { rel: 'slow.txt', isFile: true } });
    await assert.rejects(searchWithJs(i), (error: unknown) => error instanceof ToolError && /took over 0.3 s/.test(error.message));
  });
});
