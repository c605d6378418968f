import { mkdirSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { adoptFiles, workspaceId, workspaceStateFolder } from '../common/workspace/workspaceIdentity';
import { WorkspaceMemento } from './workspaceMemento';

/** Where Stepwise keeps what belongs to the open workspace, found by the workspace's identity. */
export interface WorkspacePlace {
  /** The folder for the workspace's history and reports (the window's storage when no folder is open). */
  folder: string;
  /** The task history's folder. */
  historyFolder: string;
  /** The workspace's remembered answers (confirmations, trust), shared by every window on the folder. */
  state: vscode.Memento;
}

/**
 * The workspace's place: with a folder open, under the global storage by `workspaceId` (history a
 * window kept in its own storage folder is copied in once, never over anything); with none, the
 * window's storage as before.
 */
export function workspacePlace(context: vscode.ExtensionContext, folder: string | undefined): WorkspacePlace {
  if (!folder) {
    const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
    return { folder: storage, historyFolder: path.join(storage, 'history'), state: context.workspaceState };
  }
  const id = workspaceId(folder);
  const place = workspaceStateFolder(context.globalStorageUri.fsPath, id);
  const historyFolder = path.join(place, 'history');
  return { folder: place, historyFolder, state: new WorkspaceMemento(context.globalState, context.workspaceState, id) };
}

/**
 * Copies the history this window kept in its own storage folder into the workspace's place, once
 * per file and never over one; synchronous, so the first history list already has it.
 */
export function adoptWindowHistory(context: vscode.ExtensionContext, place: WorkspacePlace): number {
  if (!context.storageUri) return 0;
  mkdirSync(place.historyFolder, { recursive: true });
  return adoptFiles(path.join(context.storageUri.fsPath, 'history'), place.historyFolder);
}
