import * as vscode from 'vscode';
import type { UndoReport } from '../editor/undoTaskEdits';
import { withAttachedSection } from '../../../shared/attachedContext';

/** An editor selection handed to a task as context. */
export interface SelectionContext {
  path: string;
  languageId: string;
  startLine: number;
  endLine: number;
  text: string;
}

/** The task text of "Run Task on Selection": the instruction, then the selection and where it is from. */
export function selectionTask(instruction: string, selection: SelectionContext): string {
  const longest = Math.max(2, ...Array.from(selection.text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  // Attached context, as @-mentions are: the views show the instruction (and its title), the model the selection.
  const body = [`The user selected lines ${selection.startLine}-${selection.endLine} of \`${selection.path}\`:`, `${fence}${selection.languageId}`, selection.text, fence].join('\n');
  return withAttachedSection(`${instruction}\n\n(${selectionNote(selection)})`, 'selection', body);
}

/** The line the user's own message keeps about the selection it carries. */
function selectionNote(selection: SelectionContext): string {
  return `selection: ${selection.path}:${selection.startLine}-${selection.endLine}`;
}

/** A one-line summary of an undo for a notification; `warning` when some files were left alone. */
export function describeUndo(report: UndoReport): { message: string; warning: boolean } {
  const parts = [vscode.l10n.t('Restored {0} file(s), deleted {1} created file(s).', report.restored.length, report.deleted.length)];
  if (report.skipped.length) {
    parts.push(vscode.l10n.t('Left alone: {0}', report.skipped.map((s) => `${s.path} (${s.reason})`).join(', ')));
  }
  return { message: parts.join(' '), warning: report.skipped.length > 0 };
}
