import * as vscode from 'vscode';
import type { HistoryStore } from '../../../node/historyStore';
import { taskStartCheckpoint, undoFromCheckpoints, type CheckpointCommandDeps } from '../checkpoints/checkpointCommands';
import type { UndoAnswer, UndoReport } from '../editor/undoTaskEdits';
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

/** Up to `LISTED_FILES` paths, one a line, then how many more. */
function listed(paths: readonly string[]): string {
  return paths.slice(0, LISTED_FILES).join('\n') + (paths.length > LISTED_FILES ? `\n${vscode.l10n.t('…and {0} more', paths.length - LISTED_FILES)}` : '');
}

/**
 * One modal question before anything is touched: the files the undo changes and, apart, those the
 * user changed since Stepwise last wrote them. The first (default) button keeps the user's
 * versions; undoing theirs too is a separate, explicit choice; closing the dialog does nothing.
 */
export async function askUndo(paths: readonly string[], changedByUser: readonly string[]): Promise<UndoAnswer> {
  const theirs = new Set(changedByUser);
  const detail = [vscode.l10n.t('These files go back to how they were before the task (files it created are deleted; its report is kept):\n{0}', listed(paths.filter((p) => !theirs.has(p))))];
  if (theirs.size === 0) {
    const undo = vscode.l10n.t('Undo Changes');
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t("Undo this task's changes to {0} file(s)?", paths.length), { modal: true, detail: detail[0] }, undo);
    return answer === undo ? 'keep-mine' : undefined;
  }
  detail.push(vscode.l10n.t('You changed these files after Stepwise last wrote them. Your versions are kept unless you choose to undo them too:\n{0}', listed(changedByUser)));
  const keep = vscode.l10n.t('Undo, Keep My Changes');
  const all = vscode.l10n.t('Undo Everything, Including My Changes');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t("Undo this task's changes to {0} file(s)?", paths.length), { modal: true, detail: detail.join('\n\n') }, keep, all);
  return answer === keep ? 'keep-mine' : answer === all ? 'take-all' : undefined;
}

/** The timeline's note of an undo: what was put back or deleted, and what was left alone and why. */
export function undoNote(report: UndoReport): string {
  const parts: string[] = [];
  const undone = [...report.restored, ...report.deleted];
  if (undone.length) parts.push(vscode.l10n.t('Undone: {0}', undone.join(', ')));
  else parts.push(vscode.l10n.t('Nothing was undone.').replace(/[.。]$/, ''));
  if (report.skipped.length) parts.push(vscode.l10n.t('Not undone: {0}', report.skipped.map((s) => `${s.path} (${s.reason})`).join(', ')));
  // One sentence per part: "Undone: a. Not undone: b (why)."
  return parts.map((p) => (/[.。)]$/.test(p) ? p : p + '.')).join(' ');
}

/**
 * "Undo This Task's Edits": asks first (one modal, naming the files the user changed since
 * Stepwise last wrote them apart, keeping them by default), never touches the task's own report,
 * puts the files back (from checkpoints when the task has them, else from its journal), says what
 * happened, and adds a note to the task's timeline naming what was undone and what was not, and why.
 */
export async function undoTaskCommand(deps: UndoCommandDeps, arg: unknown, options: unknown): Promise<UndoReport | undefined> {
  const { controller } = deps;
  const runId = typeof arg === 'string' ? arg : controller.currentRunId;
  const keep = runId ? await reportPaths(deps.history, runId) : [];
  // A caller that already asked (another extension, a test) passes `{ confirmed: true }`: the user's changes are kept.
  const confirmed = (options as { confirmed?: unknown } | undefined)?.confirmed === true;
  const ask = confirmed ? async (): Promise<UndoAnswer> => 'keep-mine' : askUndo;
  const fromCheckpoints = runId && (await taskStartCheckpoint(deps.checkpoints, runId)) ? await undoFromCheckpoints(deps.checkpoints, runId, { keep, ask }) : undefined;
  const result = fromCheckpoints ?? (await controller.undo(typeof arg === 'string' ? arg : undefined, { keep, ask }));
  if (result === 'declined') return undefined;
  if (!result || result.restored.length + result.deleted.length + result.skipped.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This task made no edits that can be undone.'));
    return undefined;
  }
  const { message, warning } = describeUndo(result);
  if (warning) void vscode.window.showWarningMessage(message);
  else void vscode.window.showInformationMessage(message);
  if (runId) await controller.noteOnTask(runId, undoNote(result), 'edits_undone');
  return result;
}
