import { constants } from 'node:fs';
import { open, opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SearchMatch, SearchResult, SkippedFile } from '../../agent/ports';
import { throwIfAborted } from '../../agent/errors';
import type { IgnoreRules } from '../ignoreRules';
import {
  BINARY_SNIFF_BYTES,
  MAX_SEARCH_FILE_BYTES,
  buildMatch,
  type SearchScope,
} from './searchCommon';
import { RegexWorker } from './regexWorker';

/** A file named as the search path is read up to this size (a folder's files up to 2 MB). */
export const MAX_NAMED_FILE_BYTES = 32 * 1024 * 1024;
/** Skipped files listed by name; the rest are only counted. */
export const MAX_SKIPPED_LISTED = 20;

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
  /** Work done, filled in for tests and the bench: files read, and batches of lines the regex worker matched. */
  work?: { filesRead: number; regexBatches: number };
}

/** Files read ahead of the one being matched (reads overlap; results stay in tree order). */
const READ_AHEAD = 16;

/** The text a pattern without regex syntax stands for (matched with indexOf, no worker); `undefined` for a real regex. */
export function literalOf(regex: RegExp): string | undefined {
  if (regex.flags.replace(/[gyu]/g, '') !== '') return undefined;
  return /[\\^$.*+?()[\]{}|]/.test(regex.source) ? undefined : regex.source;
}

/**
 * Searches like `rg --sort path` without ripgrep: files in tree order (names sorted per folder),
 * ignore rules and glob overrides as rg applies them, symlinks and special files not followed,
 * files over 2 MB (32 MB for a file named as the path) and binary files (a NUL in the first
 * 8 KB) skipped and reported in `skipped`. Matching runs in a worker (`RegexWorker`) so a
 * backtracking pattern cannot block the event loop. Stops after one match past `maxMatches`.
 * Regex classes differ on non-ASCII text: JavaScript's `\w`, `\d`, `\b` are ASCII, rg's Unicode.
 */
export async function searchWithJs(input: JsSearchInput): Promise<SearchResult> {
  const matches: SearchMatch[] = [];
  const skipped = new Skipped();
  const literal = literalOf(input.regex);
  const worker = new RegexWorker(input.regex, input.signal, input.deadlineMs);
  const work = input.work ?? { filesRead: 0, regexBatches: 0 };
  // Files wait here to go to the worker together: one round trip for many small files.
  let batch: Array<{ rel: string; lines: string[] }> = [];
  let batchLines = 0;
  const matchBatch = async (): Promise<boolean> => {
    const files = batch;
    batch = [];
    batchLines = 0;
    const hits = files.length ? await worker.matchingLines(files.flatMap((f) => f.lines)) : [];
    let h = 0;
    let offset = 0;
    for (const file of files) {
      const lines = file.lines;
      const mine: number[] = [];
      for (; h < hits.length && hits[h]! < offset + lines.length; h++) mine.push(hits[h]! - offset);
      offset += lines.length;
      if (take(file.rel, lines, mine)) return true;
    }
    return false;
  };
  /** Adds a file's matches; true once the list is full (one past `maxMatches` was found). */
  const take = (rel: string, lines: readonly string[], hits: readonly number[]): boolean => {
    for (const i of hits) {
      if (matches.length === input.maxMatches) return true;
      matches.push(buildMatch(rel, i + 1, input.contextLines, (n) => lines[n - 1]));
    }
    return false;
  };
  let truncated = false;
  try {
    for await (const { rel, lines } of readAhead(candidateFiles(input, skipped), input, literal, work)) {
      throwIfAborted(input.signal);
      if (lines === 'binary') {
        skipped.add({ path: rel, reason: 'binary', size: (await stat(path.join(input.root, rel)).catch(() => undefined))?.size ?? 0 });
        continue;
      }
      if (!lines) continue;
      if (literal !== undefined) {
        truncated = take(rel, lines, literalHits(lines, literal));
      } else {
        batch.push({ rel, lines });
        batchLines += lines.length;
        if (batchLines >= BATCH_LINES || batch.length >= BATCH_FILES) truncated = await matchBatch();
      }
      if (truncated) break;
    }
    if (!truncated) truncated = await matchBatch();
  } finally {
    work.regexBatches += worker.batches;
    worker.dispose();
  }
  return { matches, truncated, engine: 'js', ...skipped.result() };
}

/** A batch for the regex worker closes at this many lines or files. */
const BATCH_LINES = 20_000;
const BATCH_FILES = 64;

/** Line indices holding `literal` (a plain string cannot backtrack: no worker needed). */
function literalHits(lines: readonly string[], literal: string): number[] {
  const hits: number[] = [];
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes(literal)) hits.push(i);
  return hits;
}

