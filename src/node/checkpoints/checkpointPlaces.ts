import { createHash } from 'node:crypto';
import path from 'node:path';

// Where the checkpoint store keeps things: plain path arithmetic, apart from the store itself so
// the CLI's start (which looks for an interrupted restore before every command) loads no more.

/** The folder of a task's checkpoint list. */
export function taskFolder(home: string, taskId: string): string {
  if (!/^[\w.-]+$/.test(taskId) || taskId.startsWith('.')) throw new Error(`not a task id: ${taskId}`);
  return path.join(home, 'tasks', taskId);
}

/** Our repository for one workspace: one per workspace folder, so equal content across tasks is stored once. */
export function repoFolder(home: string, workspace: string): string {
  return path.join(home, 'repos', createHash('sha256').update(workspace).digest('hex').slice(0, 20) + '.git');
}

/** The restore journal of a workspace's store (see `applyWanted`). */
export function journalFile(gitDir: string): string {
  return path.join(gitDir, 'stepwise-restore-journal.json');
}
