import { throwIfAborted } from '../../errors';
import type { FileRange, Workspace } from '../../ports';
import {
  dropLineIndex, keptLineIndex, lineIndexFor, lineScanProgress, nearestLineStart, rememberLineStart, sameVersion, startLineScan,
  type LineIndex, type LineStart,
} from './lineIndex';

/** Bytes read per step when reading forward from a known line start to the wanted line. */
const FORWARD_CHUNK_BYTES = 256 * 1024;
const NL = 0x0a;

/** Raw lines of one window, as bytes (decoded by the caller), with what is known about the rest of the file. */
export interface RawWindow {
  /** Each line's bytes without its `\n` (a `\r` before it stays; the caller drops it). */
  lines: Uint8Array[];
  /** The last line did not end within the bytes read: it goes on (how far is not known). */
  cut: boolean;
  /** 1-based number of the first line. */
  firstLine: number;
  /** The window reaches the end of the file. */
  atEnd: boolean;
  /** Lines in the file, when known (the file was scanned to its end now or before). */
  totalLines?: number;
  size: number;
}

/** The file a scan reads: where, and the signal that stops it. */
interface FileRef {
  workspace: Workspace;
  path: string;
  signal?: AbortSignal;
}

/**
 * Byte offset where line `line` starts; `undefined` when the file has fewer lines. Near a known
 * line start (a point the scan has passed, or where a window ended) it reads forward from there;
 * further on it waits for the file's one scan to pass the line (starting it if none runs).
 */
async function locateLine(file: FileRef, line: number, index: LineIndex): Promise<number | undefined> {
  for (;;) {
    if (index.totalLines !== undefined && line > index.totalLines) return undefined;
    // The file changed under the index: this call reads forward from the top, remembering nothing.
    if (index.dropped) return readForward(file, { line: 1, offset: index.offsets[0]! }, line, undefined);
    const near = nearestLineStart(index, line);
    if (line <= index.scannedLines || line - near.line <= index.lineStride) return readForward(file, near, line, index);
    startLineScan(file.workspace, file.path, index, file.signal);
    await lineScanProgress(index, file.signal);
  }
}

/** Reads forward from `from` to where `line` starts, counting newlines on the raw bytes; `undefined` past the end. */
async function readForward(file: FileRef, from: LineStart, line: number, index: LineIndex | undefined): Promise<number | undefined> {
  const { workspace, path, signal } = file;
  let current = from.line;
  let lineStart = from.offset;
  let readAt = lineStart;
  let size = index?.version.size ?? Number.POSITIVE_INFINITY;
  while (current < line && readAt < size) {
    throwIfAborted(signal);
    const chunk = await workspace.readRange(path, { offset: readAt, length: FORWARD_CHUNK_BYTES }, signal);
    check(file, index, chunk);
    size = chunk.size;
    const bytes = chunk.bytes;
    if (bytes.length === 0) break;
    for (let i = bytes.indexOf(NL); i !== -1 && current < line; i = bytes.indexOf(NL, i + 1)) {
      current++;
      lineStart = readAt + i + 1;
    }
    readAt += bytes.length;
  }
  if (current === line && lineStart < size) {
    if (index) rememberLineStart(index, line, lineStart);
    return lineStart;
  }
  // Past the end. A final newline starts no line of its own.
  if (index && !index.dropped) index.totalLines = lineStart < size ? current : current - 1;
  return undefined;
}

/** Drops the kept index when a read shows the file changed since it was built. */
function check(file: FileRef, index: LineIndex | undefined, chunk: FileRange): void {
  if (index && !index.dropped && index.version.mtimeMs !== 0 && !sameVersion(index.version, chunk)) dropLineIndex(file.workspace, file.path, index);
}

/** Waits until the scan has counted the whole file (starting it when none runs). */
async function untilCounted(file: FileRef, index: LineIndex): Promise<void> {
  while (index.totalLines === undefined && !index.dropped) {
    startLineScan(file.workspace, file.path, index, file.signal);
    if (!index.scan) return;
    await lineScanProgress(index, file.signal);
  }
}

/** What `readLineWindow` reads. */
export interface WindowRequest {
  path: string;
  /** 1-based. */
  startLine: number;
  maxLines: number;
  /** Most bytes read for the window; a line that does not end within them is cut (see `RawWindow.cut`). */
  maxBytes: number;
  /** Where the text starts (3 after a UTF-8 byte-order mark). */
  bodyStart: number;
  size: number;
  mtimeMs: number;
  /** The file's identity when known (see `FileRange.ino`). */
  ino?: number;
  /** Count the file's lines to its end when it is at most this big (cheap for small files). */
  countTotalUpTo: number;
}

/**
 * Reads lines `startLine…` of a file through `Workspace.readRange`, touching only the bytes of
 * the window plus a forward read from the nearest known line start. A file bigger than
 * `countTotalUpTo` gets its line index built by a background scan (lineIndex.ts), started by the
 * first window and reused by every later one; smaller files are counted to the end at once.
 * No lines (and `totalLines` when known) when `startLine` is past the end.
 */
export async function readLineWindow(workspace: Workspace, request: WindowRequest, signal?: AbortSignal): Promise<RawWindow> {
  const version = { size: request.size, mtimeMs: request.mtimeMs, ...(request.ino === undefined ? {} : { ino: request.ino }) };
  const index = lineIndexFor(workspace, request.path, version, request.bodyStart);
  const kept = keptLineIndex(workspace, request.path) === index;
  const file = { workspace, path: request.path, signal };
  try {
    // Off the model's path: the call goes on while the scan reads the file.
    if (kept && request.size > request.countTotalUpTo) startLineScan(workspace, request.path, index, signal);
    const start = await locateLine(file, request.startLine, index);
    if (start === undefined) return { lines: [], cut: false, firstLine: request.startLine, atEnd: true, totalLines: index.totalLines, size: request.size };
    const chunk = await workspace.readRange(request.path, { offset: start, length: request.maxBytes }, signal);
    check(file, index, chunk);
    const { lines, cut, next } = splitWindow(chunk.bytes, start, request);
    const atEnd = !cut && next >= request.size;
    const lastLine = request.startLine + lines.length - 1;
    if (atEnd && !index.dropped) index.totalLines = lastLine;
    else if (!cut) rememberLineStart(index, lastLine + 1, next);
    if (request.size <= request.countTotalUpTo) await untilCounted(file, index);
    const totalLines = index.dropped ? undefined : index.totalLines;
    return { lines, cut, firstLine: request.startLine, atEnd, totalLines, size: request.size };
  } finally {
    // An index that cannot be recognised again serves this call only: its scan stops here.
    if (!kept) dropLineIndex(workspace, request.path, index);
  }
}

/** The window's lines from the bytes read at `start`, and the offset after the last whole one. */
function splitWindow(bytes: Uint8Array, start: number, request: WindowRequest): { lines: Uint8Array[]; cut: boolean; next: number } {
  const lines: Uint8Array[] = [];
  let cut = false;
  let i = 0;
  while (lines.length < request.maxLines && i < bytes.length) {
    const nl = bytes.indexOf(NL, i);
    const end = nl === -1 ? bytes.length : nl;
    const complete = nl !== -1 || start + end >= request.size;
    // A partial line at the end of the read is left for the next window, unless it is the only one.
    if (!complete && lines.length > 0) break;
    lines.push(bytes.subarray(i, end));
    i = Math.min(end + 1, bytes.length);
    if (!complete) cut = true;
  }
  return { lines, cut, next: start + i };
}
