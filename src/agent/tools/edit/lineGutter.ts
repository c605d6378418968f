/**
 * The line-number gutter the reading tools show (`read_file`, `read_output`, edit hints): the
 * 1-based number, a tab, the line as it is (`12\tconst x = 1;`). Chosen by measurement
 * (bench/readFormat.ts): about half the tokens of the earlier padded `  12| ` gutter and
 * unambiguous, since the number ends at the first tab whatever the line holds.
 */
export function gutterLine(lineNumber: number, text: string): string {
  return `${lineNumber}\t${text}`;
}

/** Lines with the gutter, the first numbered `firstLineNumber`, joined by `\n`. */
export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, i) => gutterLine(firstLineNumber + i, line)).join('\n');
}

/**
 * A gutter a model may have copied from what it read: today's `12\t`, or the earlier `  12| `
 * (models copy what they saw in older transcripts too). On an empty line the separator may have
 * been trimmed away with the trailing whitespace (`12`, `12|`).
 */
const COPIED_GUTTER = /^[ \t]*(\d+)(?:\t|\| ?|$)/;

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
 * block is not such a copy: every line that is not blank must start with a gutter, the numbers
 * must rise from line to line, and at least one line must be numbered. Blank lines may lack the
 * number (models drop it with the trailing whitespace). Line terminators are kept as they are.
 */
export function stripCopiedGutter(block: string): StrippedBlock | undefined {
  const parts = block.split(/(\r?\n)/);
  let previous = -1;
  let numbered = 0;
  let first = -1;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i]!;
    const gutter = COPIED_GUTTER.exec(line);
    if (!gutter) {
      if (line.trim() === '') continue;
      return undefined;
    }
    const n = Number(gutter[1]);
    if (n <= previous) return undefined;
    if (first < 0) first = n;
    previous = n;
    numbered++;
    parts[i] = line.slice(gutter[0].length);
  }
  const text = parts.join('');
  // Numbers alone ("1\n2\n3") are content, not gutters: stripping them would leave nothing to find.
  return numbered > 0 && text.trim() !== '' ? { text, numbered, first } : undefined;
}

/** A gutter with its separator written out (`12\t`, `12| `), as opposed to a line that is only a number. */
const EXPLICIT_GUTTER = /^[ \t]*\d+(?:\t|\| )/;

/** Whether some line of `block` starts with an explicit copied gutter (to refuse half-numbered text). */
export function hasCopiedGutter(block: string): boolean {
  return block.split(/\r?\n/).some((line) => EXPLICIT_GUTTER.test(line));
}
