import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CheckpointSetup, CheckpointStore } from '../agent/checkpoints/checkpointTypes';
import { openGitCheckpointStore, readTaskInfo, recoverRestore } from '../node/checkpoints/gitCheckpointStore';
import { checkpointHome } from './cliPlaces';
import { journalFile, repoFolder } from '../node/checkpoints/checkpointPlaces';
import { findGit } from '../node/git/findGit';
import { pruneCheckpointsDaily, pruneSettingsFromEnv } from '../node/checkpoints/pruneCheckpoints';

/** Opens the store for a new `stepwise run` (pruning old checkpoints at most once a day first). */
export async function openCliCheckpoints(env: NodeJS.ProcessEnv, root: string, taskId: string): Promise<CheckpointSetup> {
  const home = checkpointHome(env);
  await pruneCheckpointsDaily(home, pruneSettingsFromEnv(env)).catch(() => undefined);
  return openGitCheckpointStore({ home, workspace: root, taskId, searchPath: env.PATH });
}

/** The workspace a command works in: `--workspace` (either form), else the current folder; as given, not resolved. */
function workspaceArg(argv: readonly string[], cwd: string): string {
  const at = argv.findIndex((a) => a === '--workspace' || a.startsWith('--workspace='));
  const given = at < 0 ? undefined : argv[at]!.includes('=') ? argv[at]!.slice('--workspace='.length) : argv[at + 1];
  return path.resolve(cwd, given ?? '.');
}

/**
 * The store folder of the command's workspace when a restore there was interrupted (its journal is
 * on disk), else undefined. One `realpath` and one `stat`; throws what they throw.
 */
async function interruptedRestoreIn(env: NodeJS.ProcessEnv, argv: readonly string[], cwd: string): Promise<{ workspace: string; gitDir: string } | undefined> {
  const workspace = await realpath(workspaceArg(argv, cwd));
  const gitDir = repoFolder(checkpointHome(env), workspace);
  return (await stat(journalFile(gitDir)).catch(() => undefined)) ? { workspace, gitDir } : undefined;
}

/**
 * Run first by every `stepwise` command that may read or write the workspace or the checkpoint store
 * (all but `history list` and `--help`): when a restore of the workspace (`--workspace`, else the
 * current folder) was interrupted by a crash, rolls it back (see `recoverRestore`) and says so on
 * stderr. Costs one `stat` when there is nothing to do; never throws.
 */
export async function recoverInterruptedRestore(env: NodeJS.ProcessEnv, argv: readonly string[], cwd: string, stderr: (text: string) => void): Promise<void> {
  try {
    const interrupted = await interruptedRestoreIn(env, argv, cwd);
    if (!interrupted) return;
    const { workspace, gitDir } = interrupted;
    const git = await findGit(env.PATH ?? '', env);
    if (!git) return;
    const said = await recoverRestore({ git, gitDir, indexFile: path.join(gitDir, 'stepwise-index'), workTree: workspace });
    if (said) stderr(`stepwise: ${said}\n`);
  } catch (error) {
    stderr(`stepwise: an interrupted restore could not be rolled back: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** An existing task's store, or the message and exit code for why it cannot be opened. */
export type TaskStore = { ok: true; store: CheckpointStore; home: string; workspace: string; recovered?: string } | { ok: false; message: string; code: number };

/**
 * Opens the checkpoints of `taskId` for the workspace (`--workspace`, else the current folder),
 * refusing a task that ran in another folder (restoring there would write the wrong files).
 */
export async function openTaskStore(env: NodeJS.ProcessEnv, taskId: string, workspace: string): Promise<TaskStore> {
  const home = checkpointHome(env);
  let info;
  try {
    info = await readTaskInfo(home, taskId);
  } catch {
    info = undefined;
  }
  if (!info) return { ok: false, message: `no checkpoints for task "${taskId}" under ${home}`, code: 1 };
  const folder = (await stat(workspace).catch(() => undefined))?.isDirectory() ? await realpath(workspace) : undefined;
  if (!folder) return { ok: false, message: `--workspace is not a folder: ${workspace}`, code: 2 };
  if (folder !== info.workspace) {
    return { ok: false, message: `task ${taskId} ran in ${info.workspace}, not ${folder}: run there or pass --workspace ${info.workspace}`, code: 2 };
  }
  const setup = await openGitCheckpointStore({ home, workspace: folder, taskId, searchPath: env.PATH });
  if (!setup.store) return { ok: false, message: `checkpoints are off: ${setup.offReason}`, code: 1 };
  return { ok: true, store: setup.store, home, workspace: folder, ...(setup.recovered ? { recovered: setup.recovered } : {}) };
}
