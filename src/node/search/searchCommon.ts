import type { SearchMatch } from '../../agent/ports';
import { InvalidPatternError, ToolError } from '../../agent/errors';
import { compileGlob, type CompiledGlob } from '../globMatcher';

/** Files bigger than this are skipped while walking (ripgrep's `--max-filesize 2M`). */
export const MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024;

/** Bytes inspected for a NUL to call a file binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** Longest line text returned; minified files otherwise flood the model's context. */
export const MAX_LINE_CHARS = 500;

/** What one search looks at, already confined to the workspace. */
export interface SearchScope {
  /** Workspace-relative POSIX path of the folder or file searched (`''` for the root). */
  rel: string;
  /** True when `rel` names one file: it is searched whatever the ignore rules, glob or size say (as rg does). */
  isFile: boolean;
  /** The glob as given, for rg. */
  glob?: string;
  /** The same glob compiled for the JS engine. */
  compiledGlob?: CompiledGlob;
}

/** Parses the pattern as a JS regex (close enough to rg's syntax) or throws `InvalidPatternError`. */
export function compilePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : String(error);
    throw new InvalidPatternError(
      `Invalid regular expression ${JSON.stringify(pattern)}: ${why}. Escape special characters such as ( [ { . * + ? with a backslash to search for them literally.`,
    );
  }
}

/** Compiles a glob for the JS engine or throws `ToolError` naming it. */
export function compileScopeGlob(glob: string | undefined): CompiledGlob | undefined {
  if (glob === undefined || glob.trim() === '') return undefined;
  try {
    return compileGlob(glob);
  } catch (error) {
    throw new ToolError(`Invalid glob ${JSON.stringify(glob)}: ${error instanceof Error ? error.message : String(error)}.`);
  }
}

/** Drops the line terminator and clips very long lines, the same way for both engines. */
export function cleanLine(text: string): string {
  const bare = text.replace(/\r?\n$/, '').replace(/\r$/, '');
  return bare.length > MAX_LINE_CHARS ? `${bare.slice(0, MAX_LINE_CHARS)}… [line clipped, ${bare.length} chars]` : bare;
}

/**
 * Builds a match from the lines known around it: `lineAt(n)` gives line `n` (1-based) or
 * `undefined` past the file's ends. Neighbouring matches count as context too.
 */
export function buildMatch(
  path: string,
  line: number,
  contextLines: number,
  lineAt: (n: number) => string | undefined,
): SearchMatch {
  const before: string[] = [];
  for (let n = Math.max(1, line - contextLines); n < line; n++) {
    const text = lineAt(n);
    if (text !== undefined) before.push(cleanLine(text));
  }
  const after: string[] = [];
  for (let n = line + 1; n <= line + contextLines; n++) {
    const text = lineAt(n);
    if (text === undefined) break;
    after.push(cleanLine(text));
  }
  return { path, line, text: cleanLine(lineAt(line) ?? ''), before, after };
}