/** The candidate files' lines, in order, with up to READ_AHEAD reads in flight. A file without the literal is not split into lines. */
async function* readAhead(files: AsyncGenerator<string>, input: JsSearchInput, literal: string | undefined, work: { filesRead: number }): AsyncGenerator<{ rel: string; lines: Lines }> {
  const queue: Array<{ rel: string; lines: Promise<Lines> }> = [];
  const start = (rel: string) => {
    work.filesRead += 1;
    queue.push({ rel, lines: readTextLines(path.join(input.root, rel), !input.scope.isFile, literal) });
  };
  try {
    for await (const rel of files) {
      start(rel);
      if (queue.length >= READ_AHEAD) {
        const next = queue.shift()!;
        yield { rel: next.rel, lines: await next.lines };
      }
    }
    while (queue.length) {
      const next = queue.shift()!;
      yield { rel: next.rel, lines: await next.lines };
    }
  } finally {
    // Stopped early (enough matches, abort): the reads in flight still settle, their handles closed.
    await Promise.allSettled(queue.map((q) => q.lines));
  }
}

/** Files a search left out: the first few by name, all of them counted. */
class Skipped {
  private readonly listed: SkippedFile[] = [];
  private count = 0;
  add(file: SkippedFile): void {
    this.count++;
    if (this.listed.length < MAX_SKIPPED_LISTED) this.listed.push(file);
  }
  result(): Pick<SearchResult, 'skipped' | 'skippedCount'> {
    // Sizes are judged while walking, binaries while reading (files ahead): list them in tree order.
    const listed = [...this.listed].sort((a, b) => treeOrder(a.path, b.path));
    return this.count === 0 ? {} : { skipped: listed, skippedCount: this.count };
  }
}

/** Tree order of two relative paths: folder by folder, names compared as the walk sorts them. */
function treeOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

async function* candidateFiles(input: JsSearchInput, skipped: Skipped): AsyncGenerator<string> {
  if (input.scope.isFile) {
    const size = (await stat(path.join(input.root, input.scope.rel)).catch(() => undefined))?.size ?? 0;
    if (size > MAX_NAMED_FILE_BYTES) skipped.add({ path: input.scope.rel, reason: 'size', size });
    else yield input.scope.rel;
    return;
  }
  yield* walk(input, input.scope.rel, skipped);
}

async function* walk(input: JsSearchInput, folderRel: string, skipped: Skipped): AsyncGenerator<string> {
  throwIfAborted(input.signal);
  const entries: { name: string; isDir: boolean }[] = [];
  let dir;
  try {
    dir = await opendir(path.join(input.root, folderRel));
  } catch {
    return; // unreadable folder: rg reports it on stderr and goes on
  }
  for await (const entry of dir) {
    // rg does not follow symlinks unless asked, and neither do we.
    if (entry.isDirectory()) entries.push({ name: entry.name, isDir: true });
    else if (entry.isFile()) entries.push({ name: entry.name, isDir: false });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // A folder's entries are judged together (ignore rules, sizes): the stats overlap, the order stays.
  const rels = entries.map((entry) => (folderRel === '' ? entry.name : `${folderRel}/${entry.name}`));
  const selected = await Promise.all(entries.map((entry, i) => isSelected(input, rels[i]!, entry.isDir, skipped)));
  for (let i = 0; i < entries.length; i++) {
    if (!selected[i]) continue;
    if (entries[i]!.isDir) yield* walk(input, rels[i]!, skipped);
    else yield rels[i]!;
  }
}

async function isSelected(input: JsSearchInput, rel: string, isDir: boolean, skipped: Skipped): Promise<boolean> {
  if (rel.split('/').includes('.git')) return false;
  const verdict = input.scope.compiledGlob?.verdict(rel, isDir);
  if (verdict === 'exclude') return false;
  if (verdict !== 'include' && (await input.rules.isIgnored(rel, isDir))) return false;
  if (isDir) return true;
  const size = (await stat(path.join(input.root, rel)).catch(() => undefined))?.size;
  if (size === undefined) return false;
  if (size <= MAX_SEARCH_FILE_BYTES) return true;
  skipped.add({ path: rel, reason: 'size', size });
  return false;
}

/** A file's lines, `'binary'`, or `undefined` (unreadable, not a regular file, or without the literal: nothing to match). */
type Lines = string[] | 'binary' | undefined;

/** The file's lines without terminators; `'binary'` for a binary file (when `skipBinary`); `undefined` when unreadable or not a regular file, or when it lacks `literal`. */
async function readTextLines(file: string, skipBinary: boolean, literal?: string): Promise<Lines> {
  let handle;
  try {
    // Non-blocking: a FIFO put in place of a file after the walk must not hang the search.
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const bytes = await handle.readFile();
    if (skipBinary && bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return 'binary';
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text === '') return [];
    if (literal !== undefined && !text.includes(literal)) return undefined;
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  } finally {
    await handle.close();
  }
}
