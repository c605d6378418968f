/**
 * Text every match of `regex` must contain, so a file (or line) without it cannot match and the
 * regex need not run there; `undefined` when none can be told for sure. Conservative: only runs
 * of plain characters outside groups, classes and quantifiers, in a pattern without a top-level
 * `|` or flags that change what matches (`i`, `u`, `v`); the longest run wins.
 */
export function requiredLiteral(regex: RegExp): string | undefined {
  if (/[iuv]/.test(regex.flags)) return undefined;
  const source = regex.source;
  let best = '';
  let run = '';
  const close = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  let i = 0;
  while (i < source.length) {
    const atom = readAtom(source, i);
    if (atom === undefined) return undefined; // a top-level `|`: no text is required
    i = atom.end;
    const quantified = i < source.length && /[*+?{]/.test(source[i]!) && isQuantifier(source, i);
    if (quantified) {
      // `a+` still requires one `a`, but the run cannot go on past it; `a*`, `a?` require nothing.
      close();
      i = skipQuantifier(source, i);
      continue;
    }
    if (atom.char === undefined) close();
    else run += atom.char;
  }
  close();
  return best === '' ? undefined : best;
}

/** The pattern is a plain text (no regex syntax at all): matched with `includes`, no regex needed. */
export function literalOf(regex: RegExp): string | undefined {
  if (regex.flags.replace(/[gyu]/g, '') !== '') return undefined;
  return /[\\^$.*+?()[\]{}|]/.test(regex.source) ? undefined : regex.source;
}

/** One atom at `i`: `char` when it stands for exactly that character; `undefined` for a top-level `|`. */
function readAtom(source: string, i: number): { end: number; char?: string } | undefined {
  const c = source[i]!;
  if (c === '|') return undefined;
  if (c === '\\') {
    const next = source[i + 1] ?? '';
    // An escaped punctuation character is itself; letters and digits are classes, anchors or codes.
    return /[^A-Za-z0-9]/.test(next) && next !== '' ? { end: i + 2, char: next } : { end: i + 2 };
  }
  if (c === '[') return { end: skipClass(source, i) };
  if (c === '(') return { end: skipGroup(source, i) };
  if (c === '.' || c === '^' || c === '$' || c === ')' || c === ']' || c === '}' || c === '{' || c === '*' || c === '+' || c === '?') return { end: i + 1 };
  return { end: i + 1, char: c };
}

function skipClass(source: string, i: number): number {
  let j = i + 1;
  while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
  return j + 1;
}

function skipGroup(source: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < source.length) {
    const c = source[j]!;
    if (c === '\\') j += 2;
    else if (c === '[') j = skipClass(source, j);
    else {
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return j + 1;
      j++;
    }
  }
  return j;
}

function isQuantifier(source: string, i: number): boolean {
  return source[i] !== '{' || /^\{\d+(,\d*)?\}/.test(source.slice(i));
}

function skipQuantifier(source: string, i: number): number {
  let j = source[i] === '{' ? source.indexOf('}', i) + 1 : i + 1;
  if (source[j] === '?') j++;
  return j;
}
