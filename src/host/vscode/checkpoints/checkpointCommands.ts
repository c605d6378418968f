import * as vscode from 'vscode';
import type { Checkpoint, CheckpointStore } from '../../../agent/checkpoints/checkpointTypes';
import { planRestore, restoreCheckpoint, type FileChoice } from '../../../agent/checkpoints/restoreCheckpoint';
import { errorMessage } from '../../../agent/errors';
import type { Logger } from '../../../agent/ports';
import { openGitCheckpointStore, readTaskInfo } from '../../../node/checkpoints/gitCheckpointStore';
import type { HistoryStore } from '../../../node/historyStore';
import { findOpenDocument } from '../editor/vscodeWorkspace';
import type { UndoGuard, UndoReport } from '../editor/undoTaskEdits';

/** The URI scheme of a file's content in a checkpoint (read-only documents for diffs). */
export const CHECKPOINT_SCHEME = 'stepwise-checkpoint';

/** What the checkpoint commands need from the extension. */
export interface CheckpointCommandDeps {
  /** The checkpoint store's folder (the extension's storage). */
  home: string;
  folder: () => vscode.WorkspaceFolder | undefined;
  history: HistoryStore;
  logger: Logger;
}

async function storeOf(deps: CheckpointCommandDeps, runId: string): Promise<{ store: CheckpointStore; root: vscode.Uri } | undefined> {
  const folder = deps.folder();
  const info = await readTaskInfo(deps.home, runId).catch(() => undefined);
  if (!folder || !info) {
    void vscode.window.showWarningMessage(vscode.l10n.t('This task has no checkpoints.'));
    return undefined;
  }
  const setup = await openGitCheckpointStore({ home: deps.home, workspace: info.workspace, taskId: runId });
  if (!setup.store) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Checkpoints are off: {0}', setup.offReason ?? ''));
    return undefined;
  }
  // Opening the store rolled back a restore a crash had interrupted: the files are as before it.
  if (setup.recovered) void vscode.window.showWarningMessage(vscode.l10n.t('Stepwise: {0}', setup.recovered));
  return { store: setup.store, root: vscode.Uri.file(info.workspace) };
}

/** Serves `stepwise-checkpoint:` documents: the content of one file in one snapshot of one task. */
export function registerCheckpointContent(deps: CheckpointCommandDeps): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
    async provideTextDocumentContent(uri) {
      const { runId, tree } = JSON.parse(uri.query) as { runId: string; tree: string };
      const opened = await storeOf(deps, runId);
      const bytes = opened ? await opened.store.readFile(tree, uri.path.replace(/^\//, '')) : undefined;
      return bytes ? new TextDecoder().decode(bytes) : '';
    },
  });
}

/** The checkpoint that closes what `cp` started: the next step's (or the end) for a step, the next one for a tool call. */
function nextOf(list: readonly Checkpoint[], cp: Checkpoint): Checkpoint | undefined {
  const after = list.slice(list.indexOf(cp) + 1);
  if (cp.kind === 'step') return after.find((c) => c.kind === 'step' || c.kind === 'task_end') ?? after.at(-1);
  return after[0];
}

