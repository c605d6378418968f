import { CancelledError, isCancellation, throwIfAborted } from '../../errors';
import type { FileRange, Workspace } from '../../ports';

/** A point every this many lines… */
const LINE_STRIDE = 1_000;
/** …or this many bytes, whichever comes first (long lines), so a window is found by reading little. */
const BYTE_STRIDE = 256 * 1024;
/** Beyond this many points, every other one is dropped and the strides double (bounded memory per file). */
const MAX_POINTS = 1 << 15;
/** Line starts found by windows (the next window's start), kept apart from the scan's points. */
const MAX_EXACT = 256;
/** Files indexed per workspace; the least recently used is dropped first. */
const MAX_INDEXED_FILES = 32;
/** Read size when the workspace has no `readChunks`. */
const FALLBACK_CHUNK_BYTES = 1 << 20;
const NL = 0x0a;

/** Which version of a file an index describes: any difference and the index is dropped. */
export interface FileVersion {
  size: number;
  mtimeMs: number;
  ino?: number;
}

/** A line and the byte offset where it starts. */
export interface LineStart {
  line: number;
  offset: number;
}

/**
 * Sparse line starts of one version of one file (every 1,000th line or 256 KB), filled in by one
 * forward scan that runs in the background, so a window deep in the file is found by reading
 * forward from the nearest point instead of from the top.
 */
export interface LineIndex {
  readonly version: FileVersion;
  /** Ascending; `lines[0]` is 1 at `offsets[0]`, the body's start (past a byte-order mark). */
  readonly lines: number[];
  readonly offsets: number[];
  lineStride: number;
  byteStride: number;
  /** Beyond this many points, every other one is dropped and the strides double. */
  readonly maxPoints: number;
  /** Line starts found by windows, by line (insertion order: oldest first). */
  readonly exact: Map<number, number>;
  /** Bytes before this offset are scanned. */
  scannedTo: number;
  /** Every line up to this one starts before `scannedTo`: it is near a point. */
  scannedLines: number;
  /** Lines in the file, once a scan reached its end. */
  totalLines?: number;
  /** The scan running now, if any (it stops when its signal aborts or the index is dropped). */
  scan?: Promise<void>;
  /** The file changed or the index was evicted: nothing in it may be used any more. */
  dropped: boolean;
  /** Woken when the scan moves on, stops, or the index is dropped. */
  readonly waiters: Set<() => void>;
  /** Bytes the scans have read (what a test counts). */
  bytesScanned: number;
}

/** Per workspace, per path, in least-recently-used order. */
const indexes = new WeakMap<Workspace, Map<string, LineIndex>>();

/** Same file version (a file system that reports no time gives nothing to trust, so never the same). */
export function sameVersion(a: FileVersion, b: FileVersion | FileRange): boolean {
  return a.mtimeMs !== 0 && a.size === b.size && a.mtimeMs === b.mtimeMs && (a.ino === undefined || b.ino === undefined || a.ino === b.ino);
}

/** How dense an index starts and how many points it may hold (the defaults; tests make them small). */
export interface LineIndexLimits {
  lineStride: number;
  byteStride: number;
  maxPoints: number;
}

const DEFAULT_LIMITS: LineIndexLimits = { lineStride: LINE_STRIDE, byteStride: BYTE_STRIDE, maxPoints: MAX_POINTS };

/** The index of this version of `path` (kept, or a new empty one with `limits`; an index of another version is dropped). */
export function lineIndexFor(workspace: Workspace, path: string, version: FileVersion, bodyStart: number, limits = DEFAULT_LIMITS): LineIndex {
  let files = indexes.get(workspace);
  if (!files) indexes.set(workspace, (files = new Map()));
  const known = files.get(path);
  files.delete(path);
  if (known && sameVersion(known.version, version)) {
    files.set(path, known);
    return known;
  }
  if (known) drop(known);
  const index: LineIndex = {
    version, lines: [1], offsets: [bodyStart], lineStride: limits.lineStride, byteStride: limits.byteStride, maxPoints: limits.maxPoints, exact: new Map(),
    scannedTo: bodyStart, scannedLines: 1, dropped: false, waiters: new Set(), bytesScanned: 0,
  };
  // Nothing is kept for a version that cannot be recognised again.
  if (version.mtimeMs === 0) return index;
  files.set(path, index);
  if (files.size > MAX_INDEXED_FILES) {
    const oldest = files.keys().next().value!;
    drop(files.get(oldest)!);
    files.delete(oldest);
  }
  return index;
}

/** Forgets the index of `path` in `workspace` (the file changed under it). */
export function dropLineIndex(workspace: Workspace, path: string, index: LineIndex): void {
  const files = indexes.get(workspace);
  if (files?.get(path) === index) files.delete(path);
  drop(index);
}

function drop(index: LineIndex): void {
  index.dropped = true;
  wake(index);
}

function wake(index: LineIndex): void {
  for (const waiter of [...index.waiters]) waiter();
}

/** Remembers where `line` starts (a window's next line), so paging on needs no scan. */
export function rememberLineStart(index: LineIndex, line: number, offset: number): void {
  if (index.dropped || index.version.mtimeMs === 0) return;
  index.exact.delete(line);
  index.exact.set(line, offset);
  if (index.exact.size > MAX_EXACT) index.exact.delete(index.exact.keys().next().value!);
}

