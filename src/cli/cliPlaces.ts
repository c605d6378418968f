import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { journalFile, repoFolder } from '../node/checkpoints/checkpointPlaces';
import { HistoryStore } from '../node/historyStore';
import { stepwiseHome } from '../node/stepwiseHome';

// The CLI's folders, and the one check every command makes first; light on purpose: this is all
// `stepwise history list` and `--help` load before they answer (see cliEntry.ts).

/** The CLI's checkpoints folder: `$STEPWISE_HOME/checkpoints`. */
export function checkpointHome(env: NodeJS.ProcessEnv): string {
  return path.join(stepwiseHome(env), 'checkpoints');
}

/** The CLI's task history: JSON lines of event envelopes under `$STEPWISE_HOME/history`, as VS Code keeps them. */
export function cliHistory(env: NodeJS.ProcessEnv, onError: (error: unknown) => void): HistoryStore {
  return new HistoryStore(path.join(stepwiseHome(env), 'history'), onError);
}

/** The workspace a command works in: `--workspace` (either form), else the current folder; as given, not resolved. */
export function workspaceArg(argv: readonly string[], cwd: string): string {
  const at = argv.findIndex((a) => a === '--workspace' || a.startsWith('--workspace='));
  const given = at < 0 ? undefined : argv[at]!.includes('=') ? argv[at]!.slice('--workspace='.length) : argv[at + 1];
  return path.resolve(cwd, given ?? '.');
}

/**
 * The store folder of the command's workspace when a restore there was interrupted (its journal is
 * on disk), else undefined. One `realpath` and one `stat`; throws what they throw.
 */
export async function interruptedRestoreIn(env: NodeJS.ProcessEnv, argv: readonly string[], cwd: string): Promise<{ workspace: string; gitDir: string } | undefined> {
  const workspace = await realpath(workspaceArg(argv, cwd));
  const gitDir = repoFolder(checkpointHome(env), workspace);
  return (await stat(journalFile(gitDir)).catch(() => undefined)) ? { workspace, gitDir } : undefined;
}
