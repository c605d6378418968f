import { rename } from 'node:fs/promises';
import { throwIfAborted } from '../agent/errors';

/** Codes Windows gives while another program holds the target open (an editor, an indexer, an antivirus scan). */
const HELD_OPEN = new Set(['EBUSY', 'EPERM', 'EACCES']);
/** Waits between attempts: about 2.5 s in all, then the error. */
const DELAYS_MS = [20, 50, 100, 200, 300, 400, 500, 500, 500];

/** What `renameRetrying` needs: the rename and the platform (injectable for the retry table). */
export interface RenameDeps {
  rename: (from: string, to: string) => Promise<void>;
  platform: NodeJS.Platform;
  sleep: (ms: number) => Promise<void>;
}

const defaults: RenameDeps = { rename, platform: process.platform, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/**
 * `rename(from, to)` that, on Windows, waits out a target held open by another process: `EBUSY`,
 * `EPERM` and `EACCES` are retried with growing pauses (about 2.5 s in all); then the error says
 * which file is held and what to do. Elsewhere (and for other codes) the first error is thrown as is.
 */
export async function renameRetrying(from: string, to: string, signal?: AbortSignal, deps: RenameDeps = defaults): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await deps.rename(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (deps.platform !== 'win32' || !HELD_OPEN.has(code)) throw error;
      const delay = DELAYS_MS[attempt];
      if (delay === undefined) {
        const held = new Error(`${to} is held open by another program (${code}); the file was not changed. Close it in that program (or wait for it) and try again.`) as NodeJS.ErrnoException;
        held.code = code;
        throw held;
      }
      throwIfAborted(signal);
      await deps.sleep(delay);
    }
  }
}
