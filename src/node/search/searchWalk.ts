import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { throwIfAborted } from '../../agent/errors';
import type { CompiledGlob } from '../globMatcher';
import type { IgnoreRules } from '../ignoreRules';

/** One walk of a folder for the search. */
export interface SearchWalkInput {
  root: string;
  /** Workspace-relative folder walked (`''` for the root). */
  rel: string;
  compiledGlob?: CompiledGlob;
  rules: IgnoreRules;
  signal?: AbortSignal;
  /** Checked before each folder: true once the search needs no more files. */
  stopped: () => boolean;
  /** Awaited (when it returns a promise) before each folder: the search's back-pressure. */
  room?: () => Promise<void> | undefined;
  /** Each selected file, in tree order. */
  onFile: (rel: string) => void;
  /** Folders listed (an ignored folder is never listed). */
  work: { foldersRead: number };
}

/**
 * Walks like `rg --sort path`: names sorted per folder, `.git` skipped, glob overrides before the
 * ignore rules, which are applied while walking so an ignored folder is never listed; symlinks and
 * special files are not followed. The listings of a folder's subfolders are started together
 * (the walk reads them in order), so the walk waits on the disk once per level, not per folder.
 */
export async function walkSearchTree(input: SearchWalkInput): Promise<void> {
  if (input.rel.split('/').includes('.git')) return;
  await walkFolder(input, input.rel, list(input.root, input.rel));
}

async function walkFolder(input: SearchWalkInput, rel: string, listing: Promise<Dirent[] | undefined>): Promise<void> {
  if (input.stopped()) return;
  throwIfAborted(input.signal);
  const dirents = await listing;
  if (!dirents) return; // unreadable folder: rg reports it on stderr and goes on
  input.work.foldersRead++;
  const entries: Array<{ name: string; isDir: boolean }> = [];
  for (const entry of dirents) {
    if (entry.isDirectory()) entries.push({ name: entry.name, isDir: true });
    else if (entry.isFile()) entries.push({ name: entry.name, isDir: false });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const ignored = await input.rules.folderMatcher(rel, new Set(entries.map((e) => e.name)));
  const child = (name: string) => (rel === '' ? name : `${rel}/${name}`);
  const selected = entries.filter((entry) => {
    if (entry.name === '.git') return false;
    const verdict = input.compiledGlob?.verdict(child(entry.name), entry.isDir);
    if (verdict === 'exclude') return false;
    return verdict === 'include' || !ignored(entry.name, entry.isDir);
  });
  const listings = new Map<string, Promise<Dirent[] | undefined>>();
  for (const entry of selected) if (entry.isDir) listings.set(entry.name, list(input.root, child(entry.name)));
  for (const entry of selected) {
    if (input.stopped()) return;
    if (entry.isDir) {
      await input.room?.();
      await walkFolder(input, child(entry.name), listings.get(entry.name)!);
    }
    else input.onFile(child(entry.name));
  }
}

/** A folder's entries, or `undefined` when it cannot be read (never rejects: listings start ahead of their turn). */
function list(root: string, rel: string): Promise<Dirent[] | undefined> {
  return readdir(path.join(root, rel), { withFileTypes: true }).catch(() => undefined);
}
