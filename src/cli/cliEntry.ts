import { USAGE } from './cliUsage';
import { historyCommand } from './historyCommand';
import type { CliIo } from './cliIo';
import { taskBundle } from './taskBundle';

/**
 * The CLI's first step: answers `history list` and `--help` from the small bundle (dist/cli.js, no
 * zod, no agent) and loads everything else (the agent, tools, models, MCP, checkpoints:
 * dist/cli-run.js, see scripts/build.mjs) only for the commands that use it, so listing history
 * costs little more than Node's own start.
 */
export async function cliEntry(io: CliIo): Promise<number> {
  const command = io.argv[0];
  if (command === 'history') {
    // No interrupted-restore check here: listing reads only the history, never the workspace or
    // the checkpoint store (export, delete and prune check in the task bundle, as all others do).
    return historyCommand(io, (...args) => taskBundle().historyAction(...args));
  }
  if (command === '--help' || command === '-h') {
    io.stdout(USAGE + '\n');
    return 0;
  }
  return taskBundle().taskCommand(io);
}
