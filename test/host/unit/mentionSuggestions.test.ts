import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { rankMentionSuggestions } from '../../../src/host/common/mentions/mentionSuggestions';
import { isUnder, MentionSource, STEPWISE_OUTPUT_FOLDERS } from '../../../src/host/common/mentions/mentionSource';

const PATHS = [
  { path: 'src', folder: true },
  { path: 'src/date/parse.ts', folder: false },
  { path: 'src/date/format.ts', folder: false },
  { path: 'test/date.test.ts', folder: false },
  { path: 'docs/my notes.md', folder: false },
  { path: 'README.md', folder: false },
];

/** What the `@` list offers for each query: specials first, then paths best match first. */
const ROWS: [string, string[]][] = [
  ['', ['problems', 'selection', 'terminal', 'changes', 'src/', 'README.md', '"docs/my notes.md"', 'src/date/parse.ts', 'test/date.test.ts', 'src/date/format.ts']],
  ['pro', ['problems']],
  ['parse', ['src/date/parse.ts']],
  ['sdp', ['src/date/parse.ts']],
  // A file whose name starts with the query first, then paths that hold it.
  ['date', ['test/date.test.ts', 'src/date/parse.ts', 'src/date/format.ts']],
  ['notes', ['"docs/my notes.md"']],
  ['zzz', []],
  ['git', ['changes']],
];

describe('@ suggestions: ranking', () => {
  for (const [query, expected] of ROWS) {
    it(JSON.stringify(query), () => {
      assert.deepEqual(rankMentionSuggestions(query, PATHS).map((s) => s.insert), expected);
    });
  }
  it('folders end with / and say they are folders', () => {
    assert.deepEqual(rankMentionSuggestions('src', PATHS)[0], { label: 'src/', insert: 'src/', kind: 'folder' });
  });
});

describe('@ suggestions: Stepwise output is not offered', () => {
  const rows: Array<[string, boolean]> = [
    ['.stepwise/reports', true],
    ['.stepwise/reports/2026-11-27-fix.md', true],
    ['.stepwise/images/run-1/shot.png', true],
    ['docs/reports/q3.md', true], // the configured reports folder below
    ['.stepwise/rules/style.md', false],
    ['.stepwise/reportsx.md', false],
    ['src/reports/index.ts', false],
    ['README.md', false],
  ];
  const folders = [...STEPWISE_OUTPUT_FOLDERS, 'docs/reports/'];
  for (const [path, hidden] of rows) {
    it(`${path}: ${hidden ? 'hidden' : 'offered'}`, () => assert.equal(isUnder(path, folders), hidden));
  }

  it('the source leaves them out of the list it ranks', async () => {
    const root = mkdtempSync(join(tmpdir(), 'stepwise-mentions-'));
    try {
      for (const file of ['.stepwise/reports/fix-report.md', '.stepwise/rules/report-style.md', 'src/report.ts']) {
        mkdirSync(join(root, file, '..'), { recursive: true });
        writeFileSync(join(root, file), 'x');
      }
      const source = new MentionSource(() => root, (r) => new NodeWorkspace(r));
      const offered = (await source.suggest('report')).map((s) => s.insert);
      assert.ok(offered.includes('src/report.ts'), offered.join(', '));
      assert.ok(offered.includes('.stepwise/rules/report-style.md'), offered.join(', '));
      assert.ok(!offered.some((p) => p.startsWith('.stepwise/reports')), offered.join(', '));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
