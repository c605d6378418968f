import { z } from 'zod';

/** Why a checkpoint was taken. */
export const CheckpointKind = z.enum(['task_start', 'step', 'tool', 'finish', 'task_end', 'before_restore', 'after_restore']);
export type CheckpointKind = z.infer<typeof CheckpointKind>;

/** One checkpoint of a task: a snapshot of the workspace's files (`tree`) and where in the task it was taken. */
export const Checkpoint = z.object({
  /** Short id, unique within the task: `c1`, `c2`, … */
  id: z.string().min(1),
  /** The store's id of the snapshot; equal trees mean equal files. */
  tree: z.string().min(1),
  kind: CheckpointKind,
  /** Epoch milliseconds. */
  time: z.number(),
  /** `seq` of the next event of the task's stream when it was taken: the conversation is cut here. */
  seq: z.number().int().nonnegative().optional(),
  stepId: z.string().optional(),
  /** 1-based position of the step in the plan when it started. */
  stepNumber: z.number().int().positive().optional(),
  stepTitle: z.string().optional(),
  callId: z.string().optional(),
  tool: z.string().optional(),
  /** Free text, e.g. which checkpoint a restore went to. */
  label: z.string().optional(),
  /** Fingerprints (`size:sha256`) of the files over the size cap, which the tree leaves out: a later change to one is still seen. */
  large: z.record(z.string(), z.string()).optional(),
});
export type Checkpoint = z.infer<typeof Checkpoint>;

/** A file that differs between two snapshots. */
export interface FileChange {
  path: string;
  status: 'added' | 'modified' | 'deleted';
}

/** A file a snapshot left out, and why (size cap, nested repository). */
export interface SkippedFile {
  path: string;
  reason: string;
  /** A secret file (`.env`, keys; see `isSecretFile`): said once per task, as one notice. */
  secret?: boolean;
}

/** The workspace's files at one moment. */
export interface Snapshot {
  tree: string;
  /** Files left out of this snapshot (not ignored ones: those are never looked at). */
  skipped: SkippedFile[];
  /** Fingerprints (`size:sha256`) of the files left out for the size cap, by path. */
  large?: Record<string, string>;
}

/**
 * Where a task's checkpoints live: outside the workspace, never touching the user's version
 * control. Snapshots honour `.gitignore`, `.stepwiseignore`, default excludes and a size cap; equal
 * content is stored once. Methods throw for store failures (the core turns them into a notice).
 */
export interface CheckpointStore {
  /**
   * Snapshots the workspace's files now. `written`: when given, the only paths (workspace-relative,
   * `/`-separated) that changed since this store's previous snapshot; a store may then look at
   * those alone (it may also ignore the hint and look at everything).
   */
  snapshot(signal?: AbortSignal, written?: readonly string[]): Promise<Snapshot>;
  /** Appends a checkpoint to the task's list (persisted, survives a restart). */
  record(checkpoint: Checkpoint): Promise<void>;
  /** The task's checkpoints, oldest first. */
  list(): Promise<Checkpoint[]>;
  /** Files that differ from snapshot `from` to snapshot `to`, sorted by path. */
  changes(from: string, to: string): Promise<FileChange[]>;
  /** The content of `path` in snapshot `tree`; `undefined` when the snapshot has no such file. */
  readFile(tree: string, path: string): Promise<Uint8Array | undefined>;
  /**
   * Makes each of `paths` what it is in snapshot `tree` (created, overwritten, or deleted when
   * the snapshot lacks it), all or nothing: every path is checked before anything is written, the
   * intent is journaled durably before the first write, and a failure while writing puts back what
   * was already changed (a crash is rolled back when the store is next opened). Throws with the
   * reason on failure.
   */
  apply(tree: string, paths: readonly string[], signal?: AbortSignal): Promise<void>;
}

/** What a task needs to take checkpoints: the store, or why there is none. */
export interface CheckpointSetup {
  store?: CheckpointStore;
  /** Said once at the start of the task when `store` is absent (e.g. "git was not found"). */
  offReason?: string;
  /** Said once when opening the store rolled back a restore that a crash had interrupted. */
  recovered?: string;
}
