/** Lines `a[aStart, aEnd)` were replaced by `b[bStart, bEnd)` (0-based, half-open; one side may be empty). */
export interface LineChange {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** Beyond this many differences the middle region is reported as one replacement (bounded time and memory). */
const MAX_EDIT_DISTANCE = 1000;

/**
 * The changed line ranges between `a` and `b`, in order: Myers' shortest edit script on the
 * region left after trimming the common prefix and suffix, so a small edit in a huge file costs
 * about one pass over the lines. Past `MAX_EDIT_DISTANCE` differences the rest is one change.
 */
export function diffLines(a: readonly string[], b: readonly string[]): LineChange[] {
  let prefix = 0;
  const minLength = Math.min(a.length, b.length);
  while (prefix < minLength && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < minLength - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const aEnd = a.length - suffix;
  const bEnd = b.length - suffix;
  if (prefix === aEnd && prefix === bEnd) return [];
  if (prefix === aEnd || prefix === bEnd) return [{ aStart: prefix, aEnd, bStart: prefix, bEnd }];

  // Lines become small integers so the inner loop compares numbers, not strings.
  const ids = new Map<string, number>();
  const intern = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const x = Int32Array.from(a.slice(prefix, aEnd), intern);
  const y = Int32Array.from(b.slice(prefix, bEnd), intern);
  const script = myers(x, y);
  if (!script) return [{ aStart: prefix, aEnd, bStart: prefix, bEnd }];
  return script.map((c) => ({ aStart: c.aStart + prefix, aEnd: c.aEnd + prefix, bStart: c.bStart + prefix, bEnd: c.bEnd + prefix }));
}

/** Myers' O((N+M)D) greedy algorithm with a trace for backtracking; `undefined` past the distance cap. */
function myers(a: Int32Array, b: Int32Array): LineChange[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && d <= MAX_EDIT_DISTANCE; d++) {
    // Snapshot of the diagonals step d reads (k-1 and k+1 for k in [-d, d]).
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let px = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let py = px - k;
      while (px < n && py < m && a[px] === b[py]) {
        px++;
        py++;
      }
      v[offset + k] = px;
      if (px >= n && py >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  if (found < 0) return undefined;

  // Walk back from (n, m) collecting single-line deletions and insertions, then merge runs.
  const steps: Array<{ kind: 'del' | 'ins'; ax: number; by: number }> = [];
  let px = n;
  let py = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d]!;
    const at = (k: number): number => prev[k + d + 1]!;
    const k = px - py;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (px > prevX && py > prevY) {
      px--;
      py--;
    }
    if (px === prevX) steps.push({ kind: 'ins', ax: px, by: prevY });
    else steps.push({ kind: 'del', ax: prevX, by: py });
    px = prevX;
    py = prevY;
  }
  steps.reverse();
  const changes: LineChange[] = [];
  for (const step of steps) {
    const last = changes[changes.length - 1];
    const aStart = step.ax;
    const bStart = step.by;
    const aEnd = step.kind === 'del' ? aStart + 1 : aStart;
    const bEnd = step.kind === 'ins' ? bStart + 1 : bStart;
    if (last && last.aEnd === aStart && last.bEnd === bStart) {
      last.aEnd = aEnd;
      last.bEnd = bEnd;
    } else {
      changes.push({ aStart, aEnd, bStart, bEnd });
    }
  }
  return changes;
}
