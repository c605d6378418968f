import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chown, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { throwIfAborted } from '../agent/errors';

/**
 * Replaces `file` with `content` so that readers see either the old bytes or the new, never a
 * mix: the content goes to a temporary file in the same folder, is flushed to disk, takes the old
 * file's mode (and owner, when allowed), and is renamed over the target; the folder is then
 * flushed too. Missing parent folders are created; a file we may not write stays as it is. On any failure (or abort before the rename)
 * the temporary file is removed, the old file is untouched, and the error is rethrown.
 * `file` must be a real path (symlinks already resolved), or the rename would replace the link.
 */
export async function atomicWrite(file: string, content: string | Uint8Array, signal?: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  const folder = path.dirname(file);
  await mkdir(folder, { recursive: true });
  const previous = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  // A rename would replace a read-only file as easily as any other; honour the user's protection.
  if (previous) await access(file, constants.W_OK);
  const temp = path.join(folder, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.stepwise-tmp`);
  // 'wx': never reuse a file someone else created under our temporary name.
  const handle = await open(temp, 'wx', previous ? previous.mode & 0o7777 : 0o666);
  let renamed = false;
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
      if (previous) {
        // open()'s mode is filtered by the umask; chmod is not, so the old mode survives exactly.
        await handle.chmod(previous.mode & 0o7777);
        if (previous.uid !== process.getuid?.() || previous.gid !== process.getgid?.()) {
          await chown(temp, previous.uid, previous.gid).catch(() => undefined);
        }
      }
    } finally {
      await handle.close();
    }
    throwIfAborted(signal);
    await rename(temp, file);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
  await syncFolder(folder);
}

/** Makes the rename itself durable; some platforms cannot open folders, which is fine. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {}
}
