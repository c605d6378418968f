import { nodeChildEnvironment } from '../childEnv';
import { neutralRepositorySettings, parseConfigList } from './repositoryConfig';

/** What one git run gave back (never thrown: a failure is a value the caller turns into words). */
export interface GitOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * The git subcommands Stepwise may run on the user's repository, each with the flags that keep it
 * from starting a program the repository names (external diff and textconv have no inert config
 * value) or recursing into submodules with their own config. Anything else is refused.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  status: ['--ignore-submodules=all'],
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules=all'],
  'rev-parse': [],
  'ls-files': [],
};

/** Display settings (not security): paths as they are. */
const DISPLAY: readonly [string, string][] = [['core.quotepath', 'off']];

/** Options of one run. */
export interface NeutralGitOptions {
  signal: AbortSignal;
  /** Most bytes of output kept (execa's `maxBuffer`). */
  maxBuffer?: number;
}

/** Runs git with the one environment builder's git mode plus these settings. */
async function run(root: string, args: readonly string[], settings: readonly (readonly [string, string])[], options: NeutralGitOptions): Promise<GitOutput> {
  // execa is ESM-only: loaded on first use, so CommonJS callers (the CLI bundle, tests) can import this file.
  const { execa } = await import('execa');
  try {
    const result = await execa('git', ['--no-pager', ...args], {
      cwd: root, cancelSignal: options.signal, reject: false, stdin: 'ignore', maxBuffer: options.maxBuffer ?? 10_000_000,
      env: nodeChildEnvironment({ kind: 'git', gitConfig: settings }),
      extendEnv: false,
    });
    return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
  } catch (error) {
    return { exitCode: -1, stdout: '', stderr: error instanceof Error ? error.message : String(error) };
  }
}

/** A git of the user's repository whose configuration cannot start a program (see `openNeutralGit`). */
export type NeutralGit = (subcommand: string, args: readonly string[]) => Promise<GitOutput>;

/**
 * Opens git on the user's repository at `root` with a neutral configuration: the repository's config
 * (and every file it includes) is read once — reading config starts no program — and every name in
 * it that could start a program is overridden at command scope, on top of the fixed neutral settings
 * and variables of `childEnvironment`'s git mode (no fsmonitor, hooks, pager, credential helper,
 * transport). The user's system and global config stay. Only read-only subcommands are allowed.
 * Fails (as a value) when the config cannot be read: no git runs on a config we could not check.
 */
export async function openNeutralGit(root: string, options: NeutralGitOptions): Promise<{ ok: true; git: NeutralGit } | { ok: false; reason: string }> {
  const listed = await run(root, ['config', '-z', '--list', '--show-scope', '--includes'], DISPLAY, options);
  if (listed.exitCode !== 0) return { ok: false, reason: `git config could not be read: ${listed.stderr.split('\n')[0] || 'git is not available'}` };
  const settings = [...DISPLAY, ...neutralRepositorySettings(parseConfigList(listed.stdout))];
  const git: NeutralGit = async (subcommand, args) => {
    const flags = Object.hasOwn(ALLOWED, subcommand) ? ALLOWED[subcommand] : undefined;
    if (!flags) return { exitCode: -1, stdout: '', stderr: `git ${subcommand} is not one of the read-only commands Stepwise runs on a repository` };
    return run(root, [subcommand, ...flags, ...args], settings, options);
  };
  return { ok: true, git };
}
