import type { CliIo } from './cliIo';
import { runCli } from './runCli';
import { isServerCommand, serverCommand } from './servers/serverCommand';

// The light bundle's caller into this one for `history export|delete|prune` (see cliEntry.ts).
export { historyAction } from './historyActions';

/**
 * Every command that runs tasks, loaded lazily by cliEntry (dist/cli-run.js): `run`, `resume`,
 * `tasks` and the others of runCli, and the long-lived servers (`mcp`, `serve`, `acp`), which run
 * each task through runCli in the same bundle.
 */
export function taskCommand(io: CliIo): Promise<number> {
  return isServerCommand(io.argv) ? serverCommand(io) : runCli(io);
}
