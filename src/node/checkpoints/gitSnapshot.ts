import { constants } from 'node:fs';
import { access, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SkippedFile, Snapshot } from '../../agent/checkpoints/checkpointTypes';
import { isSecretFile, SECRET_SKIP_REASON } from '../../agent/checkpoints/secretFiles';
import { STEPWISE_IGNORE_FILE } from '../ignoreRules';
import { GitError, nulFields, runGit, type GitPlaces } from './gitRunner';
import { LargeFiles } from './largeFiles';
import { allPlainFiles, snapshotScope } from './snapshotScope';
import { TreePatcher, type GitCall } from './treePatch';

/**
 * Left out of every checkpoint besides what `.gitignore` and `.stepwiseignore` say: dependency
 * folders, caches and Stepwise's own reports (regenerated, large, or not the user's work).
 */
export const DEFAULT_EXCLUDES = [
  'node_modules/',
  '.venv/',
  'venv/',
  '__pycache__/',
  '*.pyc',
  '.tox/',
  '.mypy_cache/',
  '.pytest_cache/',
  '.next/',
  '.nuxt/',
  '.cache/',
  '.gradle/',
  '.DS_Store',
  '/.stepwise/reports/',
  '.*.stepwise-tmp',
];

/** Default per-file size cap: larger files are left out of checkpoints (and said so). */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;

const OVERSIZED_MARK = '# stepwise: files over the size cap';

/**
 * Our `info/attributes`, which outranks every `.gitattributes` of the workspace and any attributes
 * file: no end-of-line conversion, no re-encoding, no `$Id$` expansion, no filter driver. Snapshots
 * store the raw bytes and `cat-file` gives them back unchanged, so a restore is byte for byte.
 * The version line changes when this text does; a store made under other attributes starts a
 * new index, so every file is hashed again as raw bytes.
 */
export const RAW_ATTRIBUTES = '# stepwise raw v1: store bytes as they are\n* -text -eol -ident -filter -working-tree-encoding -diff -merge\n';

/** The commands a snapshot runs that read our index. */
const INDEX_COMMANDS: ReadonlySet<string> = new Set(['ls-files', 'update-index', 'add', 'write-tree']);

/** Work a snapshotter did, counted for tests and the bench (never for decisions). */
export interface SnapshotWork {
  /** Git processes started by snapshots. */
  gitProcesses: number;
  /** Those of them that read our index (a whole-file read: ~100 bytes per file of the tree). */
  indexReads: number;
  /** Paths handed to `update-index` or `add` to be hashed and staged. */
  pathsStaged: number;
  /** Snapshots that looked at the whole tree, and those limited to the paths written since the previous one. */
  full: number;
  scoped: number;
}

/**
 * Takes snapshots of one workspace into our repository: finds what changed since the index last
 * saw it (`ls-files -m -o` honours `.gitignore` in every folder and our exclude file), leaves out
 * nested repositories, unreadable files and files over the cap, stages the rest and writes a tree.
 * Unchanged files are not read again (git compares stat data), so a snapshot costs a walk plus
 * the changed bytes. When the caller knows the only paths written since the previous snapshot
 * (see `snapshotScope`), only they are looked at: plain files by one `git add`, anything else by
 * the listing limited to them; no walk, and `write-tree` reuses the index's cached trees of every
 * untouched folder.
 */
export class GitSnapshotter {
  readonly work: SnapshotWork = { gitProcesses: 0, indexReads: 0, pathsStaged: 0, full: 0, scoped: 0 };
  /** Set once this process has looked at the whole tree: until then the index may be older than the workspace. */
  private looked = false;
  /** The tree of this snapshotter's previous snapshot. */
  private lastTree: string | undefined;
  /** Paths put into a tree by `patch` since our index last learned them. */
  private readonly notInIndex = new Set<string>();
  private readonly patcher = new TreePatcher();
  private readonly oversized = new Set<string>();
  /** Secret files already dropped from our index in this process (an old store may hold them). */
  private readonly secretsUnstaged = new Set<string>();
  private readonly large: LargeFiles;
  private excludeText: string | undefined;
  private attributesChecked = false;

  constructor(
    private readonly places: GitPlaces,
    private readonly maxFileBytes: number,
  ) {
    this.large = new LargeFiles(path.join(places.gitDir, 'stepwise-large.json'));
  }

