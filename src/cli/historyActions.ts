import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { removeTaskCheckpoints } from '../node/checkpoints/pruneCheckpoints';
import { renderHistoryExport } from '../node/historyExport';
import { historyPruneFromEnv } from '../node/historyRules';
import type { HistoryStore } from '../node/historyStore';
import type { CliIo } from './cliIo';
import { recoverInterruptedRestore } from './cliCheckpointStore';
import { checkpointHome } from './cliPlaces';

/** What `stepwise history export|delete|prune` were given (historyCommand parsed it). */
export interface HistoryAction {
  action: 'export' | 'delete' | 'prune';
  /** The task id (export, delete), known to the store. */
  id?: string;
  format: 'markdown' | 'json';
  out?: string;
}

/**
 * `stepwise history export|delete|prune` (loaded with the task bundle: they need the event schema,
 * the export's renderer and the checkpoint store, which listing does not). Returns the exit code.
 */
export async function historyAction(io: CliIo, store: HistoryStore, a: HistoryAction): Promise<number> {
  // Like every command that may touch the checkpoint store (delete does): a restore a crash
  // interrupted is rolled back first. `history list` reads only the history and skips this.
  await recoverInterruptedRestore(io.env, io.argv, io.cwd, io.stderr);
  switch (a.action) {
    case 'export': {
      const text = renderHistoryExport(await store.read(a.id!), a.format);
      if (a.out) {
        await writeFile(path.resolve(io.cwd, a.out), text, 'utf8');
        io.stderr(`stepwise: task ${a.id} exported to ${a.out}\n`);
      } else {
        io.stdout(text);
      }
      return 0;
    }
    case 'delete':
      await store.delete(a.id!);
      await removeTaskCheckpoints(checkpointHome(io.env), a.id!);
      io.stdout(`Deleted task ${a.id}.\n`);
      return 0;
    case 'prune': {
      const removed = await store.prune(historyPruneFromEnv(io.env), Date.now());
      io.stdout(removed.length ? `Removed ${removed.length} task(s): ${removed.join(', ')}\n` : 'Nothing to remove.\n');
      return 0;
    }
  }
}
