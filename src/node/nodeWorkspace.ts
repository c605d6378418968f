import { constants, realpathSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry, FileRange, FileStat, SearchQuery, SearchResult, Workspace } from '../agent/ports';
import {
  CancelledError,
  FileNotFoundError,
  InvalidPatternError,
  StepwiseError,
  ToolError,
  isCancellation,
  throwIfAborted,
} from '../agent/errors';
import { atomicWrite, cleanStaleTemps } from './atomicWrite';
import { findExecutable } from './findExecutable';
import { IgnoreRules, STEPWISE_IGNORE_FILE } from './ignoreRules';
import { listEntries } from './listEntries';
import { PathGuard, type GuardedPath } from './pathGuard';
import { searchWithJs } from './search/jsSearch';
import { searchWithRipgrep } from './search/ripgrepSearch';
import { compilePattern, compileScopeGlob, type SearchScope } from './search/searchCommon';

/** Bytes per read of `readChunks` (few round trips to the thread pool; two such buffers per scan). */
const CHUNK_BYTES = 4 << 20;

/** A failed read as the error the model sees (cancellation stays cancellation). */
function readFailure(error: unknown, input: string, target: GuardedPath, signal: AbortSignal | undefined): Error {
  if (error instanceof ToolError || error instanceof CancelledError) return error;
  if (isCancellation(error) || signal?.aborted) return new CancelledError();
  if (isMissing(error)) return new FileNotFoundError(`File not found: ${JSON.stringify(input)}. Use list_files to see which files exist.`);
  if ((error as NodeJS.ErrnoException).code === 'EISDIR') {
    return new ToolError(`${JSON.stringify(input)} is a folder, not a file. Use list_files to see what it contains.`);
  }
  return fsToolError(error, 'read', target);
}

/** Which search engine runs: ripgrep when on PATH (`auto`), or one forced (tests, benches). */
export type SearchEngineChoice = 'auto' | 'ripgrep' | 'js';

/** Options of `NodeWorkspace`. */
export interface NodeWorkspaceOptions {
  search?: SearchEngineChoice;
  /** ripgrep executable; default `rg` found on PATH. */
  rgPath?: string;
  /** ripgrep to use when `rg` is not on PATH (e.g. the one VS Code ships). */
  rgFallbackPath?: string;
  /** The JS search's worker script (default `search-worker.js` beside the bundle); benches run from source point it at the built one. */
  searchWorker?: string;
}

/** Where interrupted writes leave their temporary files (cleaned when a workspace starts). */
export const TEMP_DIR = '.stepwise/tmp';

/**
 * The agent's `Workspace` on the local file system, confined to one folder (its realpath):
 * every path goes through `PathGuard` first, writes are atomic, listings and searches honour
 * `.gitignore` (nested too), `.ignore`, `.rgignore` and the root `.stepwiseignore`, and skip `.git`.
 */
export class NodeWorkspace implements Workspace {
  readonly root: string;
  private readonly guard: PathGuard;
  private readonly search: SearchEngineChoice;
  private rgPath: Promise<string | undefined> | undefined;
  private readonly rgFallbackPath: string | undefined;
  private readonly searchWorker: string | undefined;
  private readonly tempDir: string;
  /** How many temporary files of writes killed mid-way were removed when this workspace started. */
  readonly staleTempsRemoved: number;

  /** Throws when `root` does not exist (a setup bug, not something the model can fix). */
  constructor(root: string, options: NodeWorkspaceOptions = {}) {
    const given = path.resolve(root);
    this.root = realpathSync(given);
    this.guard = new PathGuard(this.root, given === this.root ? [] : [given]);
    this.search = options.search ?? 'auto';
    if (options.rgPath) this.rgPath = Promise.resolve(options.rgPath);
    this.rgFallbackPath = options.rgFallbackPath;
    this.searchWorker = options.searchWorker;
    this.tempDir = path.join(this.root, ...TEMP_DIR.split('/'));
    this.staleTempsRemoved = cleanStaleTemps(this.tempDir);
  }

  /** Workspace-relative POSIX path (`''` for the root), or throws `PathOutsideWorkspaceError`. */
  async resolve(input: string): Promise<string> {
    return (await this.guard.resolve(input)).rel;
  }

