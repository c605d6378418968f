import { parseArgs } from 'node:util';
import type { CliIo } from './cliIo';
import { cliHistory } from './cliPlaces';
import type { HistoryAction } from './historyActions';
import type { HistoryStore } from '../node/historyStore';
import { taskTitle } from '../shared/taskTitle';

const USAGE = `Usage: stepwise history list [words…] [--json]
       stepwise history export <task-id> [--format markdown|json] [--out FILE]
       stepwise history delete <task-id> --yes
       stepwise history prune   (STEPWISE_HISTORY_MAX_AGE_DAYS, default 30; STEPWISE_HISTORY_MAX_SIZE_MB, default 200; 0 = keep)`;

function usage(io: CliIo, message: string): number {
  io.stderr(`stepwise: ${message}\n${USAGE}\n`);
  return 2;
}

/** Runs `export`, `delete` or `prune` once parsed (historyActions.ts's `historyAction`, loaded as the caller's bundle allows). */
export type RunHistoryAction = (io: CliIo, store: HistoryStore, action: HistoryAction) => Promise<number>;

/**
 * `stepwise history list|export|delete|prune`: the same history rules as VS Code (search, markdown /
 * JSON export, delete with its checkpoint list, pruning by age and size). Lists by itself (the
 * small bundle); hands the other actions to `act`. Returns the exit code.
 */
export async function historyCommand(io: CliIo, act: RunHistoryAction): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: io.argv.slice(1),
      allowPositionals: true,
      options: { json: { type: 'boolean' }, format: { type: 'string' }, out: { type: 'string' }, yes: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    io.stdout(USAGE + '\n');
    return 0;
  }
  const [action, ...rest] = positionals;
  const store = cliHistory(io.env, (error) => io.stderr(`stepwise: ${String(error)}\n`));
  const known = async (id: string | undefined) => id !== undefined && /^[A-Za-z0-9_-]{1,200}$/.test(id) && (await store.read(id)).length > 0;
  switch (action) {
    // Listing runs in the small bundle (the index alone); the other actions load the task bundle.
    case 'list': {
      const entries = await store.search(rest.join(' '), 200);
      // One write for the whole list: a write per line is a system call per line on a pipe.
      const lines = entries.map((entry) => values.json ? JSON.stringify(entry) + '\n' : `${entry.runId}  ${(entry.outcome ?? 'interrupted').padEnd(10)}  ${new Date(entry.ts).toISOString()}  ${taskTitle(entry.task, 100)}\n`);
      if (lines.length) io.stdout(lines.join(''));
      if (!entries.length && !values.json) io.stdout(rest.length ? 'No stored task matches.\n' : 'No stored tasks yet.\n');
      return 0;
    }
    case 'export': {
      const format = values.format ?? 'markdown';
      if (format !== 'markdown' && format !== 'json') return usage(io, `--format is markdown or json, not "${format}"`);
      if (rest.length !== 1 || !(await known(rest[0]))) return usage(io, `not a stored task id: ${rest[0] ?? '(none)'}`);
      return act(io, store, { action: 'export', id: rest[0]!, format, ...(values.out ? { out: values.out } : {}) });
    }
    case 'delete': {
      if (rest.length !== 1 || !(await known(rest[0]))) return usage(io, `not a stored task id: ${rest[0] ?? '(none)'}`);
      if (!values.yes) return usage(io, `add --yes to delete task ${rest[0]} (its events, side files and checkpoints; workspace files are not changed)`);
      return act(io, store, { action: 'delete', id: rest[0]!, format: 'markdown' });
    }
    case 'prune':
      return act(io, store, { action: 'prune', format: 'markdown' });
    default:
      return usage(io, action ? `unknown history action "${action}"` : 'give an action: list, export, delete or prune');
  }
}
