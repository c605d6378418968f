import { appendFile, mkdir, readFile as readFileBytes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Checkpoint, type CheckpointSetup, type CheckpointStore, type FileChange, type Snapshot } from '../../agent/checkpoints/checkpointTypes';
import { findGit } from '../git/findGit';
import { isSecretFile } from '../../agent/checkpoints/secretFiles';
import { applyWanted, recoverJournal, type JournalPort, type Wanted } from './applyTree';
import { runGit, type GitPlaces } from './gitRunner';
import { DEFAULT_MAX_FILE_BYTES, GitSnapshotter, type SnapshotWork } from './gitSnapshot';
import { readBlobs, treeChanges, treeEntries } from './gitTrees';
import { journalFile, repoFolder, taskFolder } from './checkpointPlaces';

// The store's places are checkpointPlaces.ts's; its callers find them here too.
export { journalFile, repoFolder, taskFolder };

/** Where the store keeps everything and what it snapshots. */
export interface GitStoreOptions {
  /** The checkpoints folder (CLI: `stepwiseHome()/checkpoints`; VS Code: the extension's storage). */
  home: string;
  /** The workspace folder (a real path). */
  workspace: string;
  /** The task's id (`runId` of its events). */
  taskId: string;
  /** Per-file size cap in bytes. */
  maxFileBytes?: number;
  /** `PATH` to find git on; default `process.env.PATH`. */
  searchPath?: string;
}

/** What a task folder says about its task. */
export interface TaskCheckpointInfo {
  taskId: string;
  workspace: string;
  created: number;
}

/**
 * Opens (creating on first use) the checkpoint store of a task: a bare git repository and index of
 * our own under `home`, one per workspace, with the workspace as its work tree. Returns why
 * checkpoints are off instead when git is missing or the repository cannot be made.
 */
export async function openGitCheckpointStore(options: GitStoreOptions): Promise<CheckpointSetup> {
  const git = await findGit(options.searchPath ?? process.env.PATH ?? '');
  if (!git) return { offReason: process.platform === 'win32' ? 'git.exe was not found (install Git for Windows to get checkpoints and restore)' : 'git was not found on PATH (install git to get checkpoints and restore)' };
  const gitDir = repoFolder(options.home, options.workspace);
  const places: GitPlaces = { git, gitDir, indexFile: path.join(gitDir, 'stepwise-index'), workTree: options.workspace };
  try {
    await initRepo(places);
    const folder = taskFolder(options.home, options.taskId);
    await mkdir(folder, { recursive: true });
    const infoFile = path.join(folder, 'task.json');
    const known = await readTaskInfo(options.home, options.taskId);
    if (known && known.workspace !== options.workspace) return { offReason: `task ${options.taskId} belongs to ${known.workspace}` };
    if (!known) await writeFile(infoFile, JSON.stringify({ taskId: options.taskId, workspace: options.workspace, created: Date.now() } satisfies TaskCheckpointInfo) + '\n');
    const recovered = await recoverRestore(places);
    return { store: new GitCheckpointStore(places, folder, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES), ...(recovered ? { recovered } : {}) };
  } catch (error) {
    return { offReason: `the checkpoint store at ${gitDir} could not be opened (${error instanceof Error ? error.message : String(error)})` };
  }
}

function journalPort(places: GitPlaces): JournalPort {
  return {
    file: journalFile(places.gitDir),
    storeFiles: (paths) => storeFiles(places, paths),
    readBlobs: (shas) => readBlobs(places, shas),
  };
}

/**
 * Rolls back a restore of this workspace that a crash interrupted (every shell opens the store
 * through here: the CLI's commands, VS Code's task start and checkpoint commands). Returns the
 * sentence to tell the user, or `undefined` when there was none (or another process is restoring
 * now). Throws when the rollback failed.
 */
export async function recoverRestore(places: GitPlaces): Promise<string | undefined> {
  const count = await recoverJournal(journalPort(places));
  return count === undefined || count === 'running' ? undefined : `A restore that was interrupted (${count} file(s)) was rolled back: the files are as they were before it.`;
}

/** Stores the raw bytes of workspace files (no attribute conversion); their blob ids in order. */
async function storeFiles(places: GitPlaces, paths: readonly string[]): Promise<string[]> {
  const plain = paths.filter((p) => !p.includes('\n'));
  const ids = new Map<string, string>();
  if (plain.length) {
    const out = (await runGit(places, ['hash-object', '-w', '--no-filters', '--stdin-paths'], plain.join('\n') + '\n')).toString('utf8').trim().split('\n');
    plain.forEach((p, i) => ids.set(p, out[i]!));
  }
  for (const p of paths.filter((q) => q.includes('\n'))) {
    const bytes = await readFileBytes(path.join(places.workTree, p));
    ids.set(p, (await runGit(places, ['hash-object', '-w', '--stdin'], bytes)).toString('utf8').trim());
  }
  return paths.map((p) => ids.get(p)!);
}

