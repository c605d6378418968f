import { createHash } from 'node:crypto';

/** One entry of a git tree: its mode (`100644`, `100755`, `120000`, `160000`, `40000`) and object id (hex; our store is SHA-1). */
interface Entry {
  mode: string;
  sha: string;
}

/** A tree's entries by name; names are kept as `latin1` strings, so every byte survives. */
type Entries = Map<string, Entry>;

/** A file to put into a tree: its path, `/`-separated, its blob, and its mode (`undefined`: the one it had). */
export interface PatchedFile {
  path: string;
  mode: '100644' | '100755' | undefined;
  sha: string;
}

/** Runs one git command with `input`, returning its stdout (`runGit`, counted by the caller). */
export type GitCall = (args: readonly string[], input: Buffer | string) => Promise<Buffer>;

const TREE_MODE = '40000';

/** Most trees kept in a `TreePatcher`'s memory; past it the memory starts again empty. */
const MAX_CACHED_TREES = 4096;

/**
 * Builds the tree that is `base` with files replaced, without our index: the folders on the
 * files' way come from memory (trees this patcher read or made before) or from `base` in one
 * `cat-file --batch`; then the files are hashed (one `hash-object`), and the new trees are made
 * here and written in one `mktree --batch` (which must give back the same ids). With the folders
 * in memory a patch costs two git processes; none of them reads the index.
 */
export class TreePatcher {
  private readonly cache = new Map<string, Entries>();

  /**
   * The new tree, or `undefined` when a file's place in `base` is not a plain file of the same
   * path (a new file, a folder, a link, a nested repository): the caller then goes through the
   * index. `hash` writes the files' blobs and gives their ids, in order; `modes` are the files'
   * modes (`undefined`: keep the one in `base`).
   */
  async patch(git: GitCall, base: string, paths: readonly string[], modes: readonly PatchedFile['mode'][], hash: () => Promise<string[]>): Promise<string | undefined> {
    const folders = new Set<string>(['']);
    for (const rel of paths) {
      const segments = rel.split('/');
      for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
    }
    const order = [...folders].sort((a, b) => depth(a) - depth(b));
    const known = this.fromMemory(base, order);
    if (known === undefined) return undefined;
    const missing = order.filter((f) => !known.has(f));
    // Checked before any file is hashed: a new file costs no work here.
    const read = missing.length ? await readTrees(git, base, missing) : new Map<string, { sha: string; entries: Entries }>();
    if (read === undefined) return undefined;
    for (const { sha, entries } of read.values()) this.remember(sha, entries);
    const trees = new Map<string, Entries>();
    for (const folder of order) trees.set(folder, new Map(known.get(folder) ?? read.get(folder)!.entries));
    if (!paths.every((rel) => isPlainIn(trees, rel))) return undefined;
    const ids = await hash();
    if (ids.length !== paths.length || !ids.every((id) => /^[0-9a-f]{40}$/.test(id))) throw new Error(`hash-object gave ${ids.length} ids for ${paths.length} files`);
    paths.forEach((rel, i) => {
      const segments = rel.split('/');
      const entries = trees.get(segments.slice(0, -1).join('/'))!;
      const name = bytes(segments.at(-1)!);
      entries.set(name, { mode: modes[i] ?? entries.get(name)!.mode, sha: ids[i]! });
    });
    return this.write(git, trees, order.reverse());
  }

  /** Writes `trees` deepest first (each parent then holds its children's new ids); the root's id. */
  private async write(git: GitCall, trees: Map<string, Entries>, deepestFirst: readonly string[]): Promise<string> {
    const inputs: Buffer[] = [];
    const ids: string[] = [];
    for (const folder of deepestFirst) {
      const entries = trees.get(folder)!;
      const body = serialize(entries);
      const sha = createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
      inputs.push(mktreeInput(entries));
      ids.push(sha);
      this.remember(sha, entries);
      if (folder !== '') {
        const segments = folder.split('/');
        trees.get(segments.slice(0, -1).join('/'))!.set(bytes(segments.at(-1)!), { mode: TREE_MODE, sha });
      }
    }
    const made = (await git(['mktree', '-z', '--batch'], Buffer.concat(inputs))).toString('utf8').trim().split('\n');
    if (made.join(' ') !== ids.join(' ')) {
      this.cache.clear();
      throw new Error(`mktree made other trees than expected (${made.join(' ')} for ${ids.join(' ')})`);
    }
    return ids.at(-1)!;
  }

