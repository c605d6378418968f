import { spawn } from 'node:child_process';
import { nodeChildEnvironment } from '../childEnv';

/** Where one shadow repository lives and which folder it snapshots. */
export interface GitPlaces {
  /** The `git` executable. */
  git: string;
  /** Our own bare repository (never the user's). */
  gitDir: string;
  /** Our own index file. */
  indexFile: string;
  /** The workspace folder. */
  workTree: string;
}

/** Raised when git exits non-zero; carries its stderr. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (exit ${code ?? 'signal'}): ${stderr.trim().split('\n').slice(-3).join(' ') || 'no message'}`);
    this.name = new.target.name;
  }
}

/**
 * Runs git against our repository only: `GIT_DIR`, `GIT_INDEX_FILE` and `GIT_WORK_TREE` are set
 * explicitly, the environment comes from the one builder's git mode (only the names git needs, no
 * inherited `GIT_*` but the config locations, no secrets, the neutral settings: no hooks, fsmonitor,
 * pager, credential helper or transport), and the user's global and system config are not read
 * (their hooks, excludes, filters and autocrlf must not change our snapshots). The workspace's own
 * `.git/config` is never read either, so a program it names never runs.
 * Resolves with stdout as bytes; rejects with `GitError` on a non-zero exit.
 */
export function runGit(places: GitPlaces, args: readonly string[], input?: Buffer | string, signal?: AbortSignal): Promise<Buffer> {
  const explicit: Record<string, string> = {
    GIT_DIR: places.gitDir,
    GIT_INDEX_FILE: places.indexFile,
    // `git init` refuses a work tree; every other command gets the workspace.
    ...(args[0] === 'init' ? {} : { GIT_WORK_TREE: places.workTree }),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_LITERAL_PATHSPECS: '1',
    LC_ALL: 'C',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(places.git, [...args], { cwd: places.workTree, env: nodeChildEnvironment({ kind: 'git', explicit }), stdio: ['pipe', 'pipe', 'pipe'], signal });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (err += chunk.slice(0, 4000)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new GitError(args, code, err))));
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** Splits NUL-separated output into its non-empty fields. */
export function nulFields(output: Buffer): string[] {
  return output.toString('utf8').split('\0').filter((f) => f !== '');
}
