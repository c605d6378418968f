import { constants } from 'node:fs';
import { access, chmod, lstat, mkdir, readlink, realpath, rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isInsideWorkspace } from '../../agent/checkpoints/checkpointPaths';
import { throwIfAborted } from '../../agent/errors';
import { GITLINK_MODE, type TreeEntry } from './gitTrees';
import { flushAll, readJournal, removeJournal, replaceFile, rollBack, writeJournal, writerRuns, type AfterState, type BlobReader, type JournalEntry, type PathState, type RestoreJournal } from './restoreJournal';

/** What a path should become: a file with content and mode, or nothing. */
export type Wanted = { path: string; entry: TreeEntry; content: Buffer } | { path: string; entry: undefined };

/** Where a restore journals its intent, and how it keeps the before bytes in the store. */
export interface JournalPort {
  /** The journal file (one per workspace, in the store). */
  file: string;
  /** Stores the current raw bytes of these workspace files; their blob ids, in order. */
  storeFiles: (paths: readonly string[]) => Promise<string[]>;
  readBlobs: BlobReader;
}

/**
 * Makes every wanted path what it should be, all or nothing, also across a crash: first checks
 * them all (inside the workspace by path segments, no file standing where a folder must be,
 * writable), then stores every path's before bytes and writes the journal (fsync'd) naming each
 * path's before and after state and the folders it will create; then deletes and writes (each
 * file atomically). On any failure everything is rolled back (created folders removed) and the
 * error rethrown; after a crash, `recoverJournal` rolls it back when the store is next opened.
 * Folders emptied by deletions are removed. The journal is removed once the restore is complete.
 */
export async function applyWanted(root: string, wanted: readonly Wanted[], journalPort: JournalPort, signal?: AbortSignal): Promise<void> {
  const realRoot = await realpath(root);
  if ((await recoverJournal(journalPort)) === 'running') throw new Error('another restore of this workspace is still running');
  const deleting = new Set(wanted.filter((w) => !w.entry).map((w) => w.path));
  for (const w of wanted) await check(realRoot, w, deleting);
  throwIfAborted(signal);
  const journal = await intent(realRoot, wanted, deleting, journalPort);
  await writeJournal(journalPort.file, journal);
  const ordered = [...wanted.filter((w) => !w.entry), ...wanted.filter((w) => w.entry)];
  try {
    for (const w of ordered) await put(path.join(realRoot, w.path), w);
    for (const rel of deleting) await removeEmptyParents(realRoot, rel);
    // Each file was replaced by a rename (never half-written); flush them all before the journal goes.
    await flushAll(wanted.filter((w) => w.entry && w.entry.mode !== '120000').map((w) => path.join(realRoot, w.path)), wanted.map((w) => path.dirname(path.join(realRoot, w.path))));
  } catch (error) {
    await rollBack(journal, journalPort.readBlobs);
    await removeJournal(journalPort.file);
    throw error;
  }
  await removeJournal(journalPort.file);
}

/**
 * Rolls back a restore a crash interrupted (its journal is on disk and its writer is gone), so
 * the workspace is all old again, byte for byte. The rule is always back, never forward: the
 * before state is what the user last saw and what every message about a failed restore promises.
 * Returns how many paths the journal named, `'running'` when a live process is restoring this
 * workspace now (left alone), `undefined` when there was nothing to do; throws when the rollback
 * itself failed (the journal stays for the next try).
 */
export async function recoverJournal(port: Pick<JournalPort, 'file' | 'readBlobs'>): Promise<number | 'running' | undefined> {
  const journal = await readJournal(port.file);
  if (!journal) {
    await removeJournal(port.file); // an unreadable journal was never complete: nothing was written
    return undefined;
  }
  if (writerRuns(journal.pid)) return 'running';
  await rollBack(journal, port.readBlobs);
  await removeJournal(port.file);
  return journal.entries.length;
}

