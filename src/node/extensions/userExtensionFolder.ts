import { readdir, realpath, stat, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ExtensionFolder } from '../../agent/extensions/extensionFolder';

/** The user's own folder of skills, roles and prompt files: `~/.stepwise` (`$HOME` first, as a shell finds it). */
export function userExtensionRoot(env: NodeJS.ProcessEnv): string {
  return path.join(env.HOME || os.homedir(), '.stepwise');
}

/**
 * The user's `~/.stepwise` as an extension folder: plain file reads, confined to the folder's real
 * path (a link out of it is not followed), paths shown absolute so the model can run a skill's
 * scripts by them. A missing folder lists nothing.
 */
export function userExtensionFolder(root: string): ExtensionFolder {
  const real = realpath(root).catch(() => undefined);
  const inside = async (relative: string): Promise<string | undefined> => {
    const base = await real;
    if (!base) return undefined;
    const resolved = await realpath(path.join(base, relative)).catch(() => undefined);
    if (!resolved) return undefined;
    const rel = path.relative(base, resolved);
    return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : resolved;
  };
  return {
    source: 'user',
    shown: (relative) => path.join(root, relative),
    async list(dir) {
      const at = await inside(dir);
      if (!at) return [];
      const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
      const out: Array<{ name: string; kind: 'file' | 'dir' }> = [];
      for (const entry of entries.slice(0, 200)) {
        // Links are resolved (and confined) like any other path when they are read.
        const info = entry.isSymbolicLink() ? await stat(path.join(at, entry.name)).catch(() => undefined) : entry;
        if (info?.isDirectory()) out.push({ name: entry.name, kind: 'dir' });
        else if (info?.isFile()) out.push({ name: entry.name, kind: 'file' });
      }
      return out;
    },
    async read(relative, maxBytes) {
      const at = await inside(relative);
      if (!at) return undefined;
      const info = await stat(at).catch(() => undefined);
      if (!info?.isFile() || info.size > maxBytes) return undefined;
      return readFile(at, 'utf8').catch(() => undefined);
    },
  };
}
