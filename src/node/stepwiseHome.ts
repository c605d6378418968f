import os from 'node:os';
import path from 'node:path';

/**
 * The CLI's state folder (task history, checkpoints): `$STEPWISE_HOME`, else on Windows
 * `%LOCALAPPDATA%\Stepwise`, else `$XDG_STATE_HOME/stepwise`, else `~/.local/state/stepwise`.
 */
export function stepwiseHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.STEPWISE_HOME) return path.resolve(env.STEPWISE_HOME);
  if (platform === 'win32' && env.LOCALAPPDATA) return path.win32.join(env.LOCALAPPDATA, 'Stepwise');
  const state = env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'stepwise');
}
