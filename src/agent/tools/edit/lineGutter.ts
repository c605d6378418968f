/**
 * The line-number gutter the reading tools show (`read_file`, `read_output`, edit hints): every
 * line starts with a gutter column ended by a tab, then the line as it is. The column holds the
 * 1-based number on a window's first line and on every line whose number is a multiple of
 * `GUTTER_NUMBER_EVERY` (`10\tconst x = 1;`), and is empty on the others (`\tconst y = 2;`), as
 * printed listings number every fifth line. Chosen by measurement (bench/readFormat.ts): numbering
 * every line costs at least one token a line, more than the 12% saving the gutter had to find over
 * the earlier padded `  12| `; a sparse column keeps every line's number one short count away and
 * stays unambiguous, since the line's text always starts after the first tab.
 */
export const GUTTER_NUMBER_EVERY = 5;

/** One line with its gutter; `firstOfWindow` writes the number whatever it is. */
export function gutterLine(lineNumber: number, text: string, firstOfWindow = false): string {
  const numbered = firstOfWindow || lineNumber % GUTTER_NUMBER_EVERY === 0;
  return `${numbered ? lineNumber : ''}\t${text}`;
}

/** Lines with the gutter, the first numbered `firstLineNumber`, joined by `\n`. */
export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, i) => gutterLine(firstLineNumber + i, line, i === 0)).join('\n');
}

/**
 * A gutter a model may have copied from what it read: today's `12\t`, or the earlier `  12| `
 * (models copy what they saw in older transcripts too). On an empty line the separator may have
 * been trimmed away with the trailing whitespace (`12`, `12|`).
 */
const COPIED_GUTTER = /^[ \t]*(\d+)(?:\t|\| ?|$)/;

/** Today's gutter on a line whose number is not written: the empty column, one tab. */
const EMPTY_GUTTER = '\t';

/** What `stripCopiedGutter` found: the block without its gutters. */
export interface StrippedBlock {
  text: string;
  /** Lines that carried a gutter. */
  numbered: number;
  /** The first line number. */
  first: number;
}

/**
 * `block` without the line-number gutters a model copied from a read, or `undefined` when the
 * block is not such a copy: every line that is not blank must start with a gutter (a number, or
 * today's empty column, one tab), the written numbers must rise from line to line, and at least
 * one line must be numbered. Blank lines may lack the gutter (models drop it with the trailing
 * whitespace). Line terminators are kept as they are.
 */
export function stripCopiedGutter(block: string): StrippedBlock | undefined {
  const parts = block.split(/(\r?\n)/);
  let previous = -1;
  let numbered = 0;
  let first = -1;
  let unnumberedAbove = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i]!;
    const gutter = COPIED_GUTTER.exec(line);
    if (!gutter) {
      if (line.startsWith(EMPTY_GUTTER)) {
        parts[i] = line.slice(EMPTY_GUTTER.length);
        if (first < 0) unnumberedAbove++;
      } else if (line.trim() !== '') return undefined;
      continue;
    }
    const n = Number(gutter[1]);
    if (n <= previous) return undefined;
    // Gutter lines above the first written number are its predecessors, one each.
    if (first < 0) first = n - unnumberedAbove;
    previous = n;
    numbered++;
    parts[i] = line.slice(gutter[0].length);
  }
  const text = parts.join('');
  // Numbers alone ("1\n2\n3") are content, not gutters: stripping them would leave nothing to find.
  return numbered > 0 && first >= 1 && text.trim() !== '' ? { text, numbered, first } : undefined;
}

/** A gutter with its separator written out (`12\t`, `12| `), as opposed to a line that is only a number. */
const EXPLICIT_GUTTER = /^[ \t]*\d+(?:\t|\| )/;

/** Whether some line of `block` starts with an explicit copied gutter (to refuse half-numbered text). */
export function hasCopiedGutter(block: string): boolean {
  return block.split(/\r?\n/).some((line) => EXPLICIT_GUTTER.test(line));
}
