import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { o200kCounter } from '../src/agent/context/tokenCounter';
import { silentLogger } from '../src/agent/ports';
import { builtinTools } from '../src/agent/tools/builtins';
import { lineScansSettled } from '../src/agent/tools/builtins/lineIndex';
import type { ToolContext } from '../src/agent/tools/tool';
import { ToolRegistry } from '../src/agent/tools/toolRegistry';
import { ExecaCommandRunner } from '../src/node/execaCommandRunner';
import { NodeWorkspace } from '../src/node/nodeWorkspace';

const MB = 1024 * 1024;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

/** Writes `bytes` of dense code lines, flushed to disk (so the page cache can let them go). Returns the line count. */
function writeCode(file: string, bytes: number): number {
  const fd = openSync(file, 'w');
  let written = 0;
  let lines = 0;
  while (written < bytes) {
    const block: string[] = [];
    for (let i = 0; i < 2000; i++, lines++) block.push(`  const v${lines}=[${lines % 97},${(lines * 7) % 89},${(lines * 13) % 83}].map((x)=>x*${lines}^0x${lines.toString(16)});`);
    written += writeSync(fd, block.join('\n') + '\n');
  }
  fsyncSync(fd);
  closeSync(fd);
  return lines;
}

/**
 * Evicts `file` from the page cache without root: GNU dd's `iflag=nocache` asks the kernel
 * (posix_fadvise DONTNEED) to drop the file's clean pages, which Node cannot ask itself. Returns the
 * bytes still resident afterwards (util-linux `fincore`), so the bench says whether a window was cold.
 */
function evict(file: string): number {
  spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
  const resident = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', file], { encoding: 'utf8' });
  return resident.status === 0 ? Number(resident.stdout.trim()) : NaN;
}

/** Per file: warm window times, and cold windows deep in the file beside `sed -n` on the same lines, each after an eviction. */
export interface ReadWindowFigures {
  label: string;
  windows: number;
  medianMs: number;
  p95Ms: number;
  coldMedianMs: number;
  coldSedMedianMs: number;
  /** Cold windows at the same lines from the workspace whose background scan has built the file's line index (after the same eviction). */
  coldIndexedMedianMs: number;
  /** `sed -n` on those lines after the same eviction, timed beside each indexed window. */
  coldIndexedSedMedianMs: number;
  /** Largest number of the file's bytes still in the page cache just before a cold read (0 = truly cold). */
  residentBeforeCold: number;
  /** Where the cold windows started, as fractions of the file's lines. */
  coldAt: number[];
}

/**
 * `read_file` through the real tool on generated 50 MB and 600 MB code files (text all the way,
 * no sparse hole): 30 continuing windows from the top (warm), then cold windows at 25 %, 50 %, 75 %
 * and 95 % of the lines, each after evicting the file from the page cache and from a fresh
 * workspace (no line index yet), then the same lines from the first workspace, whose background
 * scan has indexed the file (lineIndex.ts), each beside `sed -n 'A,Bp;Bq'` on the same lines after
 * the same eviction. Background scans are waited for before every eviction, so none reads while
 * another figure is timed. With the loop's 6,000-token cap.
 */
export async function benchReadFileWindows(): Promise<ReadWindowFigures[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-read-'));
  try {
    const files: Array<[string, string, number]> = [
      ['50 MB code file', 'code50.js', 50 * MB],
      ['600 MB code file', 'code600.js', 600 * MB],
    ];
    const registry = new ToolRegistry(builtinTools());
    const context: ToolContext = {
      workspace: new NodeWorkspace(dir), commands: new ExecaCommandRunner(), logger: silentLogger,
      signal: new AbortController().signal, callId: 'bench', asker: { ask: async () => undefined },
      requestApproval: async () => ({ approved: true }), emit: () => {},
      resultTokens: { max: 6_000, counter: o200kCounter },
    };
    const out: ReadWindowFigures[] = [];
    for (const [label, name, bytes] of files) {
      const file = path.join(dir, name);
      const lines = writeCode(file, bytes);
      const read = async (start: number, fresh = false) => {
        // A fresh workspace has no line index of the file yet (lineIndex.ts keeps one per workspace): what a new task sees.
        const workspace = fresh ? new NodeWorkspace(dir) : context.workspace;
        const t = performance.now();
        const result = await registry.execute('read_file', { path: name, start_line: start }, { ...context, workspace });
        const ms = performance.now() - t;
        if (result.isError) throw new Error(result.content);
        // A cold read's scan goes on in the background after its window; let it end before the next eviction.
        if (fresh) await lineScansSettled(workspace);
        const next = /start_line=(\d+)\.\]$/.exec(result.content)?.[1];
        return { ms, next: next === undefined ? start + 1 : Number(next) };
      };
      const sedCold = (start: number, last: number) => {
        const t = performance.now();
        spawnSync('sed', ['-n', `${start},${last}p;${last}q`, file], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 16 * MB });
        return performance.now() - t;
      };
      const times: number[] = [];
      let next = 1;
      for (let i = 0; i < 30; i++) {
        const r = await read(next);
        times.push(r.ms);
        next = r.next;
      }
      // The warm windows ran while the background scan indexed the file; it ends before any eviction.
      await lineScansSettled(context.workspace);
      const coldAt = [0.25, 0.5, 0.75, 0.95];
      const cold: number[] = [];
      const coldSed: number[] = [];
      let resident = 0;
      for (const at of coldAt) {
        const start = Math.floor(lines * at);
        resident = Math.max(resident, evict(file));
        const r = await read(start, true);
        cold.push(r.ms);
        resident = Math.max(resident, evict(file));
        coldSed.push(sedCold(start, r.next - 1));
      }
      const indexed: number[] = [];
      const indexedSed: number[] = [];
      for (const at of coldAt) {
        const start = Math.floor(lines * at);
        resident = Math.max(resident, evict(file));
        const r = await read(start);
        indexed.push(r.ms);
        resident = Math.max(resident, evict(file));
        indexedSed.push(sedCold(start, r.next - 1));
      }
      out.push({
        label, windows: times.length, medianMs: quantile(times, 0.5), p95Ms: quantile(times, 0.95),
        coldMedianMs: quantile(cold, 0.5), coldSedMedianMs: quantile(coldSed, 0.5), residentBeforeCold: resident, coldAt,
        coldIndexedMedianMs: quantile(indexed, 0.5), coldIndexedSedMedianMs: quantile(indexedSed, 0.5),
      });
      await rm(file, { force: true });
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