  /**
   * Snapshots the workspace now. `written`: the only paths changed since this snapshotter's
   * previous snapshot, when the caller knows them; the whole tree is looked at anyway when the
   * index may be older than that snapshot or the paths cannot be vouched for (`snapshotScope`).
   */
  async snapshot(signal?: AbortSignal, written?: readonly string[]): Promise<Snapshot> {
    const reset = await this.ensureRawAttributes();
    if (this.excludeText === undefined) await this.loadOversized(path.join(this.places.gitDir, 'info', 'exclude'));
    const large = await this.refreshOversized();
    const rulesChanged = await this.writeExcludes();
    const scope = written && this.looked && !reset && !rulesChanged ? await snapshotScope(this.places.workTree, written) : undefined;
    this.work[scope ? 'scoped' : 'full'] += 1;
    // Paths whose last snapshot went round the index (a patched tree): the index learns them with the next paths.
    const paths = scope && [...new Set([...scope, ...this.notInIndex])].sort();
    const plain = paths !== undefined && (await allPlainFiles(this.places.workTree, paths, this.maxFileBytes));
    let tree = plain && this.lastTree ? await this.patch(this.lastTree, scope!, signal) : undefined;
    const skipped: SkippedFile[] = [];
    if (tree === undefined) {
      skipped.push(...(plain ? await this.addPlain(paths!, signal) : await this.listAndStage(paths, signal)));
      tree = (await this.git(['write-tree'], undefined, signal)).toString('utf8').trim();
      this.notInIndex.clear();
    }
    this.lastTree = tree;
    if (!scope) this.looked = true;
    for (const rel of this.oversized) if (!skipped.some((s) => s.path === rel)) skipped.push({ path: rel, reason: this.capText() });
    Object.assign(large, await this.large.fingerprints([...this.oversized].filter((rel) => !(rel in large)), this.places.workTree));
    await this.large.save();
    return { tree, skipped: skipped.sort((a, b) => a.path.localeCompare(b.path)), large };
  }

  /**
   * The tree of the previous snapshot with `paths` (plain files it already held, see
   * `TreePatcher`) replaced by what they are now, made without reading our index (the largest file
   * of the store, read whole by every command that uses it). `undefined` when a path was not a
   * plain file in that tree.
   */
  private async patch(base: string, paths: readonly string[], signal: AbortSignal | undefined): Promise<string | undefined> {
    if (paths.some((p) => p.includes('\n'))) return undefined;
    const git: GitCall = (args, input) => this.git(args, input, signal);
    const modes = await Promise.all(
      paths.map((p) => lstat(path.join(this.places.workTree, p)).then((info) => (process.platform === 'win32' ? undefined : info.mode & 0o100 ? ('100755' as const) : ('100644' as const)))),
    );
    const hash = async () => (await git(['hash-object', '-w', '--no-filters', '--stdin-paths'], paths.join('\n') + '\n')).toString('utf8').trim().split('\n');
    const tree = await this.patcher.patch(git, base, paths, modes, hash);
    if (tree !== undefined) {
      this.work.pathsStaged += paths.length;
      for (const p of paths) this.notInIndex.add(p);
    }
    return tree;
  }

  /**
   * Stages plain files (see `allPlainFiles`) in one `git add`: it hashes them and applies the
   * ignore rules to the untracked ones, refusing those (exit 1, said on stderr) while adding the rest.
   */
  private async addPlain(paths: readonly string[], signal: AbortSignal | undefined): Promise<SkippedFile[]> {
    this.work.pathsStaged += paths.length;
    try {
      await this.git(['add', '--', ...paths], undefined, signal);
    } catch (error) {
      if (!(error instanceof GitError && error.code === 1 && error.stderr.startsWith('The following paths are ignored'))) throw error;
    }
    return [];
  }

  /**
   * Lists what changed (everywhere, or in `scope`), leaves out nested repositories, secret files,
   * unreadable files and files over the cap (dropping any our index held), and stages the rest.
   */
  private async listAndStage(scope: readonly string[] | undefined, signal: AbortSignal | undefined): Promise<SkippedFile[]> {
    const listed = nulFields(await this.git(['ls-files', '-z', '-m', '-o', '--exclude-standard', ...(scope ? ['--', ...scope] : [])], undefined, signal));
    const skipped: SkippedFile[] = [];
    const stage: string[] = [];
    const unstage: string[] = [];
    await Promise.all(
      [...new Set(listed)].map(async (rel) => {
        if (rel.endsWith('/')) {
          skipped.push({ path: rel, reason: 'a nested repository; its own .git tracks it' });
          return;
        }
        if (isSecretFile(rel)) {
          skipped.push({ path: rel, reason: SECRET_SKIP_REASON, secret: true });
          if (!this.secretsUnstaged.has(rel)) unstage.push(rel);
          this.secretsUnstaged.add(rel);
          return;
        }
        const verdict = await this.classify(rel);
        if (verdict === undefined) stage.push(rel);
        else {
          skipped.push({ path: rel, reason: verdict });
          unstage.push(rel);
        }
      }),
    );
    if (unstage.length) {
      await this.git(['update-index', '--force-remove', '-z', '--stdin'], unstage.join('\0') + '\0', signal);
      await this.writeExcludes();
    }
    if (stage.length) await this.git(['update-index', '--add', '--remove', '-z', '--stdin'], stage.sort().join('\0') + '\0', signal);
    this.work.pathsStaged += stage.length;
    return skipped;
  }

