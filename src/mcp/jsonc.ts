/**
 * Parses JSON with comments (`//`, `/* *\/`) and trailing commas, as VS Code's settings and
 * `mcp.json` allow. Comment and comma characters inside strings are kept. Throws `SyntaxError`
 * (with the 1-based line and column of the problem where JSON.parse reports a position).
 */
export function parseJsonc(text: string): unknown {
  const cleaned = stripTrailingCommas(stripComments(text.replace(/^\uFEFF/, '')));
  try {
    return JSON.parse(cleaned);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    if (!position) throw new SyntaxError(message);
    const offset = Number(position[1]);
    const before = cleaned.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    throw new SyntaxError(`${message.replace(/ in JSON at position \d+.*$/, '')} at line ${line}, column ${column}`);
  }
}

/** Replaces comments by spaces (newlines kept) so positions in error messages stay true. */
function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? text.length : close + 2;
      out += text.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Drops a comma whose next non-blank character closes an object or array. */
function stripTrailingCommas(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (ch === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === '}' || text[j] === ']') {
        out += ' ';
        i++;
        continue;
      }
    }
    out += ch;
    i++;
  }
  return out;
}

/** Index just past the string literal that starts at `start` (an unterminated string runs to the end). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') i += 2;
    else if (ch === '"') return i + 1;
    else if (ch === '\n') return i;
    else i++;
  }
  return text.length;
}
