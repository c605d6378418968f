import path from 'node:path';
import { loadTaskHistory } from '../agent/flow/resumeTask';
import type { HistoryStore } from '../node/historyStore';
import type { AgentEvent } from '../shared/events';
import { UsageError } from './cliArgs';
import { checkpointHome } from './cliPlaces';
import { CONVERSATION_CUT_FILE } from './restoreCommand';
import { taskFolder } from '../node/checkpoints/gitCheckpointStore';
import { readFile } from 'node:fs/promises';
import { taskTitle } from '../shared/taskTitle';

/** `stepwise tasks`: stored tasks, newest first — id, outcome, start time, task (or one JSON object per line). */
export async function listTasks(store: HistoryStore, json: boolean, write: (text: string) => void): Promise<void> {
  const entries = await store.list(200);
  if (json) {
    for (const entry of entries) write(JSON.stringify(entry) + '\n');
    return;
  }
  if (!entries.length) write('No stored tasks yet.\n');
  for (const entry of entries) {
    const task = taskTitle(entry.task, 100);
    write(`${entry.runId}  ${(entry.outcome ?? 'interrupted').padEnd(10)}  ${new Date(entry.ts).toISOString()}  ${task}\n`);
  }
}

/**
 * The history of a stored task to resume in `root`; a UsageError for an unknown id, or for a task
 * that ran in another folder (resume runs where the task ran).
 */
export async function historyToResume(store: HistoryStore, taskId: string, root: string, env: NodeJS.ProcessEnv = process.env): Promise<AgentEvent[]> {
  let events: AgentEvent[];
  try {
    events = await loadTaskHistory((id) => store.read(id), taskId, (id) => conversationCut(env, id));
  } catch {
    throw new UsageError(`Not a task id: ${taskId} (see \`stepwise tasks\`)`);
  }
  const started = events.findLast((e) => e.type === 'run_started');
  if (!started || started.type !== 'run_started') throw new UsageError(`No stored task ${taskId} (see \`stepwise tasks\`)`);
  if (path.resolve(started.workspace) !== path.resolve(root)) {
    throw new UsageError(`Task ${taskId} ran in ${started.workspace}; resume it from there (or pass --workspace ${started.workspace})`);
  }
  return events;
}

/** Where `stepwise restore --conversation` cut a task's conversation (the `seq` resume continues before), if it did. */
async function conversationCut(env: NodeJS.ProcessEnv, taskId: string): Promise<number | undefined> {
  try {
    const cut = JSON.parse(await readFile(path.join(taskFolder(checkpointHome(env), taskId), CONVERSATION_CUT_FILE), 'utf8')) as { seq?: unknown };
    return typeof cut.seq === 'number' ? cut.seq : undefined;
  } catch {
    return undefined;
  }
}
