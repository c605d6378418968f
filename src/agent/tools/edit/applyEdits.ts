import { explainNoMatch } from './closestRegion';
import { detectIndentStyle, isBlank, reindent } from './indentation';
import { hasCopiedGutter, stripCopiedGutter } from './lineGutter';
import { findTolerant } from './tolerantMatch';
import { detectEol, indexLines, normalizeEol, splitBlock, type Eol } from './textLines';

/** One search/replace block of `edit_file`. */
export interface SearchReplace {
  search: string;
  replace: string;
}

/** How an edit found its place: verbatim, or with whitespace and line endings ignored. */
export type MatchKind = 'exact' | 'tolerant';

/** Where an edit landed in the edited text (1-based, inclusive; `endLine < startLine` for a deletion). */
export interface AppliedEdit {
  index: number;
  kind: MatchKind;
  startLine: number;
  endLine: number;
  /** The line numbers a model copied from read_file were taken out of `search` (and `replace`) to find it. */
  numbersRemoved?: true;
}

/** The edited text, or which edit failed and why (nothing applied). */
export type ApplyEditsResult =
  | { ok: true; text: string; applied: AppliedEdit[] }
  | { ok: false; index: number; message: string };

/** One applied edit: its 0-based start line, lines it now spans, and how the file's line count changed. */
type StepResult =
  | { ok: true; text: string; kind: MatchKind; start: number; lineCount: number; lineDelta: number; numbersRemoved?: true }
  | { ok: false; message: string; missing?: true };

const newlines = (text: string): number => text.split('\n').length - 1;

const MAX_LISTED = 10;

function listPlaces(places: string[]): string {
  const shown = places.slice(0, MAX_LISTED).join(', ');
  return places.length > MAX_LISTED ? `${shown}, ...` : shown;
}

const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t';

/**
 * Every start offset of `needle` in `text`, overlapping ones included. A needle that starts with
 * indentation does not count where it would start inside a longer run of it: `  go();` is not
 * found in `    go();`, where its indentation says it belongs elsewhere.
 */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  const indented = isSpace(needle[0]);
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (!indented || !isSpace(text[at - 1])) found.push(at);
  }
  return found;
}

/** 1-based lines of ascending offsets, counting newlines once. */
function linesOfOffsets(text: string, offsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const offset of offsets) {
    for (let nl = text.indexOf('\n', from); nl !== -1 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
      line++;
      from = nl + 1;
    }
    lines.push(line);
  }
  return lines;
}

function countLines(text: string): number {
  return text === '' ? 0 : splitBlock(text).length;
}

function applyExact(text: string, search: string, replace: string, eol: Eol): StepResult | undefined {
  let needle = search;
  let found = occurrences(text, needle);
  if (found.length === 0 && /\r?\n/.test(search)) {
    needle = normalizeEol(search, eol);
    if (needle !== search) found = occurrences(text, needle);
  }
  if (found.length === 0) return undefined;
  if (found.length > 1) {
    const lines = linesOfOffsets(text, found).map(String);
    return {
      ok: false,
      message: `the search text occurs ${found.length} times (at lines ${listPlaces(lines)}). Include more surrounding lines in \`search\` so it matches exactly one place.`,
    };
  }
  const replacement = replacementFor(replace, eol, text);
  const [from, to] = replacement === '' ? wholeLineDeletion(text, found[0]!, found[0]! + needle.length) : [found[0]!, found[0]! + needle.length];
  const [startLine] = linesOfOffsets(text, [from]);
  return {
    ok: true,
    text: text.slice(0, from) + replacement + text.slice(to),
    kind: 'exact',
    start: startLine! - 1,
    lineCount: countLines(replacement),
    lineDelta: newlines(replacement) - newlines(text.slice(from, to)),
  };
}

/**
 * The replacement in the file's line endings. In an LF file that has no `\r` at all, a `\r` the
 * model wrote (copied CRLF, a cut `\r\n`) is dropped rather than written as a stray character.
 */
function replacementFor(replace: string, eol: Eol, text: string): string {
  const normalized = normalizeEol(replace, eol);
  return eol === '\n' && !text.includes('\r') ? normalized.replace(/\r/g, '') : normalized;
}

/**
 * Deleting a block of whole lines takes their line break with it, so no empty line is left where
 * they were: [from, to) grows by the following line break, or by the preceding one at the end of
 * the file. A deletion inside a line stays as it is.
 */