  /**
   * Files left out for the size cap are still fingerprinted, so a user's later change to one is
   * seen; one that is gone or fits under the cap again leaves the list (and is snapshotted again).
   */
  private async refreshOversized(): Promise<Record<string, string>> {
    const known = [...this.oversized];
    const infos = await Promise.all(known.map((rel) => lstat(path.join(this.places.workTree, rel)).catch(() => undefined)));
    const still: string[] = [];
    known.forEach((rel, i) => {
      const info = infos[i];
      if (info?.isFile() && info.size > this.maxFileBytes) still.push(rel);
      else this.oversized.delete(rel);
    });
    return this.large.fingerprints(still, this.places.workTree);
  }

  private git(args: readonly string[], input: Buffer | string | undefined, signal: AbortSignal | undefined): Promise<Buffer> {
    this.work.gitProcesses += 1;
    if (INDEX_COMMANDS.has(args[0]!)) this.work.indexReads += 1;
    return runGit(this.places, args, input, signal);
  }

  /**
   * Writes `RAW_ATTRIBUTES` when it is missing or older; then the index (hashed under other
   * attributes, possibly holding secret files) is dropped so the next snapshot starts clean.
   * True when it dropped the index.
   */
  private async ensureRawAttributes(): Promise<boolean> {
    if (this.attributesChecked) return false;
    this.attributesChecked = true;
    const file = path.join(this.places.gitDir, 'info', 'attributes');
    if ((await readFile(file, 'utf8').catch(() => '')) === RAW_ATTRIBUTES) return false;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, RAW_ATTRIBUTES);
    await rm(this.places.indexFile, { force: true });
    return true;
  }

  /** Why a listed path is left out, or `undefined` to stage it (also when it was deleted). */
  private async classify(rel: string): Promise<string | undefined> {
    const file = path.join(this.places.workTree, rel);
    const info = await lstat(file).catch(() => undefined);
    if (!info || info.isSymbolicLink()) return undefined;
    if (info.isFile() && info.size > this.maxFileBytes) {
      this.oversized.add(rel);
      return this.capText();
    }
    if (info.isFile() && !(await access(file, constants.R_OK).then(() => true, () => false))) return 'not readable';
    return undefined;
  }

  private capText(): string {
    return `over the ${Math.round(this.maxFileBytes / 1024)} KiB checkpoint size cap`;
  }

  /** Our exclude file: the defaults, the root `.stepwiseignore`, and the oversized files, rewritten only when it changes (then true). */
  private async writeExcludes(): Promise<boolean> {
    const file = path.join(this.places.gitDir, 'info', 'exclude');
    const own = await readFile(path.join(this.places.workTree, STEPWISE_IGNORE_FILE), 'utf8').catch(() => '');
    const escape = (rel: string) => '/' + rel.replace(/([\\*?[\]!#])/g, '\\$1').replace(/^(\s)/, '\\$1');
    const text = [...DEFAULT_EXCLUDES, ...this.ownStateExcludes(), `# ${STEPWISE_IGNORE_FILE}`, own, OVERSIZED_MARK, ...[...this.oversized].sort().map(escape), ''].join('\n');
    if (text === this.excludeText) return false;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    this.excludeText = text;
    return true;
  }

  /**
   * Stepwise's own state (`<state>/checkpoints/repos/<id>.git`: the checkpoint store and, one level
   * up, task history) when it lies inside the workspace (e.g. `STEPWISE_HOME` set to a folder in it):
   * never part of a snapshot, or every snapshot would store the store itself.
   */
  private ownStateExcludes(): string[] {
    const checkpointsHome = path.dirname(path.dirname(this.places.gitDir));
    const out: string[] = [];
    for (const folder of [checkpointsHome, path.dirname(checkpointsHome)]) {
      const rel = path.relative(this.places.workTree, folder);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) out.push(`/${rel.split(path.sep).join('/')}/`);
    }
    return out;
  }

  private async loadOversized(file: string): Promise<void> {
    const old = await readFile(file, 'utf8').catch(() => '');
    this.excludeText = old;
    const at = old.indexOf(OVERSIZED_MARK + '\n');
    if (at < 0) return;
    for (const line of old.slice(at + OVERSIZED_MARK.length + 1).split('\n')) {
      if (line.startsWith('/')) this.oversized.add(line.slice(1).replace(/\\(.)/g, '$1'));
    }
  }
}
