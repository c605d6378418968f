import * as vscode from 'vscode';
import { errorMessage } from '../../../agent/errors';
import type { EditJournal } from '../../common/editor/editJournal';
import { findOpenDocument, replaceDocument } from './vscodeWorkspace';

/** What an undo did, file by file. */
export interface UndoReport {
  restored: string[];
  deleted: string[];
  /** Files left alone, with why (the user changed them since, unsaved changes, an error). */
  skipped: Array<{ path: string; reason: string }>;
}

/** The user's answer to an undo: go ahead keeping the files they changed, go ahead over them too, or nothing. */
export type UndoAnswer = 'keep-mine' | 'take-all' | undefined;

/** What an undo must leave alone (the task's own report) and how it asks the user first. */
export interface UndoGuard {
  keep: readonly string[];
  /**
   * Asked once, before anything is touched, with the files the undo would change and, among them,
   * those the user changed since Stepwise last wrote them; `undefined` = nothing is done.
   */
  ask: (paths: readonly string[], changedByUser: readonly string[]) => Promise<UndoAnswer>;
}

async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const open = findOpenDocument(uri);
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/**
 * The journal's files the user changed since the run last wrote them (content differs from what
 * Stepwise wrote, or unsaved changes in an editor): what the undo question names apart.
 */
export async function changedSinceTask(journal: EditJournal, uriOf: (relPath: string) => vscode.Uri, keep: readonly string[] = []): Promise<string[]> {
  const changed: string[] = [];
  for (const entry of journal.list()) {
    if (keep.includes(entry.path)) continue;
    const uri = uriOf(entry.path);
    const now = await currentText(uri);
    if (findOpenDocument(uri)?.isDirty || (now !== undefined && now !== entry.after)) changed.push(entry.path);
  }
  return changed;
}

/**
 * Puts every file a run changed back to its content before the run, through WorkspaceEdits (so the
 * undo itself can be undone), and deletes the files the run created. A file the user changed after
 * the run wrote it, or one with unsaved changes, is skipped and reported unless it is in
 * `overwrite` (the user chose to undo their changes too; unsaved editors are still left alone):
 * the user's own work is never wiped unasked. Restored files leave the journal; skipped ones stay.
 */
export async function undoTaskEdits(journal: EditJournal, uriOf: (relPath: string) => vscode.Uri, keep: readonly string[] = [], overwrite: readonly string[] = []): Promise<UndoReport> {
  const report: UndoReport = { restored: [], deleted: [], skipped: [] };
  for (const entry of journal.list().reverse()) {
    // The task's own report is what it found: undoing its edits never deletes it.
    if (keep.includes(entry.path)) continue;
    const uri = uriOf(entry.path);
    try {
      if (findOpenDocument(uri)?.isDirty) {
        report.skipped.push({ path: entry.path, reason: 'unsaved changes in the editor' });
        continue;
      }
      const now = await currentText(uri);
      if (now !== undefined && now !== entry.after && !overwrite.includes(entry.path)) {
        report.skipped.push({ path: entry.path, reason: 'changed after the task edited it' });
        continue;
      }
      if (entry.before === undefined) {
        if (now !== undefined) {
          const edit = new vscode.WorkspaceEdit();
          edit.deleteFile(uri, { ignoreIfNotExists: true });
          if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused to delete the file');
        }
        report.deleted.push(entry.path);
      } else {
        if (now === undefined) {
          const edit = new vscode.WorkspaceEdit();
          edit.createFile(uri, { ignoreIfExists: true });
          await vscode.workspace.applyEdit(edit);
        }
        await replaceDocument(uri, entry.before);
        report.restored.push(entry.path);
      }
      journal.forget(entry.path);
    } catch (error) {
      report.skipped.push({ path: entry.path, reason: errorMessage(error) });
    }
  }
  return report;
}
