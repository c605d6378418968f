import { lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import type { CheckpointStore } from '../src/agent/checkpoints/checkpointTypes';
import { TaskCheckpoints } from '../src/agent/checkpoints/taskCheckpoints';
import { EventStream } from '../src/agent/events/eventStream';
import { silentLogger } from '../src/agent/ports';
import { openGitCheckpointStore, repoFolder } from '../src/node/checkpoints/gitCheckpointStore';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A source file of about 1.5 KB whose text depends on `seed`. */
function source(seed: number): string {
  const lines = [`// module ${seed}`];
  for (let i = 0; i < 40; i++) lines.push(`export const value${i} = compute(${(seed * 31 + i * 7) % 9973}, "${(seed * 17 + i).toString(36)}");`);
  return lines.join('\n') + '\n';
}

/** Bytes of the files under `dir`, and what they take on disk (blocks). */
async function bytesUnder(dir: string): Promise<{ bytes: number; disk: number }> {
  const total = { bytes: 0, disk: 0 };
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await lstat(path.join(dir, name));
    const inner = info.isDirectory() ? await bytesUnder(path.join(dir, name)) : { bytes: info.size, disk: info.blocks * 512 };
    total.bytes += inner.bytes;
    total.disk += inner.disk;
  }
  return total;
}

async function checkpoint(store: CheckpointStore, id: number): Promise<void> {
  const snap = await store.snapshot();
  await store.record({ id: `c${id}`, tree: snap.tree, kind: 'tool', time: Date.now() });
}

/**
 * Checkpoint cost on a generated 10,000-file workspace (25 packages × 20 folders × 20 files): the
 * first checkpoint, then the median of 50 checkpoints each after one file changed (what a tool call
 * costs), and how much the store grew for those 50 against the bytes changed (object bytes, and disk
 * blocks), plus the machine's load (the figures are wall-clock times on a shared machine).
 */
export async function benchCheckpoints(files = 10_000, calls = 50): Promise<Record<string, number>> {
  const base = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-cp-'));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  try {
    const paths: string[] = [];
    for (let i = 0; i < files; i++) paths.push(`src/pkg${Math.floor(i / 400)}/mod${Math.floor(i / 20) % 20}/file${i % 20}.ts`);
    for (const p of paths) {
      await mkdir(path.dirname(path.join(ws, p)), { recursive: true });
      await writeFile(path.join(ws, p), source(paths.indexOf(p)));
    }
    const setup = await openGitCheckpointStore({ home, workspace: ws, taskId: 'bench' });
    if (!setup.store) throw new Error(setup.offReason);
    const store = setup.store;
    const objects = path.join(repoFolder(home, ws), 'objects');

    let t = performance.now();
    await checkpoint(store, 1);
    const firstMs = performance.now() - t;
    const afterFirst = await bytesUnder(objects);

    const times: number[] = [];
    let changed = 0;
    for (let i = 0; i < calls; i++) {
      const p = paths[(i * 7919) % files]!;
      const text = source(files + i);
      await writeFile(path.join(ws, p), text);
      changed += Buffer.byteLength(text);
      t = performance.now();
      await checkpoint(store, i + 2);
      times.push(performance.now() - t);
    }
    const after = await bytesUnder(objects);

    // The anchor, same tree, same run: git's own index in a throwaway repository, one file changed each time.
    const anchorDir = path.join(base, 'anchor.git');
    const git = (...args: string[]) => spawnSync('git', [`--git-dir=${anchorDir}`, `--work-tree=${ws}`, ...args], { stdio: 'ignore' });
    spawnSync('git', ['init', '-q', '--bare', anchorDir], { stdio: 'ignore' });
    git('add', '-A');
    const anchorTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      await writeFile(path.join(ws, paths[(i * 104729) % files]!), source(files * 2 + i));
      t = performance.now();
      git('add', '-A');
      git('write-tree');
      anchorTimes.push(performance.now() - t);
    }

    // A call after calls that wrote nothing (a failed edit): the task's checkpoints reuse the last snapshot.
    const task = new TaskCheckpoints({ store }, new EventStream('bench', Date.now), silentLogger, { now: Date.now, sleep: async () => {} });
    await task.take('task_start');
    const unchangedTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      task.willChange();
      task.changedNothing();
      t = performance.now();
      await task.take('tool', { callId: `u${i}` });
      unchangedTimes.push(performance.now() - t);
    }
    return {
      anchorMs: median(anchorTimes),
      unchangedMs: median(unchangedTimes),
      unchangedSnapshots: task.work.snapshots - 1,
      files,
      calls,
      firstMs,
      medianMs: median(times),
      p95Ms: [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)]!,
      changed,
      growth: after.bytes - afterFirst.bytes,
      growthDisk: after.disk - afterFirst.disk,
      store: after.bytes,
      load: os.loadavg()[0]!,
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
