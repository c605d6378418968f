import type { ShellWord } from './shellWords';
import type { Redirection } from './shellWalk';

/** One simple command of a cmd.exe or PowerShell line: its words and redirections, in order. */
export interface WindowsSegment {
  words: ShellWord[];
  redirections: Redirection[];
  /** PowerShell's `&` call operator or `.` dot-source stood in front (the first word is what it runs). */
  called: boolean;
}

/** A line cut into simple commands, with the bracketed parts (`$(…)`, `{…}`, `(…)`) to parse again, or why it could not be cut. */
export interface WindowsSplit {
  error?: string;
  segments: WindowsSegment[];
  /** Text inside PowerShell's `$(…)`, `@(…)`, `(…)` and `{…}`: statements that may run, parsed as PowerShell in turn. */
  inner: string[];
  opaque: string[];
}

const word = (value: string, dynamic: boolean): ShellWord => ({ value, dynamic, substitution: false });

/** Where the bracket opened at `open` closes (quotes respected), or -1. */
function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}' };
  const stack: string[] = [pairs[text[open]!]!];
  let quote: string | undefined;
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '`' && quote === '"') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '`') i++;
    else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '{') stack.push(pairs[ch]!);
    else if (ch === ')' || ch === '}') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** The builder of one split: words go into the current segment, operators close it. */
class Splitter {
  readonly result: WindowsSplit = { segments: [], inner: [], opaque: [] };
  private current: WindowsSegment = { words: [], redirections: [], called: false };
  private pendingRedirect: string | undefined;

  push(value: string, dynamic: boolean): void {
    if (this.pendingRedirect !== undefined) {
      this.current.redirections.push({ op: this.pendingRedirect, target: word(value, dynamic) });
      this.pendingRedirect = undefined;
    } else this.current.words.push(word(value, dynamic));
  }

  redirect(op: string): void {
    this.pendingRedirect = op;
  }

  call(): void {
    this.current.called = true;
  }

  get empty(): boolean {
    return this.current.words.length === 0;
  }

  end(): void {
    if (this.pendingRedirect !== undefined) this.result.error ??= `a redirection (${this.pendingRedirect}) without a target`;
    this.pendingRedirect = undefined;
    if (this.current.words.length > 0) this.result.segments.push(this.current);
    else if (this.current.called) this.result.error ??= 'a call operator without a command';
    this.current = { words: [], redirections: [], called: false };
  }
}

const CMD_REDIRECT = /^(?:[0-9]?>>?(?:&[0-9])?|<)/;

/**
 * Cuts a cmd.exe line at `&`, `&&`, `||`, `|`, parentheses and newlines, outside double quotes;
 * `^` escapes the next character, quotes are removed, `%VAR%` and `!VAR!` make a word dynamic.
 */
export function splitCmd(text: string): WindowsSplit {
  const s = new Splitter();
  let value = '';
  let dynamic = false;
  let inWord = false;
  const flush = () => {
    if (inWord) s.push(value, dynamic);
    value = '';
    dynamic = false;
    inWord = false;
  };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '%' || (ch === '!' && /![^!\s]+!/.test(text.slice(i)))) dynamic = true;
    if (quoted) {
      if (ch === '"') quoted = false;
      else value += ch;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      inWord = true;
    } else if (ch === '^') {
      value += text[++i] ?? '';
      inWord = true;
    } else if (ch === ' ' || ch === '\t') flush();
    else if ('&|()\r\n'.includes(ch)) {
      flush();
      s.end();
      if ((ch === '&' || ch === '|') && text[i + 1] === ch) i++;
    } else if (CMD_REDIRECT.test(text.slice(i)) && !inWord) {
      const op = CMD_REDIRECT.exec(text.slice(i))![0];
      i += op.length - 1;
      if (!/&[0-9]$/.test(op)) s.redirect(op);
    } else if ((ch === '>' || ch === '<') && inWord) {
      flush();
      i--;
    } else {
      value += ch;
      inWord = true;
    }
  }
  if (quoted) s.result.error ??= 'a double quote is not closed';
  flush();
  s.end();
  return s.result;
}

