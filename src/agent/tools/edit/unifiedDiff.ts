import { diffLines, type LineChange } from '../../../shared/lineDiff';

/** Options of `unifiedDiff`. */
export interface UnifiedDiffOptions {
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
  /** The file did not exist before: the old side is `/dev/null`. */
  created?: boolean;
}

/** Line counts of a diff. */
export interface DiffStats {
  added: number;
  removed: number;
}

/** Splits text into lines that keep their terminators, so a changed line ending is a changed line. */
function splitKeepingEol(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    lines.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

function show(prefix: string, line: string, out: string[]): void {
  if (line.endsWith('\n')) {
    out.push(prefix + line.slice(0, line.endsWith('\r\n') ? -2 : -1));
  } else {
    out.push(prefix + line, '\\ No newline at end of file');
  }
}

function range(start: number, count: number): string {
  // Unified format: an empty range names the line before it.
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/** Groups changes whose gap is small enough that their context would touch. */
function groupHunks(changes: LineChange[], context: number): LineChange[][] {
  const groups: LineChange[][] = [];
  for (const change of changes) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (group && last && change.aStart - last.aEnd <= 2 * context) group.push(change);
    else groups.push([change]);
  }
  return groups;
}

/** Length of the common prefix of `a` and `b`, compared in blocks first (large files, small edits). */
function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  for (const block of [4096, 256, 16]) {
    while (i + block <= limit && a.slice(i, i + block) === b.slice(i, i + block)) i += block;
  }
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common suffix of `a` and `b`, not reaching into their first `floor` characters. */
function commonSuffix(a: string, b: string, floor: number): number {
  const limit = Math.min(a.length, b.length) - floor;
  let i = 0;
  for (const block of [4096, 256, 16]) {
    while (i + block <= limit && a.slice(a.length - i - block, a.length - i) === b.slice(b.length - i - block, b.length - i)) i += block;
  }
  while (i < limit && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/** Up to `count` whole lines of `text` ending at line start `end`. */
function linesBefore(text: string, end: number, count: number): string[] {
  let from = end;
  for (let i = 0; i < count && from > 0; i++) from = from < 2 ? 0 : text.lastIndexOf('\n', from - 2) + 1;
  return splitKeepingEol(text.slice(from, end));
}

/** Up to `count` whole lines of `text` starting at line start `start`. */
function linesAfter(text: string, start: number, count: number): string[] {
  let to = start;
  for (let i = 0; i < count && to < text.length; i++) {
    const nl = text.indexOf('\n', to);
    to = nl === -1 ? text.length : nl + 1;
  }
  return splitKeepingEol(text.slice(start, to));
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let nl = text.indexOf('\n'); nl !== -1 && nl < end; nl = text.indexOf('\n', nl + 1)) count++;
  return count;
}

/**
 * A unified diff (`--- a/path`, `+++ b/path`, `@@` hunks) of `before` -> `after`, `''` when they
 * are equal. The common head and tail are skipped as text before any line is split, so a small
 * change in a large file costs about one comparison pass.
 */
export function unifiedDiff(path: string, before: string, after: string, options: UnifiedDiffOptions = {}): string {
  if (before === after) return '';
  const context = options.context ?? 3;
  // The changed region, widened to whole lines of both texts.
  const prefix = commonPrefix(before, after);
  const head = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  let tail = commonSuffix(before, after, head);
  const tailStart = before.length - tail;
  if (tailStart > head && before[tailStart - 1] !== '\n') {
    const nl = before.indexOf('\n', tailStart);
    tail = nl === -1 ? 0 : before.length - (nl + 1);
  }
  const lead = linesBefore(before, head, context);
  const trail = linesAfter(before, before.length - tail, context);
  const a = [...lead, ...splitKeepingEol(before.slice(head, before.length - tail)), ...trail];
  const b = [...lead, ...splitKeepingEol(after.slice(head, after.length - tail)), ...trail];
  const firstLine = countNewlines(before, head) - lead.length;
  const changes = diffLines(a, b);
  const out = [options.created ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  for (const group of groupHunks(changes, context)) {
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const aStart = Math.max(0, first.aStart - context);
    const bStart = first.bStart - (first.aStart - aStart);
    const aEnd = Math.min(a.length, last.aEnd + context);
    const bEnd = last.bEnd + (aEnd - last.aEnd);
    out.push(`@@ -${range(firstLine + aStart, aEnd - aStart)} +${range(firstLine + bStart, bEnd - bStart)} @@`);
    let ai = aStart;
    for (const change of group) {
      for (; ai < change.aStart; ai++) show(' ', a[ai]!, out);
      for (let i = change.aStart; i < change.aEnd; i++) show('-', a[i]!, out);
      for (let i = change.bStart; i < change.bEnd; i++) show('+', b[i]!, out);
      ai = change.aEnd;
    }
    for (; ai < aEnd; ai++) show(' ', a[ai]!, out);
  }
  return out.join('\n') + '\n';
}

/** Lines added and removed, counted from a diff made by `unifiedDiff`. */
export function diffStats(diff: string): DiffStats {
  let added = 0;
  let removed = 0;
  // The first two lines are the `---` / `+++` headers; every later line starts with its kind.
  for (const line of diff.split('\n').slice(2)) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}
