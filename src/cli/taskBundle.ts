import type * as TaskCommand from './taskCommand';

/**
 * The task bundle (dist/cli-run.js once built; see scripts/build.mjs): the agent, tools, models,
 * checkpoints and every command but the fast ones, loaded on first use.
 */
export function taskBundle(): typeof TaskCommand {
  // require, not import(): a dynamic import of a CommonJS bundle goes through Node's ESM loader,
  // which lexes the whole file for its exports first (a large part of a task's start).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
  return require('./taskCommand') as typeof TaskCommand;
}
