import { diffLines } from '../../../shared/lineDiff';

/** Columns a tab counts for when indentation in tabs and spaces is compared. */
const TAB_WIDTH = 4;

/** How a file indents. */
export type IndentStyle = 'tab' | 'space';

/** The leading whitespace of `line`. */
export function indentOf(line: string): string {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.slice(0, i);
}

/** Width of an indentation in columns, a tab counting `TAB_WIDTH`. */
export function indentWidth(indent: string): number {
  let width = 0;
  for (const ch of indent) width += ch === '\t' ? TAB_WIDTH : 1;
  return width;
}

/** Whether the line is empty or only whitespace. */
export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/**
 * Whether `lines` indent with tabs or spaces: the majority of indented lines wins; `undefined`
 * when none is indented. Looks at no more than `limit` lines.
 */
export function detectIndentStyle(lines: readonly string[], limit = 5000): IndentStyle | undefined {
  let tabs = 0;
  let spaces = 0;
  for (let i = 0; i < lines.length && i < limit; i++) {
    const first = lines[i]![0];
    if (first === '\t') tabs++;
    else if (first === ' ' && !isBlank(lines[i]!)) spaces++;
  }
  if (tabs === 0 && spaces === 0) return undefined;
  return tabs > spaces ? 'tab' : 'space';
}

/** The most common indentation step between consecutive indented lines written with spaces (default 4). */
function spaceUnit(lines: readonly string[]): number {
  const counts = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const indent = indentOf(line);
    if (indent.includes('\t')) continue;
    const step = Math.abs(indent.length - previous);
    previous = indent.length;
    // Steps of one column are alignment (` * ` in doc comments), not indentation.
    if (step > 1) counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best = 4;
  let bestCount = 0;
  for (const [step, count] of counts) {
    if (count > bestCount || (count === bestCount && step < best)) [best, bestCount] = [step, count];
  }
  return best;
}

function render(width: number, style: IndentStyle): string {
  const w = Math.max(0, width);
  return style === 'tab' ? '\t'.repeat(Math.floor(w / TAB_WIDTH)) + ' '.repeat(w % TAB_WIDTH) : ' '.repeat(w);
}

/**
 * Re-indents `replace` for where `search` matched the `matched` file lines (same length as
 * `search`, equal modulo indentation and trailing whitespace). Replacement lines equal to a search
 * line (unchanged context) are written as the file had them, byte for byte. For the others, an
 * indentation the search block used maps to the file's indentation on the paired line; any other
 * is moved by the same delta, scaled when the search block and the file indent in different units
 * (4 spaces vs a tab), and written in the file's style. Blank new lines become empty.
 */
export function reindent(search: readonly string[], matched: readonly string[], replace: readonly string[], fileStyle: IndentStyle): string[] {
  const convert = indentConverter(search, matched, replace, fileStyle);
  const out: string[] = [];
  let si = 0;
  let ri = 0;
  for (const change of diffLines(search, replace)) {
    for (; ri < change.bStart; ri++, si++) out.push(matched[si]!);
    for (; ri < change.bEnd; ri++) out.push(convert(replace[ri]!));
    si = change.aEnd;
  }
  for (; ri < replace.length; ri++, si++) out.push(matched[si]!);
  return out;
}

function indentConverter(search: readonly string[], matched: readonly string[], replace: readonly string[], fileStyle: IndentStyle): (line: string) => string {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < search.length; i++) {
    if (!isBlank(search[i]!)) pairs.push([indentOf(search[i]!), indentOf(matched[i]!)]);
  }
  if (pairs.length === 0 || pairs.every(([s, f]) => s === f)) return (line) => (isBlank(line) ? '' : line);

  const known = new Map<string, string>();
  for (const [s, f] of pairs) if (!known.has(s)) known.set(s, f);
  const [searchBase, fileBase] = pairs[0]!;
  const baseS = indentWidth(searchBase);
  const baseF = indentWidth(fileBase);
  let ratio: number | undefined;
  for (const [s, f] of pairs) {
    const ds = indentWidth(s) - baseS;
    const df = indentWidth(f) - baseF;
    if (ds !== 0 && df !== 0) {
      ratio = df / ds;
      break;
    }
  }
  if (ratio === undefined) {
    const searchUsesSpaces = !pairs.some(([s]) => s.includes('\t'));
    ratio = fileStyle === 'tab' && searchUsesSpaces ? TAB_WIDTH / spaceUnit([...search, ...replace]) : 1;
  }
  const scale = ratio;
  return (line) => {
    if (isBlank(line)) return '';
    const indent = indentOf(line);
    const body = line.slice(indent.length);
    const mapped = known.get(indent);
    if (mapped !== undefined) return mapped + body;
    return render(baseF + Math.round((indentWidth(indent) - baseS) * scale), fileStyle) + body;
  };
}
