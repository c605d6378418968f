import { diffLines } from '../../../shared/lineDiff';
import { hasCopiedGutter, numberLines } from './lineGutter';

/** The file lines most like a search block that was not found (0-based, end exclusive). */
export interface ClosestRegion {
  start: number;
  end: number;
  /** Search lines equal to their file line when whitespace and case are ignored. */
  sameLines: number;
}

const looseKey = (line: string): string => line.replace(/\s+/g, '').toLowerCase();

/** Picks the window start with the highest vote; ties go to the earliest. */
function bestStart(votes: Float64Array, shift: number): number | undefined {
  let best = -1;
  for (let i = 0; i < votes.length; i++) if (votes[i]! > 0 && (best < 0 || votes[i]! > votes[best]!)) best = i;
  return best < 0 ? undefined : best - shift;
}

/**
 * The window of `search.length` file lines most like `search`: each search line that occurs in the
 * file (whitespace and case ignored) votes for the window it would start; when no line occurs,
 * the search's identifiers vote instead, rare ones weighing more. `undefined` when nothing is alike.
 */
export function findClosestRegion(fileLines: readonly string[], search: readonly string[]): ClosestRegion | undefined {
  const n = fileLines.length;
  const m = search.length;
  if (n === 0 || m === 0) return undefined;
  const votes = new Float64Array(n + m);
  // Whitespace-trimmed lines first (cheap); whitespace- and case-blind keys only if none agree.
  for (const key of [(line: string) => line.trim(), looseKey]) {
    const keyed = new Map<string, number[]>();
    search.forEach((line, i) => {
      const k = key(line);
      if (k !== '') keyed.set(k, [...(keyed.get(k) ?? []), i]);
    });
    for (let j = 0; j < n; j++) {
      const hits = keyed.get(key(fileLines[j]!));
      if (hits) for (const i of hits) votes[j - i + m]! += 1;
    }
    if (bestStart(votes, m) !== undefined) break;
  }
  let start = bestStart(votes, m);
  if (start === undefined) {
    const tokens = new Map<string, number[]>();
    search.forEach((line, i) => {
      for (const token of line.match(/[A-Za-z_$][\w$]{2,}|\d{3,}/g) ?? []) tokens.set(token, [...(tokens.get(token) ?? []), i]);
    });
    const chosen = [...tokens.keys()].sort((x, y) => y.length - x.length).slice(0, 12);
    for (const token of chosen) {
      const hits: number[] = [];
      for (let j = 0; j < n; j++) if (fileLines[j]!.includes(token)) hits.push(j);
      for (const j of hits) for (const i of tokens.get(token)!) votes[j - i + m]! += 1 / hits.length;
    }
    start = bestStart(votes, m);
    if (start === undefined) return undefined;
  }
  const from = Math.max(0, start);
  const to = Math.min(n, start + m);
  let sameLines = 0;
  for (let j = from; j < to; j++) if (looseKey(fileLines[j]!) === looseKey(search[j - start]!)) sameLines++;
  return { start: from, end: to, sameLines };
}

const MAX_SHOWN_DIFFERENCES = 12;

/**
 * Explains why `search` was not found: the closest region with line numbers and the lines that
 * differ (`-` the search, `+` the file), or that nothing similar exists.
 */
export function explainNoMatch(fileLines: readonly string[], search: readonly string[]): string {
  const parts: string[] = [];
  if (search.some((line) => hasCopiedGutter(line))) {
    parts.push("Some lines of your search text start with read_file's line numbers (`12<tab>`); search for the file's text without them.");
  }
  const region = findClosestRegion(fileLines, search);
  if (!region) {
    parts.push('No similar lines exist in the file; read it again to see its current content.');
    return parts.join('\n');
  }
  const window = fileLines.slice(region.start, region.end);
  parts.push(
    `The closest region is lines ${region.start + 1}-${region.end} (${region.sameLines} of ${search.length} search lines are the same there, ignoring whitespace and case):`,
    numberLines(window, region.start + 1),
  );
  const differences: string[] = [];
  const trimmedSearch = search.map((line) => line.trim());
  const trimmedWindow = window.map((line) => line.trim());
  for (const change of diffLines(trimmedSearch, trimmedWindow)) {
    for (let i = change.aStart; i < change.aEnd; i++) differences.push(`- ${search[i]}`);
    for (let j = change.bStart; j < change.bEnd; j++) differences.push(`+ ${numberLines([window[j]!], region.start + 1 + j)}`);
  }
  if (differences.length > 0) {
    const shown = differences.slice(0, MAX_SHOWN_DIFFERENCES);
    if (differences.length > shown.length) shown.push(`... ${differences.length - shown.length} more differing lines`);
    parts.push('What differs (- your search, + the file):', ...shown);
  }
  parts.push('Copy the exact current lines into `search` (read_file shows them) and try again.');
  return parts.join('\n');
}