/** Opens a multi-file diff of what changed from checkpoint `checkpointId` to the one that closes it. */
export async function showCheckpointChanges(deps: CheckpointCommandDeps, runId: string, checkpointId: string): Promise<void> {
  const opened = await storeOf(deps, runId);
  if (!opened) return;
  const list = await opened.store.list();
  const cp = list.find((c) => c.id === checkpointId);
  const next = cp && nextOf(list, cp);
  if (!cp || !next) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Nothing changed after this checkpoint yet.'));
    return;
  }
  const changes = await opened.store.changes(cp.tree, next.tree);
  if (!changes.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No files changed here.'));
    return;
  }
  const side = (tree: string, path: string) => vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${path}`, query: JSON.stringify({ runId, tree }) });
  const resources = changes.map((c) => [vscode.Uri.joinPath(opened.root, c.path), side(cp.tree, c.path), side(next.tree, c.path)]);
  const title = cp.kind === 'step' ? vscode.l10n.t('Changes of step {0}', cp.stepNumber ?? '?') : vscode.l10n.t('Changes of {0}', cp.tool ?? cp.id);
  await vscode.commands.executeCommand('vscode.changes', title, resources);
}

/**
 * Restores a task to a checkpoint: asks what to restore (files, conversation, both), then puts the
 * files back all or nothing. Unsaved editors block it; files the user changed since the task's last
 * checkpoint are listed one by one (keep mine / take the checkpoint's). The restore itself is a
 * checkpoint, offered as "Undo restore". Returns true when something was restored.
 */
export async function restoreToCheckpoint(deps: CheckpointCommandDeps, runId: string, checkpointId: string, mode?: 'files' | 'conversation' | 'both'): Promise<boolean> {
  const opened = await storeOf(deps, runId);
  if (!opened) return false;
  const target = (await opened.store.list()).find((c) => c.id === checkpointId);
  if (!target) return false;
  const what = mode ?? (await askMode());
  if (!what) return false;
  if (what !== 'conversation' && !(await restoreFiles(opened.store, opened.root, runId, target, deps))) return false;
  if (what !== 'files') {
    const meta = ((await deps.history.readSidecar(runId, 'meta')) ?? {}) as Record<string, unknown>;
    await deps.history.writeSidecar(runId, 'meta', { ...meta, cutAtSeq: target.seq ?? 0 });
  }
  return true;
}

async function askMode(): Promise<'files' | 'conversation' | 'both' | undefined> {
  const picks = [
    { label: vscode.l10n.t('Files and conversation'), value: 'both' as const },
    { label: vscode.l10n.t('Files only'), value: 'files' as const },
    { label: vscode.l10n.t('Conversation only'), value: 'conversation' as const },
  ];
  return (await vscode.window.showQuickPick(picks, { title: vscode.l10n.t('Restore what?') }))?.value;
}

async function restoreFiles(store: CheckpointStore, root: vscode.Uri, runId: string, target: Checkpoint, deps: CheckpointCommandDeps): Promise<boolean> {
  const choices: Record<string, FileChoice> = {};
  const blocked = async (paths: readonly string[]) => paths.filter((p) => findOpenDocument(vscode.Uri.joinPath(root, p))?.isDirty);
  for (;;) {
    const result = await restoreCheckpoint(store, { target, choices, blocked, now: Date.now() });
    if (result.ok) {
      const undo = vscode.l10n.t('Undo restore');
      await syncOpenDocuments(root, result.changed.map((c) => c.path));
      void vscode.window.showInformationMessage(vscode.l10n.t('Restored {0} file(s) to checkpoint {1}.', result.changed.length, target.id), undo).then(async (answer) => {
        if (answer === undo) await restoreToCheckpoint(deps, runId, result.before.id, 'files');
      });
      return true;
    }
    if (result.reason === 'blocked') {
      void vscode.window.showWarningMessage(vscode.l10n.t('Save or revert these files first; nothing was restored: {0}', result.blocked.join(', ')));
      return false;
    }
    if (result.reason === 'failed') {
      deps.logger.error(`restore of ${runId} to ${target.id} failed: ${result.message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Nothing was restored: {0}', result.message));
      return false;
    }
    for (const path of result.conflicts) {
      const mine = vscode.l10n.t('Keep mine');
      const theirs = vscode.l10n.t("Take the checkpoint's version");
      const answer = await vscode.window.showWarningMessage(vscode.l10n.t('You changed {0} after the task. Keep your version?', path), { modal: true }, mine, theirs);
      if (!answer) return false;
      choices[path] = answer === mine ? 'mine' : 'checkpoint';
    }
  }
}

/**
 * "Undo This Task's Edits" over checkpoints: restores the task's start once the user said so.
 * Files the user changed since Stepwise last wrote them (the task, or a later restore / undo of a
 * restore) are named in the question and kept unless the user chose to undo them too; files with
 * unsaved changes are left alone. Every file left alone is in the report, with why. `undefined`
 * when the task has no start checkpoint.
 */
