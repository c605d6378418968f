import { openNeutralGit } from './git/neutralGit';

/** Most characters of a diff attached for `@changes`. */
const MAX_DIFF_CHARS = 200_000;

/**
 * The workspace's uncommitted changes as git shows them (`git status --short`, then the diff against
 * HEAD), or a reason when there is no repository or no git. Read-only; never asks git to prompt, and
 * runs git only through `openNeutralGit`, so the repository's config cannot start a program (both
 * shells call this: the CLI's and VS Code's mention resolvers).
 */
export async function gitChanges(root: string, signal: AbortSignal): Promise<{ ok: true; title: string; content: string } | { ok: false; reason: string }> {
  const opened = await openNeutralGit(root, { signal, maxBuffer: MAX_DIFF_CHARS * 4 });
  if (!opened.ok) return opened;
  const git = opened.git;
  const status = await git('status', ['--short']);
  if (status.exitCode !== 0) return { ok: false, reason: `git status failed: ${status.stderr.split('\n')[0] || 'git is not available'}` };
  if (status.stdout.trim() === '') return { ok: true, title: 'git changes', content: 'No uncommitted changes.' };
  const diff = await git('diff', ['HEAD', '--stat', '--patch']);
  const patch = diff.exitCode === 0 ? diff.stdout : (await git('diff', ['--stat', '--patch'])).stdout;
  const cut = patch.length > MAX_DIFF_CHARS ? `${patch.slice(0, MAX_DIFF_CHARS)}\n… (diff cut)` : patch;
  return { ok: true, title: 'git changes (status, then the diff against HEAD)', content: `${status.stdout.trimEnd()}\n\n${cut}`.trimEnd() };
}