  /**
   * The folders' entries known from memory, walking down from `base`; `undefined` when memory
   * shows a folder does not exist there (a new folder: nothing to patch).
   */
  private fromMemory(base: string, shallowFirst: readonly string[]): Map<string, Entries> | undefined {
    const known = new Map<string, Entries>();
    const root = this.cache.get(base);
    if (root) known.set('', root);
    for (const folder of shallowFirst) {
      if (folder === '') continue;
      const segments = folder.split('/');
      const parent = known.get(segments.slice(0, -1).join('/'));
      if (!parent) continue;
      const entry = parent.get(bytes(segments.at(-1)!));
      if (entry?.mode !== TREE_MODE) return undefined;
      const entries = this.cache.get(entry.sha);
      if (entries) known.set(folder, entries);
    }
    return known;
  }

  private remember(sha: string, entries: Entries): void {
    if (this.cache.size >= MAX_CACHED_TREES) this.cache.clear();
    this.cache.set(sha, new Map(entries));
  }
}

/** True when `rel` is a regular file (not a link, a folder or a nested repository) in the folder entries given. */
function isPlainIn(trees: ReadonlyMap<string, Entries>, rel: string): boolean {
  const segments = rel.split('/');
  const mode = trees.get(segments.slice(0, -1).join('/'))?.get(bytes(segments.at(-1)!))?.mode;
  return mode === '100644' || mode === '100755';
}

/** The entries of each folder in `base`, or `undefined` when one is not a tree there. */
async function readTrees(git: GitCall, base: string, folders: readonly string[]): Promise<Map<string, { sha: string; entries: Entries }> | undefined> {
  if (folders.some((f) => f.includes('\n'))) return undefined;
  const names = folders.map((f) => (f === '' ? `${base}^{tree}` : `${base}:${f}`));
  const out = await git(['cat-file', '--batch'], names.join('\n') + '\n');
  const trees = new Map<string, { sha: string; entries: Entries }>();
  let at = 0;
  for (const folder of folders) {
    const end = out.indexOf(10, at);
    const header = out.subarray(at, end).toString('utf8').split(' ');
    const size = Number(header[2]);
    if (header.length !== 3 || !/^[0-9a-f]{40}$/.test(header[0]!) || header[1] !== 'tree' || !Number.isInteger(size)) return undefined;
    trees.set(folder, { sha: header[0]!, entries: parseTree(out.subarray(end + 1, end + 1 + size)) });
    at = end + 1 + size + 1;
  }
  return trees;
}

function parseTree(body: Buffer): Entries {
  const entries: Entries = new Map();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(32, at);
    const nul = body.indexOf(0, space);
    entries.set(body.subarray(space + 1, nul).toString('latin1'), { mode: body.subarray(at, space).toString('latin1'), sha: body.subarray(nul + 1, nul + 21).toString('hex') });
    at = nul + 21;
  }
  return entries;
}

/** Git's order: by name bytes, a folder's name compared as if it ended in `/`. */
function sorted(entries: Entries): [string, Entry][] {
  const key = ([name, entry]: [string, Entry]) => (entry.mode === TREE_MODE ? name + '/' : name);
  return [...entries].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function serialize(entries: Entries): Buffer {
  return Buffer.concat(sorted(entries).flatMap(([name, e]) => [Buffer.from(`${e.mode} ${name}\0`, 'latin1'), Buffer.from(e.sha, 'hex')]));
}

/** `mktree -z` input for one tree: `mode type sha\tname\0` per entry, then an empty record. */
function mktreeInput(entries: Entries): Buffer {
  const type = (mode: string) => (mode === TREE_MODE ? 'tree' : mode === '160000' ? 'commit' : 'blob');
  return Buffer.concat([...[...entries].map(([name, e]) => Buffer.from(`${e.mode} ${type(e.mode)} ${e.sha}\t${name}\0`, 'latin1')), Buffer.from([0])]);
}

function bytes(name: string): string {
  return Buffer.from(name, 'utf8').toString('latin1');
}

function depth(folder: string): number {
  return folder === '' ? 0 : folder.split('/').length;
}