function wholeLineDeletion(text: string, from: number, to: number): [number, number] {
  const atLineStart = from === 0 || text[from - 1] === '\n';
  if (!atLineStart || text[to - 1] === '\n') return [from, to];
  const next = text.startsWith('\r\n', to) ? 2 : text[to] === '\n' ? 1 : -1;
  if (next > 0) return [from, to + next];
  if (to === text.length && from > 0) return [from - (text[from - 2] === '\r' ? 2 : 1), to];
  return [from, to];
}

/**
 * A `search` that ends (or starts) with a line break and a non-empty `replace` that does not would
 * join two lines; models mean to replace the lines, so the replacement keeps the break.
 */
function keepLineBreaks(search: string, replace: string): string {
  if (replace === '') return replace;
  let out = replace;
  const trailing = /\r?\n$/.exec(search)?.[0];
  if (trailing && !/\n$/.test(out)) out += trailing;
  const leading = /^\r?\n/.exec(search)?.[0];
  if (leading && !/^\r?\n/.test(out)) out = leading + out;
  return out;
}

/** Drops up to `count` blank lines from the start (`fromEnd` false) or end of `lines`. */
function dropBlank(lines: string[], count: number, fromEnd: boolean): string[] {
  const out = [...lines];
  for (let i = 0; i < count && out.length > 0 && isBlank(fromEnd ? out[out.length - 1]! : out[0]!); i++) {
    if (fromEnd) out.pop();
    else out.shift();
  }
  return out;
}

function applyTolerant(text: string, search: string, replace: string, eol: Eol): StepResult {
  let searchLines = splitBlock(search);
  let replaceLines = splitBlock(replace);
  if (searchLines.every(isBlank)) return { ok: false, message: 'the search text is only whitespace and does not occur verbatim.' };
  let found = findTolerant(text, searchLines);
  if (found.all.length === 0) {
    // Blank lines around the block are the commonest drift; retry without them, on both sides.
    const lead = searchLines.findIndex((line) => !isBlank(line));
    const trail = searchLines.length - 1 - searchLines.findLastIndex((line) => !isBlank(line));
    if (lead + trail > 0) {
      const trimmed = searchLines.slice(lead, searchLines.length - trail);
      const retry = findTolerant(text, trimmed);
      if (retry.all.length > 0) {
        found = retry;
        searchLines = trimmed;
        replaceLines = dropBlank(dropBlank(replaceLines, lead, false), trail, true);
      }
    }
  }
  if (found.all.length === 0) {
    return { ok: false, message: `the search text was not found.\n${explainNoMatch(indexLines(text).lines, searchLines)}`, missing: true };
  }
  if (found.best.length !== 1) {
    const starts = linesOfOffsets(text, found.all.map((c) => c.start));
    const places = starts.map((line) => `${line}-${line + searchLines.length - 1}`);
    return {
      ok: false,
      message: `the search text matches ${found.all.length} places when whitespace is ignored (lines ${listPlaces(places)}) and none verbatim. Include more surrounding lines in \`search\`, copied exactly, so it matches one place.`,
    };
  }
  const match = found.best[0]!;
  const style = detectIndentStyle(match.lines) ?? detectIndentStyle(text.split('\n', 5000)) ?? 'space';
  const newLines = reindent(searchLines, match.lines, replaceLines, style);
  let next: string;
  if (newLines.length > 0) {
    next = text.slice(0, match.start) + replacementFor(newLines.join(eol), eol, text) + text.slice(match.end);
  } else {
    const nl = text.indexOf('\n', match.end);
    if (nl !== -1) next = text.slice(0, match.start) + text.slice(nl + 1);
    else if (match.start === 0) next = '';
    // Deleting the last lines of a file without a final newline: the line before loses its terminator.
    else next = text.slice(0, match.start - (text[match.start - 2] === '\r' ? 2 : 1));
  }
  const [startLine] = linesOfOffsets(text, [match.start]);
  return { ok: true, text: next, kind: 'tolerant', start: startLine! - 1, lineCount: newLines.length, lineDelta: newLines.length - searchLines.length };
}

/** One edit as written: verbatim, else whitespace-tolerant. */
function applyStep(text: string, search: string, replace: string, eol: Eol): StepResult {
  return applyExact(text, search, replace, eol) ?? applyTolerant(text, search, replace, eol);
}