async function intent(root: string, wanted: readonly Wanted[], deleting: ReadonlySet<string>, port: JournalPort): Promise<RestoreJournal> {
  const infos = await Promise.all(wanted.map((w) => lstat(path.join(root, w.path)).catch(() => undefined)));
  const files = wanted.filter((_, i) => infos[i]?.isFile()).map((w) => w.path);
  const blobs = new Map<string, string>();
  const shas = files.length ? await port.storeFiles(files) : [];
  files.forEach((rel, i) => blobs.set(rel, shas[i]!));
  const entries: JournalEntry[] = [];
  for (let i = 0; i < wanted.length; i++) {
    const w = wanted[i]!;
    const info = infos[i];
    const full = path.join(root, w.path);
    const before: PathState = !info
      ? { kind: 'absent' }
      : info.isSymbolicLink()
        ? { kind: 'link', target: await readlink(full) }
        : { kind: 'file', blob: blobs.get(w.path)!, mode: info.mode & 0o7777 };
    const after: AfterState = !w.entry
      ? { kind: 'absent' }
      : w.entry.mode === '120000'
        ? { kind: 'link', target: w.content.toString('utf8') }
        : { kind: 'file', blob: w.entry.sha, gitMode: w.entry.mode };
    entries.push({ path: w.path, before, after });
  }
  return { version: 1, pid: process.pid, started: Date.now(), root, entries, createdDirs: await foldersToCreate(root, wanted, deleting) };
}

/** The folders the writes will create (missing now, or a file being deleted now), shallowest first. */
async function foldersToCreate(root: string, wanted: readonly Wanted[], deleting: ReadonlySet<string>): Promise<string[]> {
  const created = new Set<string>();
  const known = new Map<string, boolean>();
  for (const w of wanted) {
    if (!w.entry) continue;
    const parts = w.path.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!known.has(dir)) {
        const info = await lstat(path.join(root, dir)).catch(() => undefined);
        known.set(dir, !!info?.isDirectory() && !deleting.has(dir));
      }
      if (!known.get(dir)) created.add(dir);
    }
  }
  return [...created].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
}

async function check(root: string, w: Wanted, deleting: ReadonlySet<string>): Promise<void> {
  if (!isInsideWorkspace(w.path)) throw new Error(`${w.path} is outside the workspace`);
  const file = path.join(root, w.path);
  if (w.entry?.mode === GITLINK_MODE) throw new Error(`${w.path} is a nested repository`);
  // Every existing parent must be a real folder inside the workspace (a symlink out would escape).
  const parts = w.path.split('/');
  let existing = root;
  for (let i = 1; i < parts.length; i++) {
    const dir = path.join(root, ...parts.slice(0, i));
    const info = await lstat(dir).catch(() => undefined);
    if (!info) break;
    if (!info.isDirectory()) {
      if (info.isFile() && deleting.has(parts.slice(0, i).join('/'))) break;
      throw new Error(`cannot restore ${w.path}: ${parts.slice(0, i).join('/')} is not a folder`);
    }
    existing = dir;
  }
  const info = await lstat(file).catch(() => undefined);
  if (info?.isDirectory()) throw new Error(`cannot restore ${w.path}: a folder is there now`);
  await access(existing, constants.W_OK).catch(() => {
    throw new Error(`cannot restore ${w.path}: ${path.relative(root, existing) || 'the workspace folder'} is not writable`);
  });
  if (info?.isFile() && w.entry && ((info.mode & 0o222) === 0 || !(await access(file, constants.W_OK).then(() => true, () => false)))) {
    throw new Error(`cannot restore ${w.path}: the file is read-only`);
  }
}

async function put(file: string, w: Wanted): Promise<void> {
  const info = await lstat(file).catch(() => undefined);
  if (!w.entry) {
    if (info) await unlink(file);
    return;
  }
  if (info?.isSymbolicLink() || (info && w.entry.mode === '120000')) await unlink(file);
  if (w.entry.mode === '120000') {
    await symlinkIn(file, w.content.toString('utf8'));
    return;
  }
  await replaceFile(file, w.content, info?.isFile() ? info : undefined);
  const mode = (await lstat(file)).mode & 0o7777;
  const wantExec = w.entry.mode === '100755';
  const next = wantExec ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
  if (next !== mode) await chmod(file, next);
}

async function symlinkIn(file: string, target: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await symlink(target, file);
}

async function removeEmptyParents(root: string, rel: string): Promise<void> {
  const parts = rel.split('/').slice(0, -1);
  while (parts.length) {
    try {
      await rmdir(path.join(root, ...parts));
    } catch {
      return; // not empty (or gone): stop climbing
    }
    parts.pop();
  }
}
