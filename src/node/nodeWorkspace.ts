import { realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry, FileStat, SearchQuery, SearchResult, Workspace } from '../agent/ports';
import {
  CancelledError,
  FileNotFoundError,
  InvalidPatternError,
  StepwiseError,
  ToolError,
  isCancellation,
  throwIfAborted,
} from '../agent/errors';
import { atomicWrite } from './atomicWrite';
import { findExecutable } from './findExecutable';
import { IgnoreRules, STEPWISE_IGNORE_FILE } from './ignoreRules';
import { listEntries } from './listEntries';
import { PathGuard, type GuardedPath } from './pathGuard';
import { searchWithJs } from './search/jsSearch';
import { searchWithRipgrep } from './search/ripgrepSearch';
import { compilePattern, compileScopeGlob, type SearchScope } from './search/searchCommon';

/** Which search engine runs: ripgrep when on PATH (`auto`), or one forced (tests, benches). */
export type SearchEngineChoice = 'auto' | 'ripgrep' | 'js';

/** Options of `NodeWorkspace`. */
export interface NodeWorkspaceOptions {
  search?: SearchEngineChoice;
  /** ripgrep executable; default `rg` found on PATH. */
  rgPath?: string;
}

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

  /** Throws when `root` does not exist (a setup bug, not something the model can fix). */
  constructor(root: string, options: NodeWorkspaceOptions = {}) {
    const given = path.resolve(root);
    this.root = realpathSync(given);
    this.guard = new PathGuard(this.root, given === this.root ? [] : [given]);
    this.search = options.search ?? 'auto';
    if (options.rgPath) this.rgPath = Promise.resolve(options.rgPath);
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
      return { kind: info.isDirectory() ? 'dir' : 'file', size: info.size, mtimeMs: info.mtimeMs };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw fsToolError(error, 'read', target);
    }
  }

  /** The file's bytes; `FileNotFoundError` when missing, `ToolError` for a folder. */
  async readFile(input: string, signal?: AbortSignal): Promise<Uint8Array> {
    const target = await this.guard.resolve(input);
    throwIfAborted(signal);
    try {
      return await readFile(target.real, { signal });
    } catch (error) {
      if (isCancellation(error) || signal?.aborted) throw new CancelledError();
      if (isMissing(error)) {
        throw new FileNotFoundError(`File not found: ${JSON.stringify(input)}. Use list_files to see which files exist.`);
      }
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') {
        throw new ToolError(`${JSON.stringify(input)} is a folder, not a file. Use list_files to see what it contains.`);
      }
      throw fsToolError(error, 'read', target);
    }
  }

  /** Atomic replace (see `atomicWrite`); writes through an inside symlink to its target. */
  async writeFile(input: string, content: string, signal?: AbortSignal): Promise<void> {
    const target = await this.guard.resolve(input);
    throwIfAborted(signal);
    if (target.rel === '' || (await stat(target.real).catch(() => undefined))?.isDirectory()) {
      throw new ToolError(`${JSON.stringify(input)} is a folder; give the path of a file to write.`);
    }
    try {
      await atomicWrite(target.real, content, signal);
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
    const scope: SearchScope = {
      rel: target.rel,
      isFile: !info.isDirectory(),
      glob: query.glob?.trim() || undefined,
      compiledGlob: compileScopeGlob(query.glob),
    };
    const contextLines = Math.max(0, Math.floor(query.contextLines));
    const maxMatches = Math.max(0, Math.floor(query.maxMatches));
    const runJs = () =>
      searchWithJs({ root: this.root, scope, regex, contextLines, maxMatches, rules: new IgnoreRules(this.root), signal });
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
    this.rgPath ??= findExecutable('rg');
    return this.rgPath;
  }
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
