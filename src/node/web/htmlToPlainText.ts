/**
 * HTML to plain text in one linear pass, with no DOM and no recursion: the fallback when the full
 * conversion (htmlToMarkdown in a worker) runs out of its time or memory budget or cannot parse a
 * page (60,000 nested elements). Drops script/style/… contents and every tag, breaks lines at block
 * tags, decodes the common entities and folds runs of blank space. Time and memory grow with the
 * page's length only, so a hostile page cannot make it slow.
 */
const SKIPPED = ['script', 'style', 'noscript', 'template', 'svg', 'head'];
const BLOCK = /^\/?(p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|header|footer|main|nav|aside|blockquote|pre|hr|dd|dt|dl|figure|figcaption|form|title)\b/i;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', copy: '©' };

/** A page as plain text, with its `<title>` when it has one. */
export interface PlainPage {
  title?: string;
  text: string;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (match, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : match;
    }
    return ENTITIES[code.toLowerCase()] ?? match;
  });
}

/** The text between `<title>` and `</title>`, found with two searches. */
function titleOf(html: string, lower: string): string | undefined {
  const open = lower.indexOf('<title');
  if (open < 0) return undefined;
  const start = lower.indexOf('>', open);
  const end = start < 0 ? -1 : lower.indexOf('</title', start);
  if (end < 0) return undefined;
  const title = decodeEntities(html.slice(start + 1, end)).replace(/\s+/g, ' ').trim();
  return title || undefined;
}

/** Plain text of `html`; `maxChars` caps the result (the rest is left out). */
export function htmlToPlainText(html: string, maxChars = 200_000): PlainPage {
  const lower = html.toLowerCase();
  const title = titleOf(html, lower);
  const parts: string[] = [];
  let length = 0;
  let at = 0;
  while (at < html.length && length < maxChars) {
    const lt = html.indexOf('<', at);
    const textEnd = lt < 0 ? html.length : lt;
    if (textEnd > at) {
      const piece = decodeEntities(html.slice(at, textEnd));
      parts.push(piece);
      length += piece.length;
    }
    if (lt < 0) break;
    const gt = html.indexOf('>', lt);
    if (gt < 0) break;
    const tag = html.slice(lt + 1, Math.min(gt, lt + 40));
    const name = /^([a-z][a-z0-9-]*)/i.exec(tag)?.[1]?.toLowerCase();
    at = gt + 1;
    if (name && SKIPPED.includes(name) && !tag.endsWith('/')) {
      // Skip to the matching close tag; an unclosed one hides the rest (a browser would too).
      const close = lower.indexOf(`</${name}`, at);
      if (close < 0) break;
      const closeEnd = html.indexOf('>', close);
      at = closeEnd < 0 ? html.length : closeEnd + 1;
      continue;
    }
    if (BLOCK.test(tag)) parts.push('\n');
  }
  const text = parts
    .join('')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, (run) => (run.split('\n').length > 2 ? '\n\n' : '\n'))
    .trim()
    .slice(0, maxChars);
  return title ? { title, text } : { text };
}