/**
 * An edit whose `search` was not found and is a copy of numbered read output (`12<tab>text`, or
 * the older `  12| text`): found again without the numbers, and `replace` loses them too when
 * every line has one, starting at the same number. Any other `replace` with numbered lines is
 * refused, as no rule tells which digits are the model's. `undefined` when `search` is no such copy.
 */
function applyWithoutNumbers(text: string, edit: SearchReplace, eol: Eol): StepResult | undefined {
  const copied = stripCopiedGutter(edit.search);
  if (copied === undefined) return undefined;
  const search = copied.text;
  const note = 'line numbers copied from read_file were taken out of `search`, and then';
  // A numbered `replace` counts as copied when it starts at the same line as `search` (a file of
  // tab-separated rows may hold numbers of its own).
  const numberedReplace = stripCopiedGutter(edit.replace);
  const replace = numberedReplace?.first === copied.first ? numberedReplace.text : edit.replace;
  if (replace === edit.replace && hasCopiedGutter(replace)) {
    return { ok: false, message: `${note} \`replace\` still starts some lines with line numbers (\`12<tab>\`). Send \`search\` and \`replace\` as the file's text, without line numbers.` };
  }
  const kept = keepLineBreaks(search, replace);
  if (search === kept) return { ok: false, message: `${note} \`search\` and \`replace\` are identical, so it would change nothing.` };
  const step = applyStep(text, search, kept, eol);
  return step.ok ? { ...step, numbersRemoved: true } : { ok: false, message: `${note} ${step.message}` };
}

/**
 * Applies search/replace edits in order, each to the result of the previous ones; all or none.
 * An edit's `search` must occur exactly once verbatim (CRLF/LF ignored); failing that, exactly
 * once comparing whole lines without their indentation and trailing whitespace, in which case the
 * replacement is re-indented to the file's indentation. Replacements take the file's line endings
 * and the file keeps its final-newline state. Ambiguous or missing matches fail with a message
 * for the model (counts and line numbers, or the closest region and what differs). A `search`
 * not found that carries read_file's line numbers is tried again without them (see
 * `applyWithoutNumbers`).
 */
export function applyEdits(original: string, edits: readonly SearchReplace[]): ApplyEditsResult {
  if (edits.length === 0) return { ok: false, index: 0, message: '`edits` is empty: give at least one {search, replace} block.' };
  let text = original;
  const steps: Array<{ index: number; kind: MatchKind; start: number; lineCount: number; lineDelta: number; numbersRemoved?: true }> = [];
  for (let index = 0; index < edits.length; index++) {
    const { search } = edits[index]!;
    const replace = keepLineBreaks(search, edits[index]!.replace);
    const where = `edits[${index}]`;
    const after = index > 0 ? ` (in the file as changed by the edits before it)` : '';
    if (search === '') {
      return { ok: false, index, message: `${where}: \`search\` is empty. Give the exact lines to replace; to create or overwrite a whole file use write_file.` };
    }
    if (search === replace) {
      const only = search === edits[index]!.replace ? '' : ' apart from a line break at the start or end (which is kept, so lines are never joined by accident; to join lines, put both in `search` and write them joined in `replace`)';
      return { ok: false, index, message: `${where}: \`search\` and \`replace\` are identical${only}, so it would change nothing.` };
    }
    const eol = detectEol(text);
    const first = applyStep(text, search, replace, eol);
    const step = !first.ok && first.missing ? (applyWithoutNumbers(text, edits[index]!, eol) ?? first) : first;
    if (!step.ok) return { ok: false, index, message: `${where}${after}: ${step.message}` };
    // A later edit above an earlier one moves it down or up.
    for (const earlier of steps) if (step.start < earlier.start) earlier.start += step.lineDelta;
    const { kind, start, lineCount, lineDelta, numbersRemoved } = step;
    steps.push({ index, kind, start, lineCount, lineDelta, ...(numbersRemoved ? { numbersRemoved } : {}) });
    text = step.text;
  }
  const applied = steps.map((s) => ({
    index: s.index,
    kind: s.kind,
    startLine: s.start + 1,
    endLine: s.start + s.lineCount,
    ...(s.numbersRemoved ? { numbersRemoved: s.numbersRemoved } : {}),
  }));
  return { ok: true, text, applied };
}
