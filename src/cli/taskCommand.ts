import type { CliIo } from './cliIo';
import { runCli } from './runCli';
import { isServerCommand, serverCommand } from './servers/serverCommand';

// The light bundle's callers into this one (see cliEntry.ts, historyCommand.ts).
export { historyAction } from './historyActions';
export { recoverInterruptedRestore } from './cliCheckpointStore';

/**
 * Every command that runs tasks, loaded lazily by cliEntry (dist/cli-run.js): `run`, `resume`,
 * `tasks` and the others of runCli, and the long-lived servers (`mcp`, `serve`, `acp`), which run
 * each task through runCli in the same bundle.
 */
export function taskCommand(io: CliIo): Promise<number> {
  return isServerCommand(io.argv) ? serverCommand(io) : runCli(io);
}