/** The task folder's `task.json`, or `undefined` when the task has no checkpoints. */
export async function readTaskInfo(home: string, taskId: string): Promise<TaskCheckpointInfo | undefined> {
  try {
    return JSON.parse(await readFileBytes(path.join(taskFolder(home, taskId), 'task.json'), 'utf8')) as TaskCheckpointInfo;
  } catch {
    return undefined;
  }
}

/**
 * What `stepwise-ready` says once the store's settings are in place; a store made by an older
 * version (other text) gets the settings again, so new ones reach existing stores.
 */
const READY_TEXT = 'stepwise checkpoint store v2 (split index)\n';

async function initRepo(places: GitPlaces): Promise<void> {
  const marker = path.join(places.gitDir, 'stepwise-ready');
  const ready = await readFileBytes(marker, 'utf8').catch(() => undefined);
  if (ready === READY_TEXT) return;
  if (ready === undefined) {
    await mkdir(places.gitDir, { recursive: true });
    await runGit(places, ['init', '--bare', '--quiet', places.gitDir]);
  }
  const settings: [string, string][] = [
    ['core.autocrlf', 'false'],
    ['core.safecrlf', 'false'],
    ['core.symlinks', 'true'],
    ['core.untrackedCache', 'true'],
    ['core.fsmonitor', 'false'],
    ['core.hooksPath', '/dev/null'],
    ['gc.auto', '0'],
    ['advice.addEmbeddedRepo', 'false'],
    // Our private index only: each snapshot writes a small file of what changed instead of
    // rewriting (and hashing) an index entry per file of the tree, twice (update-index, write-tree).
    ['core.splitIndex', 'true'],
    // `git add` of written paths refuses ignored ones; the hint that follows is noise.
    ['advice.addIgnoredFile', 'false'],
  ];
  for (const [key, value] of settings) await runGit(places, ['config', key, value]);
  await writeFile(marker, READY_TEXT);
}

/** `CheckpointStore` over the git binary with our own git dir and index (see `openGitCheckpointStore`). */
export class GitCheckpointStore implements CheckpointStore {
  private readonly snapshotter: GitSnapshotter;
  /** Snapshots share one index: run them one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly places: GitPlaces,
    private readonly folder: string,
    maxFileBytes: number,
  ) {
    this.snapshotter = new GitSnapshotter(places, maxFileBytes);
  }

  /** Work the snapshots did so far (git processes, paths staged, full and scoped snapshots). */
  get work(): Readonly<SnapshotWork> {
    return this.snapshotter.work;
  }

  snapshot(signal?: AbortSignal, written?: readonly string[]): Promise<Snapshot> {
    const next = this.queue.then(() => this.snapshotter.snapshot(signal, written));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async record(checkpoint: Checkpoint): Promise<void> {
    // A ref per checkpoint keeps its tree alive when the store is pruned.
    const ref = path.join(this.places.gitDir, 'refs', 'stepwise', path.basename(this.folder), checkpoint.id);
    await mkdir(path.dirname(ref), { recursive: true });
    await writeFile(ref, checkpoint.tree + '\n');
    await appendFile(path.join(this.folder, 'checkpoints.jsonl'), JSON.stringify(checkpoint) + '\n');
  }

  async list(): Promise<Checkpoint[]> {
    const text = await readFileBytes(path.join(this.folder, 'checkpoints.jsonl'), 'utf8').catch(() => '');
    const out: Checkpoint[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const parsed = Checkpoint.safeParse(JSON.parse(line));
        if (parsed.success) out.push(parsed.data);
      } catch {
        // A line cut short by a crash: the rest of the list still counts.
      }
    }
    return out;
  }

  changes(from: string, to: string): Promise<FileChange[]> {
    return treeChanges(this.places, from, to);
  }

  async readFile(tree: string, rel: string): Promise<Uint8Array | undefined> {
    const entry = (await treeEntries(this.places, tree)).get(rel);
    if (!entry) return undefined;
    return (await readBlobs(this.places, [entry.sha])).get(entry.sha);
  }

  async apply(tree: string, all: readonly string[], signal?: AbortSignal): Promise<void> {
    // Secret files are never the store's business: not stored, so never written or deleted either.
    const paths = all.filter((p) => !isSecretFile(p));
    const entries = await treeEntries(this.places, tree);
    const blobs = await readBlobs(this.places, paths.flatMap((p) => (entries.has(p) ? [entries.get(p)!.sha] : [])));
    const wanted: Wanted[] = paths.map((p) => {
      const entry = entries.get(p);
      return entry ? { path: p, entry, content: blobs.get(entry.sha)! } : { path: p, entry: undefined };
    });
    const next = this.queue.then(() => applyWanted(this.places.workTree, wanted, journalPort(this.places), signal));
    this.queue = next.catch(() => undefined);
    await next;
  }
}
