import { lstat, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findExecutable } from '../findExecutable';
import { readTaskInfo, repoFolder } from './gitCheckpointStore';
import { runGit } from './gitRunner';

/** How long and how much checkpoints are kept (`stepwise.checkpoints.*` settings; CLI environment). */
export interface PruneSettings {
  /** Tasks whose last checkpoint is older are removed. */
  maxAgeDays: number;
  /** Above this total size the oldest tasks are removed until the store fits. */
  maxSizeMB: number;
}

/** Defaults: a month, 2 GiB. */
export const DEFAULT_PRUNE: PruneSettings = { maxAgeDays: 30, maxSizeMB: 2048 };

/** Settings from `STEPWISE_CHECKPOINT_MAX_AGE_DAYS` and `STEPWISE_CHECKPOINT_MAX_SIZE_MB` (invalid values: defaults). */
export function pruneSettingsFromEnv(env: NodeJS.ProcessEnv): PruneSettings {
  const num = (value: string | undefined, fallback: number) => (value !== undefined && Number(value) > 0 ? Number(value) : fallback);
  return { maxAgeDays: num(env.STEPWISE_CHECKPOINT_MAX_AGE_DAYS, DEFAULT_PRUNE.maxAgeDays), maxSizeMB: num(env.STEPWISE_CHECKPOINT_MAX_SIZE_MB, DEFAULT_PRUNE.maxSizeMB) };
}

interface TaskEntry {
  taskId: string;
  workspace: string;
  lastUsed: number;
}

/** Prunes at most once a day (a stamp file under `home` remembers the last time). */
export async function pruneCheckpointsDaily(home: string, settings: PruneSettings, now = Date.now()): Promise<string[]> {
  const stamp = path.join(home, 'last-prune');
  const last = await stat(stamp).then((s) => s.mtimeMs, () => 0);
  if (now - last < 24 * 3600_000) return [];
  await writeFile(stamp, new Date(now).toISOString() + '\n').catch(() => undefined);
  return pruneCheckpoints(home, settings, now);
}

/**
 * Removes tasks whose last checkpoint is older than `maxAgeDays`, then the oldest tasks while the
 * stored repositories are larger than `maxSizeMB`; repositories are garbage-collected after (and
 * removed when no task uses them). Returns the removed task ids.
 */
export async function pruneCheckpoints(home: string, settings: PruneSettings, now = Date.now()): Promise<string[]> {
  const tasks = (await listTasks(home)).sort((a, b) => a.lastUsed - b.lastUsed);
  const removed: string[] = [];
  const touched = new Set<string>();
  const remove = async (task: TaskEntry) => {
    await rm(path.join(home, 'tasks', task.taskId), { recursive: true, force: true });
    await rm(path.join(repoFolder(home, task.workspace), 'refs', 'stepwise', task.taskId), { recursive: true, force: true });
    removed.push(task.taskId);
    touched.add(task.workspace);
  };
  const cutoff = now - settings.maxAgeDays * 24 * 3600_000;
  while (tasks.length && tasks[0]!.lastUsed < cutoff) await remove(tasks.shift()!);
  await collect(home, touched, tasks);
  while (tasks.length && (await folderBytes(path.join(home, 'repos'))) > settings.maxSizeMB * 1024 * 1024) {
    const task = tasks.shift()!;
    await remove(task);
    await collect(home, new Set([task.workspace]), tasks);
  }
  return removed;
}

async function listTasks(home: string): Promise<TaskEntry[]> {
  const names = await readdir(path.join(home, 'tasks')).catch(() => [] as string[]);
  const out: TaskEntry[] = [];
  for (const taskId of names) {
    const info = await readTaskInfo(home, taskId);
    if (!info) continue;
    const used = await stat(path.join(home, 'tasks', taskId, 'checkpoints.jsonl')).then((s) => s.mtimeMs, () => info.created);
    out.push({ taskId, workspace: info.workspace, lastUsed: used });
  }
  return out;
}

/** Drops the objects no checkpoint needs any more; removes a repository no task uses. */
async function collect(home: string, workspaces: ReadonlySet<string>, remaining: readonly TaskEntry[]): Promise<void> {
  const git = await findExecutable('git');
  for (const workspace of workspaces) {
    const gitDir = repoFolder(home, workspace);
    if (!remaining.some((t) => t.workspace === workspace)) {
      await rm(gitDir, { recursive: true, force: true });
      continue;
    }
    if (!git) continue;
    await runGit({ git, gitDir, indexFile: path.join(gitDir, 'stepwise-index'), workTree: workspace }, ['gc', '--prune=now', '--quiet']).catch(() => undefined);
  }
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (!info) continue;
    total += info.isDirectory() ? await folderBytes(file) : info.size;
  }
  return total;
}

/**
 * Forgets one task's checkpoints (its list and its refs; the shared objects are collected by the
 * next prune). Used when the user deletes the task from history. True when the task had any.
 */
export async function removeTaskCheckpoints(home: string, taskId: string): Promise<boolean> {
  const info = await readTaskInfo(home, taskId);
  if (!info) return false;
  await rm(path.join(home, 'tasks', taskId), { recursive: true, force: true });
  await rm(path.join(repoFolder(home, info.workspace), 'refs', 'stepwise', taskId), { recursive: true, force: true });
  return true;
}
