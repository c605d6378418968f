import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run lint` runs scripts/lint/importCycles.mjs: an import circle anywhere in src/ or webview-ui/src
// fails it. These rows prove it finds each kind of circle (and nothing else), then that the tree has none.
type Cycles = (root: string, folders: string[]) => string[][];
const repo = path.resolve(__dirname, '../../..');

async function checker(): Promise<Cycles> {
  const mod = (await import(path.join(repo, 'scripts/lint/importCycles.mjs'))) as { cyclesIn: Cycles };
  return mod.cyclesIn;
}

/** A tree of files (path → source) in a temp folder; the circles found in it. */
async function cyclesOf(files: Record<string, string>): Promise<string[][]> {
  const root = mkdtempSync(path.join(tmpdir(), 'stepwise-cycles-'));
  try {
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), source);
    }
    return (await checker())(root, ['src']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const ROWS: Array<{ name: string; files: Record<string, string>; cycles: string[][] }> = [
  { name: 'no circle', files: { 'src/a.ts': "import { b } from './b';\nexport const a = b;\n", 'src/b.ts': 'export const b = 1;\n' }, cycles: [] },
  {
    name: 'a type-only circle of two',
    files: { 'src/a.ts': "import type { B } from './b';\nexport type A = B;\n", 'src/b.ts': "import type { A } from './a';\nexport type B = A | 1;\n" },
    cycles: [['src/a.ts', 'src/b.ts']],
  },
  {
    name: 'a circle of three through a folder index and export-from',
    files: {
      'src/a.ts': "export { x } from './lib';\n",
      'src/lib/index.ts': "import { c } from '../c';\nexport const x = c;\n",
      'src/c.ts': "import { x } from './a';\nexport const c = () => x;\n",
    },
    cycles: [['src/a.ts', 'src/c.ts', 'src/lib/index.ts']],
  },
  { name: 'a dynamic import back', files: { 'src/a.ts': "export const a = () => import('./b');\n", 'src/b.ts': "import { a } from './a';\nexport const b = a;\n" }, cycles: [['src/a.ts', 'src/b.ts']] },
  { name: 'a file importing itself', files: { 'src/a.ts': "import * as me from './a';\nexport const a = me;\n" }, cycles: [['src/a.ts']] },
  { name: 'packages are not followed', files: { 'src/a.ts': "import { z } from 'zod';\nexport const a = z;\n" }, cycles: [] },
];

describe('lint: import circles', function () {
  this.timeout(60_000);
  for (const row of ROWS) {
    it(`${row.name}: ${row.cycles.length ? 'fails' : 'passes'}`, async () => {
      assert.deepEqual(await cyclesOf(row.files), row.cycles);
    });
  }

  it('src/ and webview-ui/src have none', async () => {
    assert.deepEqual((await checker())(repo, ['src', 'webview-ui/src']), []);
  });
});
