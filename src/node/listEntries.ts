import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry } from '../agent/ports';
import { throwIfAborted } from '../agent/errors';
import type { IgnoreRules } from './ignoreRules';

/** Inputs of one listing; `folderRel` is already confined to the workspace and is a folder. */
export interface ListInput {
  root: string;
  folderRel: string;
  recursive: boolean;
  limit: number;
  rules: IgnoreRules;
  signal?: AbortSignal;
}

/**
 * Lists a folder's non-ignored entries (`.git` never), breadth first so that a `limit` cut keeps
 * the shallow structure, then returns them in tree order (names sorted, each folder followed by
 * its contents). Symlinks are listed with their target's kind but never entered, so a listing
 * cannot leave the workspace or loop. `truncated` is true when more entries existed.
 */
export async function listEntries(input: ListInput): Promise<{ entries: FileEntry[]; truncated: boolean }> {
  const entries: FileEntry[] = [];
  const queue = [input.folderRel];
  const limit = Math.max(0, Math.floor(input.limit));
  while (queue.length > 0) {
    throwIfAborted(input.signal);
    const folderRel = queue.shift()!;
    for (const child of await readFolder(input.root, folderRel)) {
      throwIfAborted(input.signal);
      const rel = folderRel === '' ? child.name : `${folderRel}/${child.name}`;
      if (await input.rules.isIgnored(rel, child.kind === 'dir')) continue;
      if (entries.length === limit) return { entries: entries.sort(compareTreeOrder), truncated: true };
      entries.push({ path: rel, kind: child.kind });
      if (input.recursive && child.kind === 'dir' && !child.isLink) queue.push(rel);
    }
  }
  return { entries: entries.sort(compareTreeOrder), truncated: false };
}

interface Child {
  name: string;
  kind: 'file' | 'dir';
  isLink: boolean;
}

async function readFolder(root: string, folderRel: string): Promise<Child[]> {
  const children: Child[] = [];
  let dir;
  try {
    dir = await opendir(path.join(root, folderRel));
  } catch {
    return children; // unreadable folder: list what can be listed
  }
  for await (const entry of dir) {
    if (entry.isSymbolicLink()) {
      const target = await stat(path.join(root, folderRel, entry.name)).catch(() => undefined);
      children.push({ name: entry.name, kind: target?.isDirectory() ? 'dir' : 'file', isLink: true });
    } else {
      children.push({ name: entry.name, kind: entry.isDirectory() ? 'dir' : 'file', isLink: false });
    }
  }
  return children.sort((a, b) => compareNames(a.name, b.name));
}

/** Orders workspace paths as a tree: segment by segment, a folder before its contents. */
export function compareTreeOrder(a: FileEntry, b: FileEntry): number {
  const left = a.path.split('/');
  const right = b.path.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = compareNames(left[i]!, right[i]!);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
