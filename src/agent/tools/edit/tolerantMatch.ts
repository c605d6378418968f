import { indentOf, indentWidth, isBlank } from './indentation';

/** A run of whole lines of the text that equals a search block when whitespace is ignored. */
export interface TolerantCandidate {
  /** Offset of the first line's first character. */
  start: number;
  /** Offset just past the last line's content (before its terminator). */
  end: number;
  /** The matched lines without terminators. */
  lines: string[];
}

/** Where a search block matched when whitespace is ignored. */
export interface TolerantMatches {
  /** The matches that remain after preferring consistent indentation. */
  best: TolerantCandidate[];
  /** Every match, for messages. */
  all: TolerantCandidate[];
}

const stripCr = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line);

/** The line before the one starting at `lineStart`, or `undefined` at the top. */
function previousLine(text: string, lineStart: number): { start: number; line: string } | undefined {
  if (lineStart === 0) return undefined;
  const terminator = lineStart - 1;
  const start = terminator === 0 ? 0 : text.lastIndexOf('\n', terminator - 1) + 1;
  return { start, line: stripCr(text.slice(start, terminator)) };
}

/** The line after the one whose content ends at `contentEnd`, or `undefined` at the bottom. */
function nextLine(text: string, contentEnd: number): { end: number; line: string } | undefined {
  const terminator = text.indexOf('\n', contentEnd);
  // No terminator, or a final one with nothing after it: there is no next line.
  if (terminator === -1 || terminator + 1 >= text.length) return undefined;
  const start = terminator + 1;
  const nl = text.indexOf('\n', start);
  const raw = text.slice(start, nl === -1 ? text.length : nl);
  const line = nl === -1 ? raw : stripCr(raw);
  return { end: start + line.length, line };
}

/** Collects the candidate whose anchor line spans [lineStart, lineEnd), if all its lines match. */
function candidateAt(text: string, lineStart: number, anchorLine: string, anchor: number, bodies: readonly string[]): TolerantCandidate | undefined {
  const lines = [anchorLine];
  let start = lineStart;
  for (let i = anchor - 1; i >= 0; i--) {
    const prev = previousLine(text, start);
    if (!prev || prev.line.trim() !== bodies[i]) return undefined;
    lines.unshift(prev.line);
    start = prev.start;
  }
  let end = lineStart + anchorLine.length;
  for (let i = anchor + 1; i < bodies.length; i++) {
    const next = nextLine(text, end);
    if (!next || next.line.trim() !== bodies[i]) return undefined;
    lines.push(next.line);
    end = next.end;
  }
  return { start, end, lines };
}

/** Whether `lines` indent like `search`, up to one constant shift (`exact`: identically). */
function sameRelativeIndent(lines: readonly string[], search: readonly string[], exact: boolean): boolean {
  let delta: number | undefined;
  for (let i = 0; i < search.length; i++) {
    if (isBlank(search[i]!)) continue;
    const fileIndent = indentOf(lines[i]!);
    const searchIndent = indentOf(search[i]!);
    if (exact) {
      if (fileIndent !== searchIndent) return false;
      continue;
    }
    const d = indentWidth(fileIndent) - indentWidth(searchIndent);
    if (delta === undefined) delta = d;
    else if (d !== delta) return false;
  }
  return true;
}

/**
 * Finds the `search` lines in `text` comparing whole lines with leading and trailing whitespace
 * and line endings ignored. Works on offsets around occurrences of the first non-blank search
 * line, so a large file is not split into lines. When several places match, those indented like
 * the search block up to one constant shift are preferred, then those indented identically; the
 * caller refuses when more than one remains.
 */
export function findTolerant(text: string, search: readonly string[]): TolerantMatches {
  const bodies = search.map((line) => line.trim());
  const anchor = bodies.findIndex((body) => body !== '');
  if (anchor < 0) return { best: [], all: [] };
  const needle = bodies[anchor]!;
  const all: TolerantCandidate[] = [];
  for (let at = text.indexOf(needle); at !== -1; ) {
    const lineStart = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    const nl = text.indexOf('\n', at);
    const lineEnd = nl === -1 ? text.length : nl;
    const raw = text.slice(lineStart, lineEnd);
    const line = nl === -1 ? raw : stripCr(raw);
    if (line.trim() === needle) {
      const candidate = candidateAt(text, lineStart, line, anchor, bodies);
      if (candidate) all.push(candidate);
    }
    at = nl === -1 ? -1 : text.indexOf(needle, nl + 1);
  }
  if (all.length <= 1) return { best: all, all };
  let best = all.filter((c) => sameRelativeIndent(c.lines, search, false));
  if (best.length > 1) {
    const exact = best.filter((c) => sameRelativeIndent(c.lines, search, true));
    if (exact.length > 0) best = exact;
  }
  return { best, all };
}