/** The known line start nearest before (or at) `line`: a scan point or a remembered window start. */
export function nearestLineStart(index: LineIndex, line: number): LineStart {
  let lo = 0;
  let hi = index.lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (index.lines[mid]! <= line) lo = mid;
    else hi = mid - 1;
  }
  let best: LineStart = { line: index.lines[lo]!, offset: index.offsets[lo]! };
  for (const [known, offset] of index.exact) if (known <= line && known > best.line) best = { line: known, offset };
  return best;
}

/**
 * Starts the background scan of `path` unless one runs or it is done. It reads the file once, front
 * to back, through `readChunks` (or 1 MB `readRange`s), counting newlines on the raw bytes, and
 * stops at `signal`, at a change of the file, or when the index is dropped.
 */
export function startLineScan(workspace: Workspace, path: string, index: LineIndex, signal?: AbortSignal): void {
  if (index.scan || index.dropped || index.totalLines !== undefined || signal?.aborted) return;
  index.scan = scanToEnd(workspace, path, index, signal)
    .catch((error: unknown) => {
      // Cancelled: a later call goes on from where this one stopped. Anything else (the file
      // went away, a read failed): the index is not trusted; the call that reads next says why.
      if (!(error instanceof CancelledError) && !isCancellation(error)) dropLineIndex(workspace, path, index);
    })
    .finally(() => {
      index.scan = undefined;
      wake(index);
    });
}

async function scanToEnd(workspace: Workspace, path: string, index: LineIndex, signal?: AbortSignal): Promise<void> {
  let endsWithNewline = false;
  for await (const chunk of chunksFrom(workspace, path, index.scannedTo, signal)) {
    if (index.dropped) return;
    // An index that is not kept (no time to recognise the version by) serves one call only.
    if (index.version.mtimeMs !== 0 && !sameVersion(index.version, chunk)) return dropLineIndex(workspace, path, index);
    countChunk(index, chunk.bytes);
    endsWithNewline = chunk.bytes[chunk.bytes.length - 1] === NL;
    wake(index);
  }
  if (index.dropped || index.scannedTo < index.version.size) return;
  // A final newline starts no line of its own.
  index.totalLines = endsWithNewline ? index.scannedLines - 1 : index.scannedLines;
  index.scannedLines = index.totalLines;
}

/** Counts the newlines of the next scanned chunk (no decoding, no per-line objects), adding a point at each stride. */
function countChunk(index: LineIndex, bytes: Uint8Array): void {
  const base = index.scannedTo;
  let line = index.scannedLines;
  let lastLine = index.lines[index.lines.length - 1]!;
  let lastOffset = index.offsets[index.offsets.length - 1]!;
  for (let i = bytes.indexOf(NL); i !== -1; i = bytes.indexOf(NL, i + 1)) {
    line++;
    const start = base + i + 1;
    if ((line - lastLine >= index.lineStride || start - lastOffset >= index.byteStride) && start < index.version.size) {
      index.lines.push(line);
      index.offsets.push(start);
      if (index.lines.length > index.maxPoints) thin(index);
      lastLine = index.lines[index.lines.length - 1]!;
      lastOffset = index.offsets[index.offsets.length - 1]!;
    }
  }
  index.scannedTo = base + bytes.length;
  index.scannedLines = line;
  index.bytesScanned += bytes.length;
}

/** Keeps every other point (always the first) and doubles the strides. */
function thin(index: LineIndex): void {
  let kept = 0;
  for (let i = 0; i < index.lines.length; i += 2, kept++) {
    index.lines[kept] = index.lines[i]!;
    index.offsets[kept] = index.offsets[i]!;
  }
  index.lines.length = kept;
  index.offsets.length = kept;
  index.lineStride *= 2;
  index.byteStride *= 2;
}

async function* chunksFrom(workspace: Workspace, path: string, offset: number, signal?: AbortSignal): AsyncIterable<FileRange> {
  if (workspace.readChunks) {
    yield* workspace.readChunks(path, offset, signal);
    return;
  }
  for (let at = offset; ; ) {
    throwIfAborted(signal);
    const chunk = await workspace.readRange(path, { offset: at, length: FALLBACK_CHUNK_BYTES }, signal);
    if (chunk.bytes.length === 0) return;
    yield chunk;
    at += chunk.bytes.length;
  }
}

/** Resolves when the scan moves on, stops or the index is dropped; `CancelledError` when `signal` aborts first. */
export function lineScanProgress(index: LineIndex, signal?: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      index.waiters.delete(done);
      signal?.removeEventListener('abort', cancel);
      resolve();
    };
    const cancel = () => {
      index.waiters.delete(done);
      reject(new CancelledError());
    };
    index.waiters.add(done);
    signal?.addEventListener('abort', cancel, { once: true });
  });
}

/** Resolves when no line scan of `workspace` runs (benches and tests wait for the background work). */
export async function lineScansSettled(workspace: Workspace): Promise<void> {
  const running = [...(indexes.get(workspace)?.values() ?? [])].flatMap((index) => (index.scan ? [index.scan] : []));
  await Promise.all(running);
}

/** The index of `path` kept for `workspace`, if any (tests and messages). */
export function keptLineIndex(workspace: Workspace, path: string): LineIndex | undefined {
  return indexes.get(workspace)?.get(path);
}
