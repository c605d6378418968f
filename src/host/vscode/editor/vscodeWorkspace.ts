import * as vscode from 'vscode';
import { FileNotFoundError, throwIfAborted, ToolError } from '../../../agent/errors';
import type { FileEntry, FileRange, FileStat, SearchQuery, SearchResult, Workspace } from '../../../agent/ports';
import type { EditJournal } from '../../common/editor/editJournal';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The Workspace port inside VS Code. Paths are confined by `base` (the Node workspace on the same
 * folder), which also lists and searches. Reads prefer the open editor's text; writes go through a
 * `WorkspaceEdit` on the document (so Ctrl+Z undoes them) and are saved. A document with unsaved user
 * changes is never overwritten: the write fails with a ToolError the model can read.
 * Every write is recorded in the run's journal for "Undo this task's edits".
 */
export class VscodeWorkspace implements Workspace {
  constructor(
    private readonly base: Workspace,
    private readonly folderUri: vscode.Uri,
    private readonly journal: EditJournal,
  ) {}

  get root(): string {
    return this.base.root;
  }

  resolve(path: string): Promise<string> {
    return this.base.resolve(path);
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.base.stat(path);
  }

  listFiles(path: string, options: { recursive: boolean; limit: number; signal?: AbortSignal }): Promise<{ entries: FileEntry[]; truncated: boolean }> {
    return this.base.listFiles(path, options);
  }

  searchFiles(query: SearchQuery, signal?: AbortSignal): Promise<SearchResult> {
    return this.base.searchFiles(query, signal);
  }

  /** The URI of a workspace-relative path (as VS Code names it, so open documents match). */
  uriOf(relPath: string): vscode.Uri {
    return relPath ? vscode.Uri.joinPath(this.folderUri, ...relPath.split('/')) : this.folderUri;
  }

  async readFile(path: string, signal?: AbortSignal): Promise<Uint8Array> {
    throwIfAborted(signal);
    const rel = await this.base.resolve(path);
    // Only unsaved text comes from the editor: a saved file's bytes come from disk, exactly (the
    // editor's decoded text would hide an encoding the tools must not re-encode).
    const document = findOpenDocument(this.uriOf(rel));
    if (document?.isDirty) return encoder.encode(document.getText());
    return this.base.readFile(rel, signal);
  }

  /** A byte range: from the editor's text when it has unsaved changes, else from disk. */
  async readRange(path: string, range: { offset: number; length: number }, signal?: AbortSignal): Promise<FileRange> {
    throwIfAborted(signal);
    const rel = await this.base.resolve(path);
    const document = findOpenDocument(this.uriOf(rel));
    if (!document?.isDirty) return this.base.readRange(rel, range, signal);
    const bytes = encoder.encode(document.getText());
    // mtimeMs 0: the buffer changes at every keystroke, so nothing may be cached on it.
    return { bytes: bytes.subarray(range.offset, range.offset + range.length), size: bytes.length, mtimeMs: 0 };
  }

  /** The file from `offset` on, for whole-file scans: the editor's unsaved text in one chunk, else the disk's chunks. */
  async *readChunks(path: string, offset: number, signal?: AbortSignal): AsyncIterable<FileRange> {
    throwIfAborted(signal);
    const rel = await this.base.resolve(path);
    const document = findOpenDocument(this.uriOf(rel));
    if (document?.isDirty) {
      // The text is in memory already: one chunk (mtimeMs 0, so no index outlives the call).
      const bytes = encoder.encode(document.getText());
      if (offset < bytes.length) yield { bytes: bytes.subarray(offset), size: bytes.length, mtimeMs: 0 };
    } else if (this.base.readChunks) {
      yield* this.base.readChunks(rel, offset, signal);
    } else {
      for (let at = offset; ; ) {
        const chunk = await this.base.readRange(rel, { offset: at, length: 4 << 20 }, signal);
        if (chunk.bytes.length === 0) return;
        yield chunk;
        at += chunk.bytes.length;
      }
    }
  }

  async writeFile(path: string, content: string, signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal);
    const rel = await this.base.resolve(path);
    const uri = this.uriOf(rel);
    const open = findOpenDocument(uri);
    if (open?.isDirty) {
      throw new ToolError(
        `${rel}: the file has unsaved changes in the editor; it was not modified. Ask the user to save or revert the file, then try again.`,
      );
    }
    const stat = await this.base.stat(rel);
    if (stat?.kind === 'dir') throw new ToolError(`${rel} is a folder, not a file.`);
    const before = stat ? await this.currentText(rel, open) : undefined;
    throwIfAborted(signal);
    if (stat) await replaceDocument(uri, content);
    else await createDocument(uri, content);
    this.journal.record(rel, before, content);
  }

  private async currentText(rel: string, open: vscode.TextDocument | undefined): Promise<string> {
    if (open) return open.getText();
    try {
      return decoder.decode(await this.base.readFile(rel));
    } catch (error) {
      if (error instanceof FileNotFoundError) return '';
      throw error;
    }
  }
}

/** The open document at `uri`, if VS Code has one loaded. */
export function findOpenDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

/** Replaces a file's whole text through a WorkspaceEdit (undoable) and saves it. */
export async function replaceDocument(uri: vscode.Uri, content: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  // Checked again here, right before the edit: the user may have typed while the write waited.
  if (document.isDirty) {
    throw new ToolError(`${vscode.workspace.asRelativePath(uri)}: the file has unsaved changes in the editor; it was not modified. Ask the user to save or revert the file, then try again.`);
  }
  if (document.getText() === content) return;
  const edit = new vscode.WorkspaceEdit();
  const fullRange = document.validateRange(new vscode.Range(0, 0, document.lineCount, 0));
  edit.replace(uri, fullRange, content);
  if (!(await vscode.workspace.applyEdit(edit))) throw new ToolError(`VS Code refused the edit of ${vscode.workspace.asRelativePath(uri)}.`);
  if (!(await document.save())) throw new ToolError(`VS Code could not save ${vscode.workspace.asRelativePath(uri)}.`);
}

/** Creates a file (and its folders) through a WorkspaceEdit, with `content`, and saves it. */
export async function createDocument(uri: vscode.Uri, content: string): Promise<void> {
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(uri, { ignoreIfExists: true });
  if (content) edit.insert(uri, new vscode.Position(0, 0), content);
  if (!(await vscode.workspace.applyEdit(edit))) throw new ToolError(`VS Code refused to create ${vscode.workspace.asRelativePath(uri)}.`);
  const document = findOpenDocument(uri);
  if (document?.isDirty && !(await document.save())) throw new ToolError(`VS Code could not save ${vscode.workspace.asRelativePath(uri)}.`);
}
