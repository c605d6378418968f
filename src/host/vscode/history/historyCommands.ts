import path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../../agent/ports';
import { removeTaskCheckpoints } from '../../../node/checkpoints/pruneCheckpoints';
import { renderHistoryExport, type HistoryExportFormat } from '../../../node/historyExport';
import type { HistoryPruneSettings } from '../../../node/historyRules';
import type { HistoryStore } from '../../../node/historyStore';
import type { HistoryEntry } from '../../../shared/webviewProtocol';
import { taskTitle } from '../../../shared/taskTitle';

/** What the history commands act on. */
export interface HistoryCommandDeps {
  history: HistoryStore;
  /** Where checkpoints live (`undefined`: none to remove). */
  checkpointsHome?: string;
  logger: Logger;
  /** The run that is running now, if any: never deleted or pruned. */
  runningRunId: () => string | undefined;
  /** The run the views show; deleting it shows the history instead. */
  shownRunId: () => string | undefined;
  clearShown: () => void;
  /** Recomputes the webviews' status (the history list). */
  refresh: () => void;
  /** Answers the sidebar's search box. */
  sendSearchResults: (query: string, entries: readonly HistoryEntry[]) => void;
  /** Where an export is offered to be saved first (the workspace folder). */
  defaultFolder: () => vscode.Uri | undefined;
}

/** Options of the delete command: `confirmed` skips the question (tests, other extensions that asked already). */
export interface DeleteOptions {
  confirmed?: boolean;
}

/** Asks which stored run to act on (the palette gives no id). */
async function pickRun(deps: HistoryCommandDeps, title: string): Promise<HistoryEntry | undefined> {
  const entries = await deps.history.list(200);
  if (!entries.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No Stepwise tasks yet.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    entries.map((entry) => ({ label: taskTitle(entry.task, 120) || vscode.l10n.t('Untitled'), description: entry.outcome ?? vscode.l10n.t('running or interrupted'), detail: new Date(entry.ts).toLocaleString(), entry })),
    { title, placeHolder: vscode.l10n.t('Pick a task') },
  );
  return picked?.entry;
}

async function entryOf(deps: HistoryCommandDeps, runId: string): Promise<HistoryEntry | undefined> {
  return (await deps.history.list(Number.MAX_SAFE_INTEGER)).find((entry) => entry.runId === runId);
}

/**
 * Deletes a stored run after the user confirms: its events and side files, and its checkpoints'
 * list and refs (the workspace's files are not touched). Refuses the running run. True when deleted.
 */
export async function deleteHistoryRun(deps: HistoryCommandDeps, runIdArg?: unknown, options: DeleteOptions = {}): Promise<boolean> {
  const entry = typeof runIdArg === 'string' ? await entryOf(deps, runIdArg) : await pickRun(deps, vscode.l10n.t('Stepwise: Delete Task from History'));
  if (!entry) {
    if (typeof runIdArg === 'string') void vscode.window.showWarningMessage(vscode.l10n.t('This task is not in the history (any more).'));
    return false;
  }
  if (deps.runningRunId() === entry.runId) {
    void vscode.window.showWarningMessage(vscode.l10n.t('This task is running. Stop it before deleting it.'));
    return false;
  }
  if (!options.confirmed) {
    const remove = vscode.l10n.t('Delete');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete the task "{0}" from the history?', taskTitle(entry.task, 80)),
      { modal: true, detail: vscode.l10n.t('Its conversation, plan, report record and checkpoints are removed. Files in the workspace are not changed.') },
      remove,
    );
    if (answer !== remove) return false;
  }
  await deps.history.delete(entry.runId);
  if (deps.checkpointsHome) await removeTaskCheckpoints(deps.checkpointsHome, entry.runId).catch((error) => deps.logger.warn(`removing the checkpoints of ${entry.runId} failed`, error));
  deps.logger.info(`task ${entry.runId} deleted from the history`);
  if (deps.shownRunId() === entry.runId) deps.clearShown();
  deps.refresh();
  return true;
}

function formatOf(value: unknown): HistoryExportFormat | undefined {
  return value === 'markdown' || value === 'json' ? value : undefined;
}

