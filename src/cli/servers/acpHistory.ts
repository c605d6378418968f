import { realpath } from 'node:fs/promises';
import { RequestError } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../../shared/events';
import { UsageError } from '../cliArgs';
import { cliHistory, historyToResume } from '../cliTasks';

/**
 * The stored events of a task to load as an ACP session, by the id `stepwise tasks` shows, read
 * the way `stepwise resume` reads them (the task must have run in `cwd`); an unknown id is ACP's
 * "resource not found".
 */
export async function acpStoredSession(env: NodeJS.ProcessEnv, runId: string, cwd: string): Promise<AgentEvent[]> {
  const history = cliHistory(env, () => undefined);
  try {
    return await historyToResume(history, runId, await realpath(cwd), env);
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code === 'ENOENT') throw RequestError.resourceNotFound(runId);
    throw error;
  }
}
