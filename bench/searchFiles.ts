import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
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

/** Median ms of `runs` runs of `fn`. */
async function timed(fn: () => Promise<unknown> | unknown, runs = 3): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/**
 * `search_files` with the JavaScript engine (what runs without `rg` on PATH) on this repository's
 * own `src` and on a generated tree, each beside `rg -n` on the same folder in the same run, for a
 * word that is nowhere (every file read) and a regex.
 */
export async function benchSearchFiles(files = 30_000): Promise<Array<Record<string, number | string>>> {
  const base = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-search-'));
  try {
    makeTree(base, files);
    const repo = path.join(__dirname, '..', 'src');
    const out: Array<Record<string, number | string>> = [];
    for (const [label, root] of [['this repository (src)', repo], [`generated tree, ${files.toLocaleString('en')} files`, base]] as const) {
      for (const pattern of ['zebrafinch', 'return x \\* 97[0-9] \\+']) {
        const ws = new NodeWorkspace(root, { search: 'js' });
        const ms = await timed(() => ws.searchFiles({ pattern, contextLines: 1, maxMatches: 100 }));
        const rgMs = await timed(() => spawnSync('rg', ['-n', '-C1', '--max-count', '100', pattern, root], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 }));
        out.push({ label, pattern, ms, rgMs });
      }
    }
    return out;
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
