import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * What identifies a workspace across windows and restarts: its folder's real path (symlinks
 * resolved; case folded where the file system ignores case), hashed. VS Code may give two windows
 * on one folder two storage folders; everything Stepwise keeps for a workspace (history,
 * confirmations, trust) is found by this id instead, so every window sees the same.
 */
export function workspaceId(folder: string, platform: NodeJS.Platform = process.platform): string {
  let real = path.resolve(folder);
  try {
    real = realpathSync.native(real);
  } catch {
    // A folder that is gone keeps the id of its path.
  }
  const key = platform === 'win32' || platform === 'darwin' ? real.toLowerCase() : real;
  return createHash('sha256').update(key).digest('hex').slice(0, 20);
}

/** The folder under the extension's global storage that holds what Stepwise keeps for the workspace `id`. */
export function workspaceStateFolder(globalStorage: string, id: string): string {
  return path.join(globalStorage, 'workspaces', id);
}

/**
 * Copies files of `from` that `to` lacks (the history a window kept in its own storage folder
 * before it was found by the workspace's identity). Existing files are never overwritten; returns
 * how many were copied. Never throws: an unreadable old folder is left as it is.
 */
export function adoptFiles(from: string | undefined, to: string): number {
  if (!from || path.resolve(from) === path.resolve(to) || !existsSync(from)) return 0;
  let copied = 0;
  try {
    for (const name of readdirSync(from)) {
      const target = path.join(to, name);
      if (existsSync(target)) continue;
      cpSync(path.join(from, name), target, { recursive: true, errorOnExist: false, force: false });
      copied++;
    }
  } catch {
    return copied;
  }
  return copied;
}
