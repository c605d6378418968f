/** A line terminator. */
export type Eol = '\n' | '\r\n';

/** The dominant line ending of `text` (LF when there is none or a tie). */
export function detectEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Rewrites every line ending of `text` to `eol`. */
export function normalizeEol(text: string, eol: Eol): string {
  return text.replace(/\r?\n/g, eol);
}

/** `text` cut into lines: contents without terminators, with where each starts and ends. */
export interface LineIndex {
  /** Line contents without `\n` or `\r\n`. */
  lines: string[];
  /** Offset of each line's first character; `starts[lines.length]` is the text's length. */
  starts: number[];
  /** Offset just past each line's content (before its terminator). */
  contentEnds: number[];
  /** Whether the last line ends with a terminator. */
  hasFinalNewline: boolean;
}

/** Indexes the lines of `text`; an empty text has no lines, a final terminator adds no empty line. */
export function indexLines(text: string): LineIndex {
  const raw = text.split('\n');
  const hasFinalNewline = text.length > 0 && raw[raw.length - 1] === '';
  if (hasFinalNewline || text.length === 0) raw.pop();
  const lines = new Array<string>(raw.length);
  const starts = new Array<number>(raw.length + 1);
  const contentEnds = new Array<number>(raw.length);
  let offset = 0;
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!;
    starts[i] = offset;
    const cr = line.length > 0 && line.charCodeAt(line.length - 1) === 13 && (i < raw.length - 1 || hasFinalNewline);
    lines[i] = cr ? line.slice(0, -1) : line;
    contentEnds[i] = offset + lines[i]!.length;
    offset += line.length + 1;
  }
  starts[raw.length] = text.length;
  return { lines, starts, contentEnds, hasFinalNewline };
}

/** Splits a block the model sent into lines: `\r\n` or `\n`, one final terminator ignored, `''` has none. */
export function splitBlock(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** 0-based line of `offset`, given the `starts` of a `LineIndex`. */
export function lineOfOffset(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}
