import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { removeTaskCheckpoints } from '../node/checkpoints/pruneCheckpoints';
import { renderHistoryExport } from '../node/historyExport';
import { historyPruneFromEnv } from '../node/historyRules';
import { checkpointHome } from './cliCheckpointStore';
import { cliHistory } from './cliTasks';
import type { CliIo } from './cliIo';
import { taskTitle } from '../shared/taskTitle';

const USAGE = `Usage: stepwise history list [words…] [--json]
       stepwise history export <task-id> [--format markdown|json] [--out FILE]
       stepwise history delete <task-id> --yes
       stepwise history prune   (STEPWISE_HISTORY_MAX_AGE_DAYS, default 30; STEPWISE_HISTORY_MAX_SIZE_MB, default 200; 0 = keep)`;

function usage(io: CliIo, message: string): number {
  io.stderr(`stepwise: ${message}\n${USAGE}\n`);
  return 2;
}

/**
 * `stepwise history list|export|delete|prune`: the same history rules as VS Code (search, markdown /
 * JSON export, delete with its checkpoint list, pruning by age and size). Returns the exit code.
 */
export async function historyCommand(io: CliIo): Promise<number> {
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
    case 'list': {
      const entries = await store.search(rest.join(' '), 200);
      for (const entry of entries) {
        io.stdout(values.json ? JSON.stringify(entry) + '\n' : `${entry.runId}  ${(entry.outcome ?? 'interrupted').padEnd(10)}  ${new Date(entry.ts).toISOString()}  ${taskTitle(entry.task, 100)}\n`);
      }
      if (!entries.length && !values.json) io.stdout(rest.length ? 'No stored task matches.\n' : 'No stored tasks yet.\n');
      return 0;
    }
    case 'export': {
      const format = values.format ?? 'markdown';
      if (format !== 'markdown' && format !== 'json') return usage(io, `--format is markdown or json, not "${format}"`);
      if (rest.length !== 1 || !(await known(rest[0]))) return usage(io, `not a stored task id: ${rest[0] ?? '(none)'}`);
      const text = renderHistoryExport(await store.read(rest[0]!), format);
      if (values.out) {
        await writeFile(path.resolve(io.cwd, values.out), text, 'utf8');
        io.stderr(`stepwise: task ${rest[0]} exported to ${values.out}\n`);
      } else {
        io.stdout(text);
      }
      return 0;
    }
    case 'delete': {
      if (rest.length !== 1 || !(await known(rest[0]))) return usage(io, `not a stored task id: ${rest[0] ?? '(none)'}`);
      if (!values.yes) return usage(io, `add --yes to delete task ${rest[0]} (its events, side files and checkpoints; workspace files are not changed)`);
      await store.delete(rest[0]!);
      await removeTaskCheckpoints(checkpointHome(io.env), rest[0]!);
      io.stdout(`Deleted task ${rest[0]}.\n`);
      return 0;
    }
    case 'prune': {
      const removed = await store.prune(historyPruneFromEnv(io.env), Date.now());
      io.stdout(removed.length ? `Removed ${removed.length} task(s): ${removed.join(', ')}\n` : 'Nothing to remove.\n');
      return 0;
    }
    default:
      return usage(io, action ? `unknown history action "${action}"` : 'give an action: list, export, delete or prune');
  }
}
