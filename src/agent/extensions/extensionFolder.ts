import { isCancellation } from '../errors';
import type { Workspace } from '../ports';

/** One folder the loader reads skills, roles and prompt files from (the workspace, or the user's `~/.stepwise`). */
export interface ExtensionFolder {
  source: 'workspace' | 'user';
  /** How a path in this folder is shown to the model and the user (workspace-relative, or absolute for the user's folder). */
  shown(path: string): string;
  /** Entries directly in `dir` (names, not paths); empty when it does not exist or cannot be read. */
  list(dir: string, signal?: AbortSignal): Promise<Array<{ name: string; kind: 'file' | 'dir' }>>;
  /** The file as UTF-8 text when it is at most `maxBytes` long; `undefined` when missing, bigger or unreadable. */
  read(path: string, maxBytes: number, signal?: AbortSignal): Promise<string | undefined>;
}

/**
 * The workspace as an extension folder: through the `Workspace` port, so the confinement rules hold
 * (a symlinked SKILL.md that points outside the workspace is refused, not read).
 */
export function workspaceFolder(workspace: Workspace): ExtensionFolder {
  return {
    source: 'workspace',
    shown: (path) => path,
    async list(dir, signal) {
      const listed = await quietly(() => workspace.listFiles(dir, { recursive: false, limit: 200, signal }));
      return (listed?.entries ?? []).map((entry) => ({ name: entry.path.split('/').pop() ?? entry.path, kind: entry.kind }));
    },
    async read(path, maxBytes, signal) {
      const stat = await quietly(() => workspace.stat(path));
      if (stat?.kind !== 'file' || stat.size > maxBytes) return undefined;
      const range = await quietly(() => workspace.readRange(path, { offset: 0, length: maxBytes }, signal));
      return range ? new TextDecoder().decode(range.bytes) : undefined;
    },
  };
}

/** Runs a read, turning its failure (missing, ignored, outside) into `undefined`; cancellation still throws. */
export async function quietly<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isCancellation(error)) throw error;
    return undefined;
  }
}
