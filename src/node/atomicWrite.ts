import type * as Crypto from 'node:crypto';
import { constants, readdirSync, statSync, unlinkSync } from 'node:fs';
import { access, chown, mkdir, open, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { throwIfAborted } from '../agent/errors';
import { renameRetrying } from './renameRetrying';

/**
 * Replaces `file` with `content` so that readers see either the old bytes or the new, never a
 * mix: the content goes to a temporary file in the same folder, is flushed to disk, takes the old
 * file's mode (and owner, when allowed), and is renamed over the target; the folder is then
 * flushed too. Missing parent folders are created; a file we may not write stays as it is, and so
 * does a file without any write bit in its mode (`0444`), even for root, who passes every
 * `access(W_OK)`. On any failure (or abort before the rename) the temporary file is removed, the
 * old file is untouched, and the error is rethrown. With `tempDir` (e.g. the workspace's
 * `.stepwise/tmp`, see `cleanStaleTemps`) the temporary file lives there, so a write killed
 * mid-way leaves nothing beside the user's files; the folder (and its parent) is removed again
 * when empty; a `tempDir` on another device falls back to the file's folder. `file` must be a real path (symlinks resolved), or the rename would replace the link.
 */
export async function atomicWrite(
  file: string,
  content: string | Uint8Array,
  signal?: AbortSignal,
  options: { tempDir?: string } = {},
): Promise<void> {
  throwIfAborted(signal);
  const folder = path.dirname(file);
  await mkdir(folder, { recursive: true });
  const previous = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  // A rename would replace a read-only file as easily as any other; honour the user's protection.
  if (previous) {
    // The mode first: on Windows the read-only attribute makes access() fail with a bare EPERM.
    if ((previous.mode & 0o222) === 0) throw readOnlyError(file, previous.mode);
    await access(file, constants.W_OK);
  }
  // mkdir tells which folder it created first: only folders this write made are removed after it.
  let created: string | undefined;
  const tempFolder = options.tempDir
    ? await mkdir(options.tempDir, { recursive: true }).then((first) => ((created = first), options.tempDir!), () => folder)
    : folder;
  let temp = tempName(tempFolder, file);
  const mode = previous ? previous.mode & 0o7777 : 0o666;
  // 'wx': never reuse a file someone else created under our temporary name. A concurrent write may
  // have just removed the (empty) temp folder: make it again once.
  const handle = await open(temp, 'wx', mode).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT' || tempFolder === folder) throw error;
    await mkdir(tempFolder, { recursive: true });
    return open(temp, 'wx', mode);
  });
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
    try {
      // Windows refuses to replace a file another program holds open: wait it out a little, then say so.
      await renameRetrying(temp, file, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV' || tempFolder === folder) throw error;
      // The temp folder is on another device: write again beside the file, where rename is atomic.
      await unlink(temp).catch(() => undefined);
      temp = '';
      return await atomicWrite(file, content, signal);
    }
    renamed = true;
  } finally {
    if (!renamed && temp) await unlink(temp).catch(() => undefined);
    if (tempFolder !== folder) await removeIfEmpty(tempFolder, created);
  }
  await syncFolder(folder);
}

/** Makes a rename or creation in `folder` durable; some platforms cannot open folders, which is fine. */
export async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {}
}

/** Suffix of every temporary file `atomicWrite` creates. */
export const TEMP_SUFFIX = '.stepwise-tmp';

/** `<folder>/.<pid>.<random>.<name>.stepwise-tmp`: the pid tells `cleanStaleTemps` whether its writer still runs. */
function tempName(folder: string, file: string): string {
  return path.join(folder, `.${process.pid}.${randomHex(6)}.${path.basename(file).slice(0, 100)}${TEMP_SUFFIX}`);
}

/**
 * Removes the temp folder when empty, and the folders above it this write created (`created` is
 * the first one mkdir made), so no trace is left in the workspace between writes.
 */
async function removeIfEmpty(dir: string, created: string | undefined): Promise<void> {
  for (let folder = dir; ; folder = path.dirname(folder)) {
    if (!(await rmdir(folder).then(() => true, () => false))) return;
    if (!created || folder === created || folder === path.dirname(folder)) return;
  }
}

function readOnlyError(file: string, mode: number): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `${path.basename(file)} is read-only (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); it was not changed. Ask the user to make it writable first if it should change.`,
  );
  error.code = 'EACCES';
  return error;
}

/**
 * Removes temporary files left in `dir` by writes that were killed mid-way: those whose writer
 * process is gone, or older than a day. Synchronous, for a workspace's constructor (the folder
 * holds only the temporary files of writes in flight). Returns how many were removed; never throws.
 */
export function cleanStaleTemps(dir: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(TEMP_SUFFIX)) continue;
    const pid = Number(/^\.(\d+)\./.exec(name)?.[1]);
    const file = path.join(dir, name);
    try {
      const stale = !processRuns(pid) || Date.now() - statSync(file).mtimeMs > 24 * 3600_000;
      if (stale) {
        unlinkSync(file);
        removed++;
      }
    } catch {}
  }
  return removed;
}

function processRuns(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `bytes` random bytes in hex. node:crypto loads on the first temporary name, not with this module (the CLI's history list loads it and never writes). */
function randomHex(bytes: number): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
  return (require('node:crypto') as typeof Crypto).randomBytes(bytes).toString('hex');
}
