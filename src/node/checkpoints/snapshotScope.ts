import { constants } from 'node:fs';
import { access, lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInsideWorkspace } from '../../agent/checkpoints/checkpointPaths';
import { isSecretFile } from '../../agent/checkpoints/secretFiles';

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

/**
 * True when every path is a plain file to stage as it is: a readable regular file within the
 * size cap, no secret, no nested repository on the way. Then `git add -- paths` alone decides
 * (it honours the ignore rules, as `ls-files -o --exclude-standard` does); anything else (a deleted
 * file, one over the cap, a secret) goes through the listing, which knows how to leave it out.
 */
export async function allPlainFiles(workTree: string, paths: readonly string[], maxFileBytes: number): Promise<boolean> {
  const folders = new Set<string>();
  for (const rel of paths) {
    const segments = rel.split('/');
    for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
  }
  const checks = [
    ...paths.map(async (rel) => {
      if (isSecretFile(rel)) return false;
      const file = path.join(workTree, rel);
      const info = await lstat(file).catch(() => undefined);
      return !!info?.isFile() && info.size <= maxFileBytes && (await access(file, constants.R_OK).then(() => true, () => false));
    }),
    ...[...folders].map(async (folder) => (await lstat(path.join(workTree, folder, '.git')).catch(() => undefined)) === undefined),
  ];
  return (await Promise.all(checks)).every(Boolean);
}
