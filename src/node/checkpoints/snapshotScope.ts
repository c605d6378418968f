import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInsideWorkspace } from '../../agent/checkpoints/checkpointPaths';

/** More written paths than this in one snapshot: the whole tree is looked at instead (argv stays short). */
export const MAX_SCOPED_PATHS = 256;

/** Files whose change alters what every other path means to git (ignore rules): a full look follows. */
const RULE_FILES: ReadonlySet<string> = new Set(['.gitignore', '.stepwiseignore', '.gitmodules']);

/**
 * The pathspecs a snapshot may limit itself to when only `written` (workspace-relative, `/`-separated)
 * changed since the previous snapshot, or `undefined` when it must look at the whole tree: too
 * many paths, a path that is not plainly inside the workspace, an ignore file, or a path through a
 * symbolic link (a write through a link changed its target, which is another path). Deny by default:
 * anything this cannot vouch for costs a full look, never a missed change.
 */
export async function snapshotScope(workTree: string, written: readonly string[]): Promise<string[] | undefined> {
  const unique = [...new Set(written)];
  if (unique.length === 0 || unique.length > MAX_SCOPED_PATHS) return undefined;
  const root = await realpath(workTree).catch(() => undefined);
  if (root === undefined) return undefined;
  for (const rel of unique) {
    if (!isInsideWorkspace(rel)) return undefined;
    const segments = rel.split('/');
    if (segments.includes('.git') || RULE_FILES.has(segments.at(-1)!)) return undefined;
    if (!(await plainPath(root, segments))) return undefined;
  }
  return unique.sort();
}

/** True when no folder on the way to the file is a link (or missing) and the file itself, if present, is no link. */
async function plainPath(root: string, segments: readonly string[]): Promise<boolean> {
  const folder = path.join(root, ...segments.slice(0, -1));
  if ((await realpath(folder).catch(() => undefined)) !== folder) return false;
  const info = await lstat(path.join(folder, segments.at(-1)!)).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : undefined));
  return info === null || (info !== undefined && !info.isSymbolicLink());
}
