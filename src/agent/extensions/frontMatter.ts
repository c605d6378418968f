import { parse as parseYaml } from 'yaml';

/** A Markdown file split into its YAML front matter and its body, or why the front matter is unreadable. */
export type FrontMatter = { ok: true; data: Record<string, unknown>; body: string } | { ok: false; error: string };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * Splits `---\n<yaml>\n---\n<body>` (the convention of SKILL.md, Claude Code agents and VS Code
 * prompt files). A file without front matter is all body with empty data; YAML that does not parse
 * to a mapping is an error (never thrown: the caller reports it and skips the file).
 */
export function parseFrontMatter(text: string): FrontMatter {
  const open = OPENING.exec(text);
  if (!open) return { ok: true, data: {}, body: text.replace(/^\uFEFF/, '').trim() };
  const rest = text.slice(open[0].length);
  const close = CLOSING.exec(rest);
  if (!close) return { ok: false, error: 'the front matter has no closing `---` line' };
  let data: unknown;
  try {
    // `yaml` keeps to the YAML 1.2 core schema: no custom tags run, no prototype keys are set.
    data = parseYaml(rest.slice(0, close.index), { maxAliasCount: 50 });
  } catch (error) {
    return { ok: false, error: `the front matter is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, error: 'the front matter is not a mapping of keys to values' };
  return { ok: true, data: data as Record<string, unknown>, body: rest.slice(close.index + close[0].length).trim() };
}
