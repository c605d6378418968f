import type { SearchMatch, SearchResult, SkippedFile } from '../../agent/ports';
import { throwIfAborted } from '../../agent/errors';
import type { IgnoreRules } from '../ignoreRules';
import type { ScanPlan } from './fileScanner';
import { literalOf, requiredLiteral } from './requiredLiteral';
import { BATCH_FILES, SearchBatches } from './searchBatches';
import { MAX_SEARCH_FILE_BYTES, type SearchScope } from './searchCommon';
import { walkSearchTree } from './searchWalk';

export { literalOf } from './requiredLiteral';

/** A file named as the search path is read up to this size (a folder's files up to 2 MB). */
export const MAX_NAMED_FILE_BYTES = 32 * 1024 * 1024;
/** Skipped files listed by name; the rest are only counted. */
export const MAX_SKIPPED_LISTED = 20;

/** Work one JS search did, counted for tests and the bench. */
export interface JsSearchWork {
  /** Files opened and read (in any thread). */
  filesRead: number;
  /** Lines the regex ran on (files and lines without the pattern's required text are not matched). */
  regexLines: number;
  /** Folders listed by the walk (ignored folders are never listed). */
  foldersRead: number;
  /** Worker threads started. */
  workersStarted: number;
}

/** Inputs of one JS search; the scope is already confined to the workspace. */
export interface JsSearchInput {
  root: string;
  scope: SearchScope;
  regex: RegExp;
  contextLines: number;
  maxMatches: number;
  rules: IgnoreRules;
  signal?: AbortSignal;
  /** The regex's matching time limit (default REGEX_DEADLINE_MS). */
  deadlineMs?: number;
  /** Worker threads at most (default: the cores, up to 4). */
  maxWorkers?: number;
  /** The worker script (default `search-worker.js` beside the bundle); benches run from source point it at the built one. */
  workerScript?: string;
  /** Filled in with the work done. */
  work?: JsSearchWork;
}

/**
 * Searches like `rg --sort path` without ripgrep: files in tree order (names sorted per folder),
 * ignore rules and glob overrides as rg applies them (while walking: an ignored folder is never
 * listed), symlinks and special files not followed, files over 2 MB (32 MB for a file named as
 * the path) and binary files (a NUL in the first 8 KB) skipped and reported in `skipped`.
 * Files are read and matched in batches by worker threads (as many as the cores, up to 4), and
 * by this thread while none is up yet when the pattern holds a required text (checked on the
 * bytes first). The regex runs only in workers, so a backtracking pattern cannot block the event
 * loop; its time (matching only) is limited. Stops after one match past `maxMatches`; the
 * results are in tree order whichever thread found them.
 * Regex classes differ on non-ASCII text: JavaScript's `\w`, `\d`, `\b` are ASCII, rg's Unicode.
 */
export async function searchWithJs(input: JsSearchInput): Promise<SearchResult> {
  throwIfAborted(input.signal);
  const work = input.work ?? { filesRead: 0, regexLines: 0, foldersRead: 0, workersStarted: 0 };
  const batches = new SearchBatches(input.root, scanPlan(input), {
    pattern: input.regex.source,
    ...(input.deadlineMs !== undefined ? { deadlineMs: input.deadlineMs } : {}),
    ...(input.maxWorkers !== undefined ? { maxWorkers: input.maxWorkers } : {}),
    ...(input.workerScript !== undefined ? { script: input.workerScript } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  let stopped = false;
  const walking = walk(input, batches, () => stopped, work);
  const matches: SearchMatch[] = [];
  const skipped = new Skipped();
  let truncated = false;
  let failed = true;
  try {
    outer: for await (const batch of batches.results()) {
      for (const [i, scan] of (batch.scans ?? []).entries()) {
        if (scan === undefined || scan === 'regex') continue;
        if ('skipped' in scan) {
          skipped.add({ path: batch.files[i]!, reason: scan.skipped, size: scan.size });
          continue;
        }
        for (const match of scan.matches) {
          if (matches.length === input.maxMatches) {
            truncated = true;
            break outer;
          }
          matches.push(match);
        }
      }
    }
    failed = false;
  } finally {
    stopped = true;
    // Every worker is told to end now. A search that failed or was cancelled returns once they have
    // exited; one that succeeded does not wait for their threads to wind down (tens of ms on busy cores).
    const ended = batches.dispose();
    if (failed) await ended;
    await walking;
    Object.assign(work, { ...batches.work, foldersRead: work.foldersRead });
  }
  return { matches, truncated, engine: 'js', ...skipped.result() };
}

/** What each file is checked for: a plain text needs no regex; a regex's required text lets files without it be passed over. */
function scanPlan(input: JsSearchInput): ScanPlan {
  const literal = literalOf(input.regex);
  const required = literal ?? requiredLiteral(input.regex);
  return {
    ...(required !== undefined ? { required } : {}),
    ...(literal === undefined ? { regex: { source: input.regex.source, flags: input.regex.flags } } : {}),
    contextLines: input.contextLines,
    limit: input.maxMatches + 1,
    skipBinary: !input.scope.isFile,
    maxBytes: input.scope.isFile ? MAX_NAMED_FILE_BYTES : MAX_SEARCH_FILE_BYTES,
  };
}

/** Feeds the walk's files to `batches` in batches; never rejects (a failure ends the search through `batches`). */
async function walk(input: JsSearchInput, batches: SearchBatches, stopped: () => boolean, work: JsSearchWork): Promise<void> {
  try {
    if (input.scope.isFile) {
      batches.add([input.scope.rel]);
    } else {
      let files: string[] = [];
      await walkSearchTree({
        root: input.root,
        rel: input.scope.rel,
        ...(input.scope.compiledGlob ? { compiledGlob: input.scope.compiledGlob } : {}),
        rules: input.rules,
        ...(input.signal ? { signal: input.signal } : {}),
        stopped,
        room: () => batches.room(),
        work,
        onFile: (rel) => {
          files.push(rel);
          if (files.length < BATCH_FILES) return;
          batches.add(files);
          files = [];
        },
      });
      if (files.length && !stopped()) batches.add(files);
    }
    batches.finish();
  } catch (error) {
    batches.fail(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Files a search left out: the first few by name (in tree order: results come in order), all of them counted. */
class Skipped {
  private readonly listed: SkippedFile[] = [];
  private count = 0;
  add(file: SkippedFile): void {
    this.count++;
    if (this.listed.length < MAX_SKIPPED_LISTED) this.listed.push(file);
  }
  result(): Pick<SearchResult, 'skipped' | 'skippedCount'> {
    return this.count === 0 ? {} : { skipped: this.listed, skippedCount: this.count };
  }
}