/**
 * Exports a stored run as markdown (task, plan, summaries, commands with exit codes, result) or as
 * the stored JSON events, to a file the user picks (or `target`, for tests). Returns the file path.
 */
export async function exportHistoryRun(deps: HistoryCommandDeps, runIdArg?: unknown, formatArg?: unknown, target?: unknown): Promise<string | undefined> {
  const entry = typeof runIdArg === 'string' ? await entryOf(deps, runIdArg) : await pickRun(deps, vscode.l10n.t('Stepwise: Export Task from History'));
  if (!entry) {
    if (typeof runIdArg === 'string') void vscode.window.showWarningMessage(vscode.l10n.t('This task is not in the history (any more).'));
    return undefined;
  }
  const format = formatOf(formatArg) ?? (await vscode.window.showQuickPick(
    [{ label: vscode.l10n.t('Markdown'), detail: vscode.l10n.t('The task, plan, step summaries, commands with exit codes and the result'), format: 'markdown' as const },
      { label: vscode.l10n.t('JSON'), detail: vscode.l10n.t('The stored events, exactly as recorded'), format: 'json' as const }],
    { title: vscode.l10n.t('Stepwise: Export Task from History') },
  ))?.format;
  if (!format) return undefined;
  const extension = format === 'json' ? 'json' : 'md';
  const name = `stepwise-task-${new Date(entry.ts).toISOString().slice(0, 19).replace(/[:T]/g, '-')}.${extension}`;
  const folder = deps.defaultFolder();
  const uri = target instanceof vscode.Uri ? target : typeof target === 'string' ? vscode.Uri.file(target) : await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Stepwise task'),
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    filters: format === 'json' ? { JSON: ['json'] } : { Markdown: ['md'] },
  });
  if (!uri) return undefined;
  const text = renderHistoryExport(await deps.history.read(entry.runId), format);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  deps.logger.info(`task ${entry.runId} exported as ${format} to ${uri.toString()}`);
  if (!(target instanceof vscode.Uri) && typeof target !== 'string') {
    const open = vscode.l10n.t('Open');
    void vscode.window.showInformationMessage(vscode.l10n.t('Stepwise: task exported to {0}.', path.basename(uri.path)), open).then((picked) => {
      if (picked === open) void vscode.window.showTextDocument(uri);
    });
  }
  return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

/** Answers the sidebar's history search (task, outcome, plan, summaries and report of every stored run). */
export async function searchHistory(deps: HistoryCommandDeps, query: string): Promise<void> {
  deps.sendSearchResults(query, await deps.history.search(query, 200));
}

/**
 * Removes old and oversized history (`stepwise.history.*`), never the running or shown run; at
 * start-up and after each run. Failures are logged. Returns the removed run ids.
 */
export async function pruneHistory(deps: HistoryCommandDeps, settings: HistoryPruneSettings): Promise<string[]> {
  const keep = new Set([deps.runningRunId(), deps.shownRunId()].filter((id): id is string => id !== undefined));
  try {
    const removed = await deps.history.prune(settings, Date.now(), keep);
    if (removed.length) {
      deps.logger.info(`history pruning removed ${removed.length} task(s) (max ${settings.maxAgeDays} days, ${settings.maxSizeMb} MB)`);
      deps.refresh();
    }
    return removed;
  } catch (error) {
    deps.logger.warn('history pruning failed', error);
    return [];
  }
}

/** Registers `stepwise.deleteHistoryEntry` (runId?, {confirmed}?) and `stepwise.exportHistoryEntry` (runId?, format?, target?). */
export function registerHistoryCommands(deps: HistoryCommandDeps): vscode.Disposable[] {
  const guarded = (id: string, run: (...args: unknown[]) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (error) {
        deps.logger.error(`command ${id} failed`, error);
        void vscode.window.showErrorMessage(vscode.l10n.t('Stepwise: {0}', error instanceof Error ? error.message : String(error)));
        return undefined;
      }
    });
  return [
    guarded('stepwise.deleteHistoryEntry', (runId, options) => deleteHistoryRun(deps, runId, (options ?? {}) as DeleteOptions)),
    guarded('stepwise.exportHistoryEntry', (runId, format, target) => exportHistoryRun(deps, runId, format, target)),
  ];
}