  /** `undefined` when nothing exists at the path. */
  async stat(input: string): Promise<FileStat | undefined> {
    const target = await this.guard.resolve(input);
    try {
      const info = await stat(target.real);
      const kind = info.isDirectory() ? 'dir' : info.isFile() ? 'file' : 'other';
      return { kind, size: info.size, mtimeMs: info.mtimeMs, ...(kind === 'file' && (info.mode & 0o222) === 0 ? { readonly: true } : {}) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw fsToolError(error, 'read', target);
    }
  }

  /** The file's bytes; `FileNotFoundError` when missing, `ToolError` for a folder or a FIFO, socket or device. */
  async readFile(input: string, signal?: AbortSignal): Promise<Uint8Array> {
    return this.withRegularFile(input, signal, (handle) => handle.readFile({ signal }));
  }

  /** `length` bytes from `offset`, reading only those (any file size); same refusals as `readFile`. */
  async readRange(input: string, range: { offset: number; length: number }, signal?: AbortSignal): Promise<FileRange> {
    return this.withRegularFile(input, signal, async (handle, info) => {
      const offset = Math.max(0, Math.floor(range.offset));
      const length = Math.max(0, Math.min(Math.floor(range.length), info.size - offset));
      const bytes = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        throwIfAborted(signal);
        const { bytesRead } = await handle.read(bytes, filled, length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { bytes: bytes.subarray(0, filled), size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
    });
  }

  /**
   * The file from `offset` on in 4 MB reads through one open handle, the next read already under
   * way while the caller works on a chunk (the disk and the caller's counting overlap, and the
   * kernel's read-ahead sees one sequential reader). Two buffers take turns, so a chunk's bytes
   * are valid until the caller asks for the chunk after the next; no memory is mapped and zeroed
   * per chunk. Same refusals as `readFile`.
   */
  async *readChunks(input: string, offset: number, signal?: AbortSignal): AsyncIterable<FileRange> {
    const { handle, info, target } = await this.openRegular(input, signal);
    const size = Math.min(CHUNK_BYTES, info.size);
    const buffers = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
    let turn = 0;
    const readAt = async (at: number) => {
      const bytes = buffers[turn++ % 2]!;
      const { bytesRead } = await handle.read(bytes, 0, Math.min(bytes.length, info.size - at), at);
      return bytes.subarray(0, bytesRead);
    };
    let at = Math.max(0, Math.floor(offset));
    let pending = at < info.size ? readAt(at) : undefined;
    try {
      while (pending) {
        const bytes = await pending;
        if (bytes.length === 0) break;
        at += bytes.length;
        throwIfAborted(signal);
        pending = at < info.size ? readAt(at) : undefined;
        yield { bytes, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
      }
    } catch (error) {
      throw readFailure(error, input, target, signal);
    } finally {
      // A read still under way when the caller stopped ends before its handle closes.
      await pending?.catch(() => undefined);
      await handle.close();
    }
  }

  /**
   * Opens the file without blocking (a FIFO with no writer would otherwise hang `open`) and
   * checks it is a regular file before `read` runs; errors become the tool errors the model sees.
   */
  private async withRegularFile<T>(input: string, signal: AbortSignal | undefined, read: (handle: FileHandle, info: Stats) => Promise<T>): Promise<T> {
    const { handle, info, target } = await this.openRegular(input, signal);
    try {
      return await read(handle, info);
    } catch (error) {
      throw readFailure(error, input, target, signal);
    } finally {
      await handle.close();
    }
  }

  /** The open, checked regular file (closed again when the check fails); errors as in `readFailure`. */
  private async openRegular(input: string, signal: AbortSignal | undefined): Promise<{ handle: FileHandle; info: Stats; target: GuardedPath }> {
    const target = await this.guard.resolve(input);
    throwIfAborted(signal);
    let handle: FileHandle | undefined;
    try {
      handle = await open(target.real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      const info = await handle.stat();
      if (info.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
      if (!info.isFile()) throw new ToolError(`${JSON.stringify(input)} is ${specialKind(info)}, not a regular file; only regular files can be read.`);
      return { handle, info, target };
    } catch (error) {
      await handle?.close();
      throw readFailure(error, input, target, signal);
    }
  }

  /** Atomic replace (see `atomicWrite`); writes through an inside symlink to its target. */
  async writeFile(input: string, content: string, signal?: AbortSignal): Promise<void> {
    const target = await this.guard.resolve(input);
    throwIfAborted(signal);
    const existing = target.rel === '' ? undefined : await stat(target.real).catch(() => undefined);
    if (target.rel === '' || existing?.isDirectory()) {
      throw new ToolError(`${JSON.stringify(input)} is a folder; give the path of a file to write.`);
    }
    if (existing && !existing.isFile()) {
      throw new ToolError(`${JSON.stringify(input)} is ${specialKind(existing)}, not a regular file; it was not written.`);
    }
    try {
      await atomicWrite(target.real, content, signal, { tempDir: this.tempDir });
    } catch (error) {
      if (isCancellation(error)) throw error;
      throw fsToolError(error, 'write', target);
    }
  }

  /** Lists a folder (see `listEntries`); `FileNotFoundError` when it does not exist. */
  async listFiles(
    input: string,
    options: { recursive: boolean; limit: number; signal?: AbortSignal },
  ): Promise<{ entries: FileEntry[]; truncated: boolean }> {
    const target = await this.guard.resolve(input);
    throwIfAborted(options.signal);
    const info = await stat(target.real).catch(() => undefined);
    if (!info) {
      throw new FileNotFoundError(`Folder not found: ${JSON.stringify(input)}. List the workspace root ("." ) to see what exists.`);
    }
    if (!info.isDirectory()) return { entries: [{ path: target.rel, kind: 'file' }], truncated: false };
    return listEntries({
      root: this.root,
      folderRel: target.rel,
      recursive: options.recursive,
      limit: options.limit,
      rules: new IgnoreRules(this.root),
      signal: options.signal,
    });
  }

  /**
   * Regex search with ripgrep or the JS engine (same results, see `engine`). `InvalidPatternError`
   * for a bad regex, `ToolError` for a bad glob, `FileNotFoundError` for a missing `path`.
   */
  async searchFiles(query: SearchQuery, signal?: AbortSignal): Promise<SearchResult> {
    const regex = compilePattern(query.pattern);
    const target = await this.guard.resolve(query.path ?? '.');
    throwIfAborted(signal);
    const info = await stat(target.real).catch(() => undefined);
    if (!info) {
      throw new FileNotFoundError(`Nothing to search at ${JSON.stringify(query.path)}. Use list_files to see which paths exist.`);
    }
    if (!info.isDirectory() && !info.isFile()) {
      // ripgrep and the JS engine would both block reading a FIFO with no writer.
      throw new ToolError(`${JSON.stringify(query.path)} is ${specialKind(info)}, not a regular file or folder; it cannot be searched.`);
    }
    const scope: SearchScope = {
      rel: target.rel,
      isFile: !info.isDirectory(),
      glob: query.glob?.trim() || undefined,
      compiledGlob: compileScopeGlob(query.glob),
    };
    const contextLines = Math.max(0, Math.floor(query.contextLines));
    const maxMatches = Math.max(0, Math.floor(query.maxMatches));
    const runJs = () =>
      searchWithJs({
        root: this.root, scope, regex, contextLines, maxMatches, rules: new IgnoreRules(this.root), signal,
        ...(this.searchWorker ? { workerScript: this.searchWorker } : {}),
      });
    if (this.search === 'js') return runJs();

    const rgPath = await this.findRipgrep();
    if (!rgPath) {
      if (this.search === 'ripgrep') throw new StepwiseError('ripgrep was requested but `rg` is not on PATH.');
      return runJs();
    }
    const stepwiseIgnore = await stat(path.join(this.root, STEPWISE_IGNORE_FILE)).catch(() => undefined);
    try {
      return await searchWithRipgrep({
        rgPath,
        root: this.root,
        scope,
        pattern: query.pattern,
        contextLines,
        maxMatches,
        stepwiseIgnoreFile: stepwiseIgnore?.isFile() ? STEPWISE_IGNORE_FILE : undefined,
        signal,
      });
    } catch (error) {
      // JS accepted the pattern, so features rg lacks (look-around, back-references) still work.
      if (error instanceof InvalidPatternError && this.search === 'auto') return runJs();
      throw error;
    }
  }

  private findRipgrep(): Promise<string | undefined> {
    this.rgPath ??= findExecutable('rg').then((found) => found ?? this.rgFallbackPath);
    return this.rgPath;
  }
}

/** "a FIFO", "a socket", "a device" — what a non-regular file is, for messages. */
export function specialKind(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'a special file';
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** File-system failures the model can react to (permissions, full disk...) as tool errors. */
function fsToolError(error: unknown, action: 'read' | 'write', target: GuardedPath): ToolError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = error instanceof Error ? error.message : String(error);
  const shown = target.rel === '' ? '.' : target.rel;
  return new ToolError(`Could not ${action} ${JSON.stringify(shown)}${code ? ` (${code})` : ''}: ${reason}`, { cause: error });
}
