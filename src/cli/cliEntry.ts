import { USAGE } from './cliArgs';
import { recoverInterruptedRestore } from './cliCheckpointStore';
import { historyCommand } from './historyCommand';
import type { CliIo } from './cliIo';
import type * as TaskCommand from './taskCommand';

/**
 * The CLI's first step: runs `history` and `--help` from the small bundle (dist/cli.js) and loads
 * everything a task needs (the agent, tools, models, MCP: dist/cli-run.js, see scripts/build.mjs)
 * only for the commands that use it, so listing history costs no more than Node's own start.
 */
export async function cliEntry(io: CliIo): Promise<number> {
  const command = io.argv[0];
  if (command === 'history') {
    // As for every command: a restore a crash interrupted is rolled back first.
    await recoverInterruptedRestore(io.env, io.argv, io.cwd, io.stderr);
    return historyCommand(io);
  }
  if (command === '--help' || command === '-h') {
    io.stdout(USAGE + '\n');
    return 0;
  }
  // require, not import(): a dynamic import of a CommonJS bundle goes through Node's ESM loader,
  // which lexes the whole file for its exports first (a large part of a task's start).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
  const { taskCommand } = require('./taskCommand') as typeof TaskCommand;
  return taskCommand(io);
}
