import { errorMessage, isCancellation } from '../errors';
import type { Checkpoint, CheckpointStore, FileChange, Snapshot } from './checkpointTypes';
import { userChangedFiles } from './lastWritten';
import { isSecretFile } from './secretFiles';

/** For a file the user changed after the checkpoint: keep the user's version, or take the checkpoint's. */
export type FileChoice = 'mine' | 'checkpoint';

/** What to restore and how to treat the user's own changes. */
export interface RestoreRequest {
  target: Checkpoint;
  /** Per-file answers for files the user changed since Stepwise last wrote them. */
  choices?: Readonly<Record<string, FileChoice>>;
  /** Take the checkpoint's version of every file the user changed (CLI `--force`). */
  force?: boolean;
  /** Paths to leave as they are whatever they differ in (e.g. an undo that skips unsaved editors). */
  skip?: readonly string[];
  /** Paths the host must not overwrite now (e.g. unsaved editors); checked before anything is written. */
  blocked?: (paths: readonly string[]) => Promise<string[]>;
  now: number;
  signal?: AbortSignal;
}

/** How a restore went; on anything but `ok` no file was changed. */
export type RestoreResult =
  | { ok: true; changed: FileChange[]; kept: string[]; before: Checkpoint; after: Checkpoint }
  | { ok: false; reason: 'conflict'; conflicts: string[] }
  | { ok: false; reason: 'blocked'; blocked: string[] }
  | { ok: false; reason: 'failed'; message: string };

/** What a restore to a target would do now, before anything is written. */
export interface RestorePlan {
  /** The files now (the "before restore" snapshot). */
  now: Snapshot;
  /** Files that differ from the target (less `skip` and secret files), sorted by path. */
  wanted: FileChange[];
  /** Those of `wanted` the user changed since Stepwise last wrote them. */
  userChanged: string[];
}

/**
 * Looks before a restore: snapshots the files now and lists what would change and which of those
 * the user changed since Stepwise last wrote them (see `userChangedFiles`; files over the size cap
 * by fingerprint). Writes nothing. Throws for store failures and cancellation.
 */
export async function planRestore(store: CheckpointStore, target: Checkpoint, skip: readonly string[] = [], signal?: AbortSignal): Promise<RestorePlan> {
  const list = await store.list();
  if (!list.length) throw new Error('The task has no checkpoints.');
  const now = await store.snapshot(signal);
  const wanted = (await store.changes(now.tree, target.tree)).filter((c) => !skip.includes(c.path) && !isSecretFile(c.path));
  const changed = await userChangedFiles(store, list, now);
  return { now, wanted, userChanged: wanted.filter((c) => changed.has(c.path)).map((c) => c.path) };
}

/**
 * Restores the workspace's files to `target`: snapshots the files now (the "before restore"
 * checkpoint, so the restore can be undone), finds what differs from the target, and stops with
 * the list when files the user changed since Stepwise last wrote them would be overwritten without
 * a choice (or `force`), or when the host blocks a path. Otherwise applies all changes at once
 * (all or nothing, journaled against crashes) and records the before and after checkpoints.
 * Throws only for cancellation.
 */
export async function restoreCheckpoint(store: CheckpointStore, request: RestoreRequest): Promise<RestoreResult> {
  try {
    const { now, wanted, userChanged } = await planRestore(store, request.target, request.skip, request.signal);
    const undecided = userChanged.filter((p) => !request.force && request.choices?.[p] === undefined);
    if (undecided.length) return { ok: false, reason: 'conflict', conflicts: undecided };
    const kept = userChanged.filter((p) => !request.force && request.choices?.[p] === 'mine');
    const apply = wanted.filter((c) => !kept.includes(c.path));
    const blocked = request.blocked ? await request.blocked(apply.map((c) => c.path)) : [];
    if (blocked.length) return { ok: false, reason: 'blocked', blocked };
    const list = await store.list();
    let next = Math.max(0, ...list.map((c) => Number(c.id.slice(1)) || 0));
    const label = (text: string) => ({ label: text, ...(now.large && Object.keys(now.large).length ? { large: now.large } : {}) });
    const before: Checkpoint = { id: `c${++next}`, tree: now.tree, kind: 'before_restore', time: request.now, ...label(`before restoring ${request.target.id}`) };
    await store.record(before);
    await store.apply(request.target.tree, apply.map((c) => c.path), request.signal);
    const done = await store.snapshot(request.signal);
    const after: Checkpoint = {
      id: `c${++next}`, tree: done.tree, kind: 'after_restore', time: request.now, label: `restored ${request.target.id}`,
      ...(done.large && Object.keys(done.large).length ? { large: done.large } : {}),
    };
    await store.record(after);
    return { ok: true, changed: apply, kept, before, after };
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { ok: false, reason: 'failed', message: errorMessage(error) };
  }
}

/** The checkpoint a "before step N" restore goes to: the first taken at the start of step N. */
export function checkpointBeforeStep(list: readonly Checkpoint[], stepNumber: number): Checkpoint | undefined {
  return list.find((c) => c.kind === 'step' && c.stepNumber === stepNumber);
}
