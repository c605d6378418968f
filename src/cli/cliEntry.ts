import { USAGE } from './cliUsage';
import { interruptedRestoreIn } from './cliPlaces';
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
    // As for every command: a restore a crash interrupted is rolled back first. Looking costs one
    // stat; rolling back (or saying why it could not) loads the checkpoint store.
    const interrupted = await interruptedRestoreIn(io.env, io.argv, io.cwd).catch(() => true);
    if (interrupted) await taskBundle().recoverInterruptedRestore(io.env, io.argv, io.cwd, io.stderr);
    return historyCommand(io, (...args) => taskBundle().historyAction(...args));
  }
  if (command === '--help' || command === '-h') {
    io.stdout(USAGE + '\n');
    return 0;
  }
  return taskBundle().taskCommand(io);
}