const PS_REDIRECT = /^(?:[1-6*]?>>?(?:&[12])?|<)/;

/** Reads a PowerShell quoted string at `i`; returns its value, whether it expands, and the index of the closing quote. */
function psString(text: string, i: number): { value: string; dynamic: boolean; inner: string[]; end: number } | undefined {
  const quote = text[i]!;
  let value = '';
  let dynamic = false;
  const inner: string[] = [];
  for (let j = i + 1; j < text.length; j++) {
    const ch = text[j]!;
    if (quote === "'") {
      if (ch === "'" && text[j + 1] === "'") {
        value += "'";
        j++;
      } else if (ch === "'") return { value, dynamic, inner, end: j };
      else value += ch;
      continue;
    }
    if (ch === '`') value += text[++j] ?? '';
    else if (ch === '"' && text[j + 1] === '"') {
      value += '"';
      j++;
    } else if (ch === '"') return { value, dynamic, inner, end: j };
    else if (ch === '$' && text[j + 1] === '(') {
      const close = closing(text, j + 1);
      if (close < 0) return undefined;
      inner.push(text.slice(j + 2, close));
      value += text.slice(j, close + 1);
      dynamic = true;
      j = close;
    } else {
      if (ch === '$' && /[\w{:]/.test(text[j + 1] ?? '')) dynamic = true;
      value += ch;
    }
  }
  return undefined;
}

/**
 * Cuts a PowerShell line at `;`, `|`, `&&`, `||` and newlines; quotes and backtick escapes are
 * removed, `$variables` make a word dynamic, and bracketed parts (`$(…)`, `@(…)`, `(…)`, `{…}`)
 * become one dynamic word whose text is handed back in `inner` to be parsed as PowerShell too.
 */
export function splitPowerShell(text: string): WindowsSplit {
  const s = new Splitter();
  let value = '';
  let dynamic = false;
  let inWord = false;
  const flush = () => {
    if (inWord) s.push(value, dynamic);
    value = '';
    dynamic = false;
    inWord = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") {
      const str = psString(text, i);
      if (!str) return { ...s.result, error: 'a quoted string is not closed' };
      value += str.value;
      dynamic ||= str.dynamic;
      s.result.inner.push(...str.inner);
      inWord = true;
      i = str.end;
    } else if (ch === '`') {
      value += text[++i] ?? '';
      inWord = true;
    } else if (ch === '#' && !inWord) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if ((ch === '(' || ch === '{') || ((ch === '$' || ch === '@') && text[i + 1] === '(')) {
      const open = ch === '(' || ch === '{' ? i : i + 1;
      const close = closing(text, open);
      if (close < 0) return { ...s.result, error: `a bracket ${text[open]} is not closed` };
      s.result.inner.push(text.slice(open + 1, close));
      value += text.slice(i, close + 1);
      dynamic = true;
      inWord = true;
      i = close;
    } else if (/[ \t,]/.test(ch)) flush();
    else if (ch === ';' || ch === '|' || ch === '\n' || ch === '\r' || (ch === '&' && text[i + 1] === '&')) {
      flush();
      s.end();
      if (ch !== ';' && ch !== '\n' && ch !== '\r' && text[i + 1] === ch) i++;
    } else if ((ch === '&' || ch === '.') && !inWord && s.empty && /\s/.test(text[i + 1] ?? '')) {
      s.call();
    } else if (ch === '&') {
      return { ...s.result, error: 'the & operator (background jobs) is not followed' };
    } else if (!inWord && PS_REDIRECT.test(text.slice(i))) {
      const op = PS_REDIRECT.exec(text.slice(i))![0];
      i += op.length - 1;
      if (!/&[12]$/.test(op)) s.redirect(op);
    } else {
      if (ch === '$' && /[\w{:?]/.test(text[i + 1] ?? '')) dynamic = true;
      value += ch;
      inWord = true;
    }
  }
  flush();
  s.end();
  return s.result;
}
