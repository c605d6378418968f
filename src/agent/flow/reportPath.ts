/** Default folder of reports, workspace-relative. */
export const DEFAULT_REPORT_DIR = '.stepwise/reports';

/** `YYYYMMDD-HHmmss` (UTC) of a time, for file names that sort by date. */
export function timestamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** A file-name slug of any script: letters and digits joined by `-`, at most 40 characters, `task` when empty. */
export function slugify(text: string): string {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if ([...next].length > 40) {
      if (!slug) slug = [...word].slice(0, 40).join('');
      break;
    }
    slug = next;
  }
  return slug || 'task';
}

/** Posix relative path from folder `from` to file `to`, both workspace-relative. */
export function relativePath(from: string, to: string): string {
  const a = from.split('/').filter((s) => s && s !== '.');
  const b = to.split('/').filter((s) => s && s !== '.');
  let common = 0;
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common++;
  return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
}

/** A link target for markdown: each segment percent-encoded so spaces and brackets survive. */
export function markdownHref(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment === '..' ? segment : encodeURIComponent(segment)))
    .join('/');
}
