import { taskWords } from './attachedContext';

/** Columns of a title before it is cut (a CJK character takes two), at a word boundary, with an ellipsis. */
export const TITLE_MAX_CHARS = 60;

/**
 * A short title for a task, without a model: the user's own words (attached context left out),
 * their first line that says something, markdown marks, code fences, mentions' `@` and links'
 * targets removed, cut at a word boundary. Deterministic, so every view and the CLI agree;
 * `''` when the task has no words (the views say "Untitled").
 */
export function taskTitle(task: string, max = TITLE_MAX_CHARS): string {
  const lines = taskWords(task).replace(/```[\s\S]*?(```|$)/g, '\n').split('\n');
  const first = lines.map(plainLine).find((line) => line !== '') ?? '';
  return cut(first, max);
}

/** One line without markdown decoration, spaces collapsed. */
function plainLine(line: string): string {
  return line
    .replace(/^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|\s)@(?=[\w./"-])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Columns a character takes: East Asian wide and full-width characters count two. */
function columns(c: number): number {
  const wide = (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || c >= 0x20000;
  return wide ? 2 : 1;
}

/** `text` cut to `max` columns, at the last word boundary when there is one in its second half, with an ellipsis. */
function cut(text: string, max: number): string {
  // No character takes more than two columns (a UTF-16 unit each at most): short text fits as it is.
  if (2 * text.length <= max - 1) return text;
  let width = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.codePointAt(end)!;
    const wide = columns(code);
    if (width + wide > max - 1) break;
    width += wide;
    end += code > 0xffff ? 2 : 1;
  }
  if (end === text.length) return text;
  const head = text.slice(0, end);
  const space = head.lastIndexOf(' ');
  return `${(space > head.length / 2 ? head.slice(0, space) : head).replace(/[\s,;:.-]+$/, '')}…`;
}
