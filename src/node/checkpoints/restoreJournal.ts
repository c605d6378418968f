import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, open, readdir, readFile, rename, rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isInsideWorkspace } from '../../agent/checkpoints/checkpointPaths';
import { syncFolder, TEMP_SUFFIX } from '../atomicWrite';

/** A path's state on one side of a restore: absent, a file (blob id in the store, permission bits), or a symlink. */
export const PathState = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('absent') }),
  z.object({ kind: z.literal('file'), blob: z.string().regex(/^[0-9a-f]{40,64}$/), mode: z.number().int() }),
  z.object({ kind: z.literal('link'), target: z.string() }),
]);
export type PathState = z.infer<typeof PathState>;

/** What a restore makes of a path: absent, a file (blob id and git's mode, `100644`/`100755`), or a symlink. */
export const AfterState = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('absent') }),
  z.object({ kind: z.literal('file'), blob: z.string().regex(/^[0-9a-f]{40,64}$/), gitMode: z.string() }),
  z.object({ kind: z.literal('link'), target: z.string() }),
]);
export type AfterState = z.infer<typeof AfterState>;

/** One path a restore changes: what it was and what it becomes. */
export const JournalEntry = z.object({ path: z.string(), before: PathState, after: AfterState });
export type JournalEntry = z.infer<typeof JournalEntry>;

/**
 * A restore's intent, on disk before its first write: every path's before and after state, the
 * folders it will create, the workspace and the writer's pid (a live writer's journal is left alone).
 */
export const RestoreJournal = z.object({
  version: z.literal(1),
  pid: z.number().int(),
  started: z.number(),
  root: z.string(),
  entries: z.array(JournalEntry),
  /** Folders the restore creates, shallowest first; removed (when empty) on rollback. */
  createdDirs: z.array(z.string()),
});
export type RestoreJournal = z.infer<typeof RestoreJournal>;

/** Reads blobs back from the store by id (raw bytes: `cat-file`, never converted). */
export type BlobReader = (shas: readonly string[]) => Promise<Map<string, Buffer>>;

/** Writes the journal durably: a temporary file, flushed, renamed into place, and the folder flushed. */
export async function writeJournal(file: string, journal: RestoreJournal): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(journal));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await syncFolder(path.dirname(file));
}

/** Removes the journal (the restore is complete, or rolled back) and flushes its folder. */
export async function removeJournal(file: string): Promise<void> {
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await syncFolder(path.dirname(file));
}

/** The journal at `file`, or `undefined` when there is none (or it is unreadable: it was never complete, so nothing was written). */
export async function readJournal(file: string): Promise<RestoreJournal | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = RestoreJournal.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** True while the process that wrote a journal still runs (then its restore is in flight, not interrupted). */
export function writerRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed child that nobody reaped yet still answers kill(0): it is a zombie, not a writer.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Puts every path of `journal` back to its before state and removes the folders the restore
 * created, so the workspace is what it was before the restore began, byte for byte. Safe to run
 * again after being interrupted itself. Temporary files the killed writer left beside its targets
 * are removed first. Throws when a path could not be put back (the journal then stays for another try).
 */
export async function rollBack(journal: RestoreJournal, readBlobs: BlobReader): Promise<void> {
  const root = journal.root;
  const entries = journal.entries.filter((e) => isInsideWorkspace(e.path));
  const folders = new Set([...entries.map((e) => path.dirname(e.path)), ...journal.createdDirs]);
  for (const folder of folders) await removeTemps(path.join(root, folder), journal.pid);
  const blobs = await readBlobs(entries.flatMap((e) => (e.before.kind === 'file' ? [e.before.blob] : [])));
  const failures: string[] = [];
  const attempt = async (entry: JournalEntry) => {
    try {
      await putState(path.join(root, entry.path), entry.before, blobs);
    } catch (error) {
      failures.push(`${entry.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  // Absent first (empties the created folders), then the folders, then what existed before.
  for (const entry of entries) if (entry.before.kind === 'absent') await attempt(entry);
  for (const dir of [...journal.createdDirs].reverse()) if (isInsideWorkspace(dir)) await rmdir(path.join(root, dir)).catch(() => undefined);
  for (const entry of entries) if (entry.before.kind !== 'absent') await attempt(entry);
  const written = entries.filter((e) => e.before.kind === 'file').map((e) => path.join(root, e.path));
  await flushAll(written, entries.map((e) => path.dirname(path.join(root, e.path))));
  if (failures.length) throw new Error(`could not put back ${failures.length} file(s): ${failures.slice(0, 3).join('; ')}`);
}

/** Makes `file` be `state` (content from `blobs`); used to write a restore and to roll it back. */
export async function putState(file: string, state: PathState, blobs: ReadonlyMap<string, Buffer>): Promise<void> {
  const info = await lstat(file).catch(() => undefined);
  if (state.kind === 'absent') {
    if (info && !info.isDirectory()) await unlink(file);
    return;
  }
  if (info?.isSymbolicLink() || (info && state.kind === 'link')) await unlink(file);
  if (state.kind === 'link') {
    await mkdir(path.dirname(file), { recursive: true });
    await symlink(state.target, file);
    return;
  }
  const content = blobs.get(state.blob);
  if (!content) throw new Error(`the checkpoint store is missing ${state.blob}`);
  const current = await readFile(file).catch(() => undefined);
  // Already right (a rollback run twice, or a file the restore had not reached): only the mode may differ.
  if (!current || !current.equals(content)) await replaceFile(file, content, info?.isFile() ? info : undefined);
  const mode = (await lstat(file)).mode & 0o7777;
  if (mode !== state.mode) await chmod(file, state.mode);
}

/**
 * Replaces `file` by a rename from a temporary file beside it (named as `atomicWrite` names its
 * own, so a crash's leftovers are found), keeping the old file's mode and owner. Not flushed one by
 * one: the journal already makes the restore recoverable, and `flushAll` flushes all at the end.
 */
export async function replaceFile(file: string, content: Buffer, previous: { mode: number; uid: number; gid: number } | undefined): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${process.pid}.${randomBytes(6).toString('hex')}.${path.basename(file).slice(0, 100)}${TEMP_SUFFIX}`);
  const handle = await open(temp, 'wx', previous ? previous.mode & 0o7777 : 0o666);
  try {
    try {
      await handle.writeFile(content);
      if (previous) {
        await handle.chmod(previous.mode & 0o7777);
        if (previous.uid !== process.getuid?.() || previous.gid !== process.getgid?.()) await chown(temp, previous.uid, previous.gid).catch(() => undefined);
      }
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Flushes every written file and the folders they are in, a few at a time (the disk batches them). */
export async function flushAll(files: readonly string[], folders: readonly string[]): Promise<void> {
  const queue = [...files, ...new Set(folders)];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const handle = await open(next, 'r').catch(() => undefined);
      if (!handle) continue; // a folder emptied and removed by the restore
      await handle.sync().catch(() => undefined);
      await handle.close();
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** Removes the temporary files a killed writer (`pid`) left in `dir` (`.<pid>.<random>.<name>.stepwise-tmp`). */
async function removeTemps(dir: string, pid: number): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith(`.${pid}.`) && name.endsWith(TEMP_SUFFIX)) await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

