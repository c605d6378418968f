import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { TaskGuards } from '../src/agent/flow/taskGuards';
import { EventStream } from '../src/agent/events/eventStream';
import { silentLogger } from '../src/agent/ports';
import { GitCheckpointStore, openGitCheckpointStore, repoFolder } from '../src/node/checkpoints/gitCheckpointStore';
import { ExecaCommandRunner } from '../src/node/execaCommandRunner';
import { NodeWorkspace } from '../src/node/nodeWorkspace';

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

/**
 * The tree: `files` files (50 packages × 20 folders × 20 files) of about 500 MB: every
 * 200th file is a large text file (4.6 MB, under the 5 MB checkpoint cap, so stored; every 2,000th
 * is 6 MB, over it, so fingerprinted instead), the rest ~1.5 KB sources. Real bytes, no holes.
 */
async function makeTree(ws: string, files: number): Promise<{ paths: string[]; bytes: number }> {
  const noise = randomBytes(9_000_000).toString('base64');
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const p = `src/pkg${Math.floor(i / 400)}/mod${Math.floor(i / 20) % 20}/file${i % 20}.ts`;
    paths.push(p);
    await mkdir(path.dirname(path.join(ws, p)), { recursive: true });
    let text = source(i);
    if (i % 200 === 199) {
      const size = i % 2000 === 1999 ? 6_000_000 : 4_600_000;
      const at = (i * 7919) % (noise.length - size);
      text = `// data ${i}\n` + noise.slice(at, at + size).replace(/(.{100})/g, '$1\n');
    }
    bytes += Buffer.byteLength(text);
    await writeFile(path.join(ws, p), text);
  }
  return { paths, bytes };
}

/**
 * Checkpoint cost on the issue's tree (20,000 files, ~500 MB), each figure beside its anchor timed
 * in the same run, interleaved call by call (`git add -A && git write-tree` on the same tree, in a
 * throwaway repository, after one other file changed): the first checkpoint; the median of `calls`
 * tool calls' checkpoints each after one `write_file` (through the task's guards, as a task takes
 * them: the write goes through the tracked workspace); the same after a command (which may have
 * changed anything: a full look); calls after calls that changed nothing; git processes and paths
 * staged per checkpoint; and how much the store grew against the bytes changed.
 */
export async function benchCheckpoints(files = 20_000, calls = 40): Promise<Record<string, number>> {
  const base = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-cp-'));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  try {
    const { paths, bytes } = await makeTree(ws, files);
    const small = paths.filter((_, i) => i % 200 !== 199);
    const setup = await openGitCheckpointStore({ home, workspace: ws, taskId: 'bench' });
    if (!setup.store) throw new Error(setup.offReason);
    const store = setup.store as GitCheckpointStore;
    const objects = path.join(repoFolder(home, ws), 'objects');
    const workspace = new NodeWorkspace(ws);
    const signal = new AbortController().signal;
    const guards = new TaskGuards({ workspace, commands: new ExecaCommandRunner(), events: new EventStream('bench', Date.now), logger: silentLogger, clock: { now: Date.now, sleep: async () => {} }, checkpoints: setup });
    const tool = (name: string, i: number) => ({ id: `call-${name}-${i}`, name, arguments: '{}' });

    let t = performance.now();
    await guards.checkpoints.take('task_start');
    const firstMs = performance.now() - t;
    const afterFirst = await bytesUnder(objects);

    // The anchor's first `add -A` (not timed: the figure is per call).
    const anchorDir = path.join(base, 'anchor.git');
    const git = (...args: string[]) => spawnSync('git', [`--git-dir=${anchorDir}`, `--work-tree=${ws}`, ...args], { stdio: 'ignore' });
    spawnSync('git', ['init', '-q', '--bare', anchorDir], { stdio: 'ignore' });
    t = performance.now();
    git('add', '-A');
    git('write-tree');
    const anchorFirstMs = performance.now() - t;

    const times: number[] = [];
    const anchorTimes: number[] = [];
    let changed = 0;
    const work0 = { ...store.work };
    await guards.beforeTool(tool('write_file', -1), 'edit', signal);
    for (let i = 0; i < calls; i++) {
      const text = source(files + i);
      // The call writes one file through the task's workspace; the next call's checkpoint captures it.
      await guards.workspace.writeFile(small[(i * 7919) % small.length]!, text);
      changed += Buffer.byteLength(text);
      t = performance.now();
      await guards.beforeTool(tool('write_file', i), 'edit', signal);
      times.push(performance.now() - t);
      await writeFile(path.join(ws, small[(i * 104729) % small.length]!), source(files * 2 + i));
      t = performance.now();
      git('add', '-A');
      git('write-tree');
      anchorTimes.push(performance.now() - t);
    }
    const perCall = Object.fromEntries((['gitProcesses', 'indexReads', 'pathsStaged', 'scoped'] as const).map((key) => [key, (store.work[key] - work0[key]) / calls]));
    const after = await bytesUnder(objects);

    // After a command: anything may have changed, so the next checkpoint looks at the whole tree.
    const commandTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      await guards.beforeTool(tool('run_command', i), 'command', signal);
      await writeFile(path.join(ws, small[(i * 31337) % small.length]!), source(files * 3 + i));
      t = performance.now();
      await guards.beforeTool(tool('write_file', 1000 + i), 'edit', signal);
      commandTimes.push(performance.now() - t);
      await guards.workspace.writeFile(small[(i * 7) % small.length]!, source(files * 4 + i));
    }

    // Calls after calls that wrote nothing (a failed edit): the task's checkpoints reuse the last snapshot.
    const task = guards.checkpoints;
    await task.take('step');
    const snapshotsBefore = task.work.snapshots;
    const unchangedTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      task.willChange();
      task.changedNothing();
      t = performance.now();
      await task.take('tool', { callId: `u${i}` });
      unchangedTimes.push(performance.now() - t);
    }
    return {
      files,
      bytes,
      calls,
      firstMs,
      anchorFirstMs,
      medianMs: median(times),
      p95Ms: [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)]!,
      anchorMs: median(anchorTimes),
      gitPerCall: perCall.gitProcesses!,
      indexReadsPerCall: perCall.indexReads!,
      stagedPerCall: perCall.pathsStaged!,
      scopedPerCall: perCall.scoped!,
      afterCommandMs: median(commandTimes),
      unchangedMs: median(unchangedTimes),
      unchangedSnapshots: task.work.snapshots - snapshotsBefore,
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
