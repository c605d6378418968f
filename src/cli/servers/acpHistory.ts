import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentEvent } from '../../shared/events';
import { stepwiseHome } from '../../node/stepwiseHome';
import { UsageError } from '../cliArgs';
import { historyToResume } from '../cliTasks';
import { cliHistory } from '../cliPlaces';
import { loadServerSdks } from './loadServerSdks';

/** Session ids we store a file under: ours are UUIDs; anything else is looked up as a task id only. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,200}$/;

function sessionFile(env: NodeJS.ProcessEnv, sessionId: string): string {
  return path.join(stepwiseHome(env), 'acp-sessions', `${sessionId}.json`);
}

/** Remembers the last run of an ACP session, so `session/load` finds it after the agent restarts. */
export async function rememberSession(env: NodeJS.ProcessEnv, sessionId: string, runId: string): Promise<void> {
  if (!SAFE_ID.test(sessionId)) return;
  const file = sessionFile(env, sessionId);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ runId }), { mode: 0o600 });
}

/** The last run of a session this agent (or an earlier one) ran; `undefined` when it never ran one. */
export async function rememberedRun(env: NodeJS.ProcessEnv, sessionId: string): Promise<string | undefined> {
  if (!SAFE_ID.test(sessionId)) return undefined;
  try {
    const stored = JSON.parse(await readFile(sessionFile(env, sessionId), 'utf8')) as { runId?: unknown };
    return typeof stored.runId === 'string' ? stored.runId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stored events of a task to load as an ACP session, by its last run id (or an id `stepwise
 * tasks` shows), read the way `stepwise resume` reads them (the task must have run in `cwd`); an
 * unknown id is ACP's "resource not found".
 */
export async function acpStoredSession(env: NodeJS.ProcessEnv, runId: string, cwd: string): Promise<AgentEvent[]> {
  const history = cliHistory(env, () => undefined);
  try {
    return await historyToResume(history, runId, await realpath(cwd), env);
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code === 'ENOENT') throw loadServerSdks().acp.RequestError.resourceNotFound(runId);
    throw error;
  }
}
