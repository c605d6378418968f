import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * Parses JSON with comments and trailing commas, as VS Code's settings and `mcp.json` allow
 * (Microsoft's `jsonc-parser`, the parser VS Code itself uses). Throws `SyntaxError` naming the
 * first problem with its 1-based line and column, instead of returning a best guess.
 */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const before = text.replace(/^\uFEFF/, '').slice(0, first.offset);
    const line = before.split('\n').length;
    const column = first.offset - before.lastIndexOf('\n');
    throw new SyntaxError(`${printParseErrorCode(first.error)} at line ${line}, column ${column}`);
  }
  return value;
}
