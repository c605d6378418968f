import path from 'node:path';
import { HistoryStore } from '../node/historyStore';
import { stepwiseHome } from '../node/stepwiseHome';

// The CLI's folders; light on purpose: `stepwise history list` loads this before it answers (see cliEntry.ts).

/** The CLI's checkpoints folder: `$STEPWISE_HOME/checkpoints`. */
export function checkpointHome(env: NodeJS.ProcessEnv): string {
  return path.join(stepwiseHome(env), 'checkpoints');
}

/** The CLI's task history: JSON lines of event envelopes under `$STEPWISE_HOME/history`, as VS Code keeps them. */
export function cliHistory(env: NodeJS.ProcessEnv, onError: (error: unknown) => void): HistoryStore {
  return new HistoryStore(path.join(stepwiseHome(env), 'history'), onError);
}
