import * as vscode from 'vscode';
import type { HistoryStore } from '../../../node/historyStore';
import { taskStartCheckpoint, undoFromCheckpoints, type CheckpointCommandDeps } from '../checkpoints/checkpointCommands';
import type { UndoReport } from '../editor/undoTaskEdits';
import type { TaskController } from '../task/taskController';
import { describeUndo } from './commandText';

/** What "Undo This Task's Edits" acts on. */
export interface UndoCommandDeps {
  controller: TaskController;
  history: HistoryStore;
  checkpoints: CheckpointCommandDeps;
}

/** Files shown by name in the confirmation; more are counted. */
const LISTED_FILES = 10;

/** The workspace paths of the reports a task wrote: an undo of its edits keeps them. */
export async function reportPaths(history: HistoryStore, runId: string): Promise<string[]> {
  const paths = (await history.read(runId)).flatMap((e) => (e.event.type === 'report' && e.event.path ? [e.event.path.replace(/\\/g, '/')] : []));
  return [...new Set(paths)];
}

/** A modal question naming how many files the undo changes (and which); true = go ahead. */
async function confirmUndo(paths: readonly string[]): Promise<boolean> {
  const undo = vscode.l10n.t('Undo Changes');
  const listed = paths.slice(0, LISTED_FILES).join('\n') + (paths.length > LISTED_FILES ? `\n${vscode.l10n.t('…and {0} more', paths.length - LISTED_FILES)}` : '');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t("Undo this task's changes to {0} file(s)?", paths.length),
    { modal: true, detail: vscode.l10n.t('These files go back to how they were before the task (files it created are deleted; its report is kept):\n{0}', listed) },
    undo,
  );
  return answer === undo;
}

/**
 * "Undo This Task's Edits": asks first (modal, with the number of files), never touches the task's
 * own report, puts the files back (from checkpoints when the task has them, else from its journal),
 * says what happened, and adds a note to the task's timeline naming the files undone.
 */
export async function undoTaskCommand(deps: UndoCommandDeps, arg: unknown, options: unknown): Promise<UndoReport | undefined> {
  const { controller } = deps;
  const runId = typeof arg === 'string' ? arg : controller.currentRunId;
  const keep = runId ? await reportPaths(deps.history, runId) : [];
  // A caller that already asked (another extension, a test) passes `{ confirmed: true }`; the UI always asks.
  const confirmed = (options as { confirmed?: unknown } | undefined)?.confirmed === true;
  const guard = { keep, confirm: confirmed ? async () => true : confirmUndo };
  const fromCheckpoints = runId && (await taskStartCheckpoint(deps.checkpoints, runId)) ? await undoFromCheckpoints(deps.checkpoints, runId, guard) : undefined;
  const result = fromCheckpoints ?? (await controller.undo(typeof arg === 'string' ? arg : undefined, guard));
  if (result === 'declined') return undefined;
  if (!result || result.restored.length + result.deleted.length + result.skipped.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This task made no edits that can be undone.'));
    return undefined;
  }
  const { message, warning } = describeUndo(result);
  if (warning) void vscode.window.showWarningMessage(message);
  else void vscode.window.showInformationMessage(message);
  const undone = [...result.restored, ...result.deleted];
  if (runId && undone.length) await controller.noteOnTask(runId, vscode.l10n.t('Undone: {0}', undone.join(', ')), 'edits_undone');
  return result;
}
