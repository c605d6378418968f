import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { PathOutsideWorkspaceError, ToolError } from '../agent/errors';
import { windowsPathProblem } from './windowsPaths';

/** A path confined to the workspace: `rel` for display and rules, `real` for the file system. */
export interface GuardedPath {
  /** Workspace-relative POSIX path as the caller named it (`''` is the root). */
  rel: string;
  /** Lexical absolute path under the workspace root (symlinks not followed). */
  abs: string;
  /** Absolute path with every existing symlink resolved; always inside the root. */
  real: string;
}

/** Linux's own limit on symlinks followed while resolving one path. */
const MAX_SYMLINKS = 40;
/** Linux's PATH_MAX: no longer absolute path can name a file, so longer input is refused before any file-system call. */
const MAX_PATH_CHARS = 4096;

/**
 * Confines model-given paths to one folder: relative paths (to the root) and absolute paths
 * inside it are accepted, everything that leaves it — `..`, absolute paths elsewhere, symlinks
 * whose target (or whose nearest existing ancestor's target) lies outside — is refused with
 * `PathOutsideWorkspaceError` before anything is read or written.
 */
export class PathGuard {
  /**
   * @param realRoot the workspace folder with symlinks resolved
   * @param aliases other absolute spellings of the same folder (e.g. the path before realpath)
   */
  constructor(
    readonly realRoot: string,
    private readonly aliases: readonly string[] = [],
  ) {}

  /** Resolves `input` or throws `PathOutsideWorkspaceError` / `ToolError` (NUL byte, symlink loop). */
  async resolve(input: string): Promise<GuardedPath> {
    if (input.includes('\0')) {
      throw new ToolError(`Path ${JSON.stringify(input)} contains a NUL byte; use a plain file path.`);
    }
    // Windows spellings that name something else than they seem (devices, streams, aliases) never reach the file system.
    const windowsProblem = process.platform === 'win32' ? windowsPathProblem(input) : undefined;
    if (windowsProblem) throw new ToolError(`Path ${JSON.stringify(input)} is refused on Windows: ${windowsProblem}. Give a plain path inside the workspace.`);
    const abs = this.lexical(input);
    if (abs.length > MAX_PATH_CHARS) {
      throw new ToolError(`Path ${JSON.stringify(input.slice(0, 80) + '…')} is ${abs.length} characters long; file systems accept at most ${MAX_PATH_CHARS}. Use a shorter path.`);
    }
    const real = await this.realpathLoose(input, abs, 0);
    if (!isInside(this.realRoot, real)) throw this.outside(input, `it resolves through a symlink to ${real}`);
    return { rel: toPosix(path.relative(this.realRoot, abs)), abs, real };
  }

  private lexical(input: string): string {
    const trimmed = input.trim() === '' ? '.' : input;
    let abs: string | undefined;
    if (path.isAbsolute(trimmed)) {
      const normal = path.resolve(trimmed);
      for (const base of [this.realRoot, ...this.aliases]) {
        if (isInside(base, normal)) {
          abs = path.join(this.realRoot, path.relative(base, normal));
          break;
        }
      }
      if (abs === undefined) throw this.outside(input, 'it is an absolute path elsewhere');
    } else {
      abs = path.resolve(this.realRoot, trimmed);
      if (!isInside(this.realRoot, abs)) throw this.outside(input, 'it climbs out with ".."');
    }
    return abs;
  }

  /**
   * `realpath` that tolerates a missing tail: the nearest existing ancestor is resolved and the
   * rest appended, and a dangling symlink is followed by hand (writing through it would create
   * its target, which may be outside). The ancestor is found by bisecting the components
   * (existence is monotone along a normalised path), so a path of n components costs O(log n)
   * `realpath` calls, not one per ancestor.
   */
  private async realpathLoose(input: string, p: string, depth: number): Promise<string> {
    if (depth > MAX_SYMLINKS) throw new ToolError(`Path ${JSON.stringify(input)} has too many levels of symbolic links.`);
    const whole = await tryRealpath(input, p);
    if (whole !== undefined) return whole;
    const { root } = path.parse(p);
    const parts = p.slice(root.length).split(path.sep).filter((part) => part !== '');
    let lo = 0;
    let loReal = (await tryRealpath(input, root)) ?? root;
    let hi = parts.length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const real = await tryRealpath(input, path.join(root, ...parts.slice(0, mid)));
      if (real === undefined) hi = mid;
      else [lo, loReal] = [mid, real];
    }
    const candidate = path.join(loReal, parts[lo] ?? '');
    const rest = parts.slice(lo + 1);
    let isLink = false;
    try {
      isLink = (await lstat(candidate)).isSymbolicLink();
    } catch {
      return path.join(candidate, ...rest);
    }
    if (!isLink) return path.join(candidate, ...rest);
    const target = await readlink(candidate);
    return this.realpathLoose(input, path.resolve(loReal, target, ...rest), depth + 1);
  }

  private outside(input: string, why: string): PathOutsideWorkspaceError {
    return new PathOutsideWorkspaceError(
      `Path ${JSON.stringify(input)} is outside the workspace (${why}). Only paths inside ${this.realRoot} may be used; give a path relative to the workspace root.`,
    );
  }
}

/** `realpath`, or `undefined` when the path (or a part of it) does not exist or is too long to exist. */
async function tryRealpath(input: string, p: string): Promise<string | undefined> {
  try {
    return await realpath(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new ToolError(`Path ${JSON.stringify(input)} has a symbolic link loop.`);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return undefined;
    throw error;
  }
}

/** True when `child` is `parent` or below it (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/** Native separators to `/`. */
export function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}
