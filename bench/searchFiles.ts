import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { NodeWorkspace } from '../src/node/nodeWorkspace';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A generated tree of `files` source files (about 1.5 KB each, 50 per folder) with a `.gitignore`d build folder. */
function makeTree(root: string, files: number): void {
  writeFileSync(path.join(root, '.gitignore'), 'build/\n');
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `pkg${Math.floor(i / 2500)}`, `mod${Math.floor(i / 50) % 50}`);
    if (i % 50 === 0) mkdirSync(dir, { recursive: true });
    const lines = [`// module ${i}`];
    for (let l = 0; l < 30; l++) lines.push(`export function f${l}_${i}(x: number): number { return x * ${(i * 31 + l) % 977} + ${l}; }`);
    writeFileSync(path.join(dir, `file${i % 50}.ts`), lines.join('\n') + '\n');
  }
  mkdirSync(path.join(root, 'build'), { recursive: true });
  for (let i = 0; i < 200; i++) writeFileSync(path.join(root, 'build', `out${i}.js`), 'zebrafinch '.repeat(100));
}

/** Medians of `runs` runs of `subject` and `anchor`, interleaved (a shared machine's load falls on both alike). */
async function timedPair(subject: () => Promise<unknown>, anchor: () => unknown, runs = 5): Promise<{ ms: number; anchorMs: number }> {
  const times: number[] = [];
  const anchorTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await subject();
    times.push(performance.now() - t);
    t = performance.now();
    anchor();
    anchorTimes.push(performance.now() - t);
  }
  return { ms: median(times), anchorMs: median(anchorTimes) };
}

/** The built worker (`npm run build`), as the CLI and the extension start it; else the source through tsx (slower to start). */
export const BENCH_SEARCH_WORKER = path.join(__dirname, '..', 'dist', 'search-worker.js');

/**
 * `search_files` with the JavaScript engine (what runs without `rg` on PATH) on this repository's
 * own `src` and on a generated tree of the size (118k files), each beside `rg -n -C1` on
 * the same folder in the same run (interleaved), for a word that is nowhere (every file read) and
 * a regex. The workers are the built `dist/search-worker.js` when it exists.
 */
export async function benchSearchFiles(files = 118_000): Promise<Array<Record<string, number | string>>> {
  const base = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-search-'));
  const searchWorker = existsSync(BENCH_SEARCH_WORKER) ? BENCH_SEARCH_WORKER : undefined;
  try {
    makeTree(base, files);
    const repo = path.join(__dirname, '..', 'src');
    const out: Array<Record<string, number | string>> = [];
    // A word that is nowhere (every file read), a regex whose plain part is nowhere, and (in src) a
    // regex that matches in most files: the worker that runs it must start within the search.
    const rows: Array<[string, string, string[]]> = [
      ['this repository (src)', repo, ['zebrafinch', 'return x \\* 97[0-9] \\+', 'function\\s+\\w+']],
      [`generated tree, ${files.toLocaleString('en')} files`, base, ['zebrafinch', 'return x \\* 97[0-9] \\+']],
    ];
    for (const [label, root, patterns] of rows) {
      for (const pattern of patterns) {
        const { ms, anchorMs: rgMs } = await timedPair(
          () => new NodeWorkspace(root, { search: 'js', ...(searchWorker ? { searchWorker } : {}) }).searchFiles({ pattern, contextLines: 1, maxMatches: 100 }),
          () => spawnSync('rg', ['-n', '-C1', '--max-count', '100', pattern, root], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 }),
        );
        out.push({ label, pattern, ms, rgMs, worker: searchWorker ? 'built' : 'source (tsx)' });
      }
    }
    return out;
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