export async function undoFromCheckpoints(deps: CheckpointCommandDeps, runId: string, guard: UndoGuard): Promise<UndoReport | 'declined' | undefined> {
  const opened = await storeOf(deps, runId);
  const target = (await opened?.store.list())?.find((c) => c.kind === 'task_start');
  if (!opened || !target) return undefined;
  const plan = await planRestore(opened.store, target, guard.keep);
  if (plan.wanted.length === 0) return { restored: [], deleted: [], skipped: [] };
  const answer = await guard.ask(plan.wanted.map((c) => c.path), plan.userChanged);
  if (!answer) return 'declined';
  const unsaved = plan.wanted.map((c) => c.path).filter((p) => findOpenDocument(vscode.Uri.joinPath(opened.root, p))?.isDirty);
  const skip = [...unsaved, ...guard.keep];
  const mine = (paths: readonly string[]) => Object.fromEntries(paths.map((p) => [p, answer === 'take-all' ? ('checkpoint' as const) : ('mine' as const)]));
  let result = await restoreCheckpoint(opened.store, { target, skip, choices: mine(plan.userChanged), now: Date.now() });
  // A file the user changed between the question and now was not in the question: it is kept.
  if (!result.ok && result.reason === 'conflict') {
    const late = Object.fromEntries(result.conflicts.map((p) => [p, 'mine' as const]));
    result = await restoreCheckpoint(opened.store, { target, skip, choices: { ...mine(plan.userChanged), ...late }, now: Date.now() });
  }
  if (!result.ok) throw new Error(result.reason === 'failed' ? result.message : `cannot restore ${result.reason === 'blocked' ? result.blocked.join(', ') : result.conflicts.join(', ')}`);
  await syncOpenDocuments(opened.root, result.changed.map((c) => c.path));
  return {
    restored: result.changed.filter((c) => c.status !== 'deleted').map((c) => c.path),
    deleted: result.changed.filter((c) => c.status === 'deleted').map((c) => c.path),
    skipped: [
      ...result.kept.map((path) => ({ path, reason: vscode.l10n.t('you changed it after the task; your version is kept') })),
      ...unsaved.map((path) => ({ path, reason: vscode.l10n.t('unsaved changes in the editor') })),
    ],
  };
}

/** Waits (briefly) until open editors of restored files show what is on disk now. */
async function syncOpenDocuments(root: vscode.Uri, paths: readonly string[]): Promise<void> {
  const end = Date.now() + 3_000;
  for (const rel of paths) {
    const uri = vscode.Uri.joinPath(root, rel);
    const doc = findOpenDocument(uri);
    if (!doc || doc.isDirty) continue;
    const disk = await vscode.workspace.fs.readFile(uri).then((b) => new TextDecoder().decode(b), () => undefined);
    if (disk === undefined) continue;
    while (doc.getText() !== disk && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    if (doc.getText() !== disk) await vscode.commands.executeCommand('workbench.action.files.revert', uri);
  }
}

/** The first checkpoint of a task (its start), if it has checkpoints. */
export async function taskStartCheckpoint(deps: CheckpointCommandDeps, runId: string): Promise<string | undefined> {
  if (!(await readTaskInfo(deps.home, runId).catch(() => undefined))) return undefined;
  const opened = await storeOf(deps, runId);
  return (await opened?.store.list())?.find((c) => c.kind === 'task_start')?.id;
}

/** Registers the checkpoint commands the task panel's buttons run (`stepwise.showChanges`, `stepwise.restoreCheckpoint`). */
export function registerCheckpointCommands(deps: CheckpointCommandDeps): vscode.Disposable[] {
  const guard = (run: (runId: string, checkpointId: string, mode?: 'files' | 'conversation' | 'both') => Promise<unknown>) => async (runId: unknown, checkpointId: unknown, mode?: unknown) => {
    if (typeof runId !== 'string' || typeof checkpointId !== 'string') return undefined;
    try {
      return await run(runId, checkpointId, mode === 'files' || mode === 'conversation' || mode === 'both' ? mode : undefined);
    } catch (error) {
      deps.logger.error('checkpoint command failed', error);
      void vscode.window.showErrorMessage(vscode.l10n.t('Stepwise: {0}', errorMessage(error)));
      return undefined;
    }
  };
  return [
    registerCheckpointContent(deps),
    vscode.commands.registerCommand('stepwise.showChanges', guard((runId, id) => showCheckpointChanges(deps, runId, id))),
    vscode.commands.registerCommand('stepwise.restoreCheckpoint', guard((runId, id, mode) => restoreToCheckpoint(deps, runId, id, mode))),
  ];
}
