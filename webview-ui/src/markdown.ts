import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { documentFolderOf, resolveDocumentPath, resolveImageTarget, type ImageBase } from './workspaceImage';

/** The document being rendered now with a workspace context, and its images (set only inside one `renderMarkdown` call). */
let current: { base: ImageBase; images: { url: string; path: string; alt: string; title?: string }[] } | undefined;

// Outside a report, images become links: a chart file the reporter wrote opens in the editor. In a
// report, a relative image inside the workspace becomes a slot that `fillImageSlots` turns into an
// <img> after sanitising (DOMPurify itself never lets an <img> through).
const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // Raw HTML in model text is shown as the text it is: a model quoting `<script>` or `<img onerror>`
    // outside a code fence means the characters, and markup the model writes never becomes ours.
    html({ text }) {
      return escapeHtml(text);
    },
    image({ href, text, title }) {
      if (!current) return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
      const target = resolveImageTarget(href, current.base);
      switch (target.kind) {
        case 'image': {
          const index = current.images.push({ url: target.url, path: target.path, alt: text, title: title ?? undefined }) - 1;
          return `<span class="${SLOT_CLASS} ${SLOT_CLASS}-${index}">${escapeHtml(text)}</span>`;
        }
        case 'file':
          return `<a href="${escapeHtml(encodeURI(target.path))}">${escapeHtml(text || target.path)}</a>`;
        case 'outside':
          return escapeHtml(text);
        case 'external':
          return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
      }
    },
    // In a report, relative links lead from the report's folder (the reporter writes them so):
    // they become workspace paths, and one leaving the workspace keeps only its text.
    link(token) {
      if (!current || token.href.startsWith('#') || documentFolderOf(current.base.documentPath) === undefined) return false;
      const target = resolveDocumentPath(token.href, current.base.documentPath);
      if (target.kind === 'external') return false;
      const inner = this.parser.parseInline(token.tokens);
      if (target.kind === 'outside') return inner;
      const line = /#L\d+$/.exec(token.href)?.[0] ?? '';
      return `<a href="${escapeHtml(encodeURI(target.path) + line)}">${inner}</a>`;
    },
  },
});

const SLOT_CLASS = 'sw-image-slot';

/** Extensions that make a dot-name without a slash count as a file path (`package.json`, `main.ts`). */
const FILE_EXTENSIONS = new Set([
  'ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'json', 'jsonc', 'md', 'py', 'rs', 'go', 'java', 'kt', 'c', 'h', 'cc', 'cpp', 'hpp',
  'cs', 'rb', 'php', 'swift', 'css', 'scss', 'less', 'html', 'vue', 'svelte', 'yml', 'yaml', 'toml', 'ini', 'sh', 'txt', 'sql',
  'xml', 'csv', 'lock', 'env',
]);
const PATH_SHAPE = /^(?:[A-Za-z]:[\\/]|\.{0,2}\/)?[\p{L}\p{N}_@.\-+]+(?:[\\/][\p{L}\p{N}_@.\-+]+)*(?:(?::|#L)(\d+))?(?::\d+)?$/u;
/** The same shape with spaces allowed inside names: only for link targets, never for loose text. */
const LINK_PATH_SHAPE = /^(?:[A-Za-z]:[\\/]|\.{0,2}\/)?[\p{L}\p{N}_@.\-+ ]+(?:[\\/][\p{L}\p{N}_@.\-+ ]+)*(?:(?::|#L)(\d+))?(?::\d+)?$/u;

/** A workspace path and optional 1-based line, as an `openFile` intent wants them. */
export interface FileRef {
  path: string;
  line?: number;
}

/**
 * Recognises text that names a file: `src/a.ts`, `./b.js:12`, `README.md#L3`, `file:///x/y.py`.
 * URLs with another scheme, bare words and sentences are not files. `link: true` (a link's target,
 * already URL-decoded) also allows spaces inside names.
 */
export function parseFileRef(raw: string, options: { link?: boolean } = {}): FileRef | undefined {
  let text = raw.trim();
  let link = options.link ?? false;
  if (text.length === 0 || text.length > 1_000) return undefined;
  if (/^file:\/\//i.test(text)) {
    try {
      text = decodeURIComponent(text.replace(/^file:\/\//i, ''));
      link = true;
    } catch {
      return undefined;
    }
  } else if (/^[a-z][a-z0-9+.-]*:(?![\\/]|\d)/i.test(text) || text.startsWith('//')) {
    return undefined;
  }
  const match = (link ? LINK_PATH_SHAPE : PATH_SHAPE).exec(text);
  if (!match) return undefined;
  const path = text.replace(/(?:(?::|#L)\d+)?(?::\d+)?$/, '');
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (!ext) return undefined;
  if (!/[\\/]/.test(path) && !FILE_EXTENSIONS.has(ext)) return undefined;
  const line = match[1] ? Number(match[1]) : undefined;
  return line && line > 0 ? { path, line } : { path };
}

let hooked = false;

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  // Runs after DOMPurify removed every attribute it does not allow, so the ones added here are ours.
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (/^(?:https?:|mailto:)/i.test(href) || href.startsWith('#')) {
        node.setAttribute('title', href);
        return;
      }
      node.removeAttribute('href');
      const ref = parseFileRef(safeDecode(href), { link: true });
      if (ref) markFileRef(node as HTMLElement, ref);
      return;
    }
    if (node.nodeName === 'CODE' && node.parentNode?.nodeName !== 'PRE') {
      const ref = parseFileRef(node.textContent ?? '');
      if (ref) markFileRef(node as HTMLElement, ref);
    }
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/** Marks an element as a link that opens a workspace file when clicked (see `fileRefOf`). */
export function markFileRef(element: HTMLElement, ref: FileRef): void {
  element.classList.add('file-link');
  element.setAttribute('data-path', ref.path);
  if (ref.line) element.setAttribute('data-line', String(ref.line));
  element.setAttribute('role', 'link');
  element.setAttribute('tabindex', '0');
}

/** The file an element marked by `markFileRef` (or one of its ancestors) points at. */
export function fileRefOf(target: EventTarget | null): FileRef | undefined {
  const element = (target as Element | null)?.closest?.('[data-path]');
  const path = element?.getAttribute('data-path');
  if (!element || !path) return undefined;
  const line = Number(element.getAttribute('data-line'));
  return Number.isInteger(line) && line > 0 ? { path, line } : { path };
}

/** Escapes text for use inside HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Model markdown -> safe HTML: parsed by marked with raw HTML escaped into visible text, then
 * sanitised by DOMPurify as a second wall (no scripts, event
 * handlers, styles, images, forms or `javascript:` URLs survive; markdown images become links).
 * With `images` (a report), relative links and images lead from the document's folder; images of
 * image files inside the workspace are shown inline from `images.workspaceUri` (see
 * `resolveImageTarget`); raw `<img>` tags never are. Without a DOM
 * (DOMPurify unsupported) the text comes back escaped, never raw.
 */
export function renderMarkdown(markdown: string, images?: ImageBase): string {
  if (!DOMPurify.isSupported) return `<p>${escapeHtml(markdown)}</p>`;
  installHooks();
  current = images ? { base: images, images: [] } : undefined;
  let html: string;
  let found: NonNullable<typeof current>['images'] = [];
  try {
    html = marked.parse(markdown) as string;
    found = current?.images ?? [];
  } finally {
    current = undefined;
  }
  const clean = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
    FORBID_ATTR: ['style', 'id', 'name', 'target'],
    ALLOW_DATA_ATTR: false,
  });
  return found.length > 0 ? fillImageSlots(clean, found) : clean;
}

/** Replaces the image slots of sanitised HTML by <img> elements built here, from resolved workspace URLs only. */
function fillImageSlots(html: string, images: { url: string; path: string; alt: string; title?: string }[]): string {
  // A <template> parses without loading anything or running anything.
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const slot of Array.from(template.content.querySelectorAll<HTMLElement>(`span.${SLOT_CLASS}`))) {
    const index = Number(/\bsw-image-slot-(\d+)\b/.exec(slot.className)?.[1]);
    const image = images[index];
    if (!image) continue;
    const img = document.createElement('img');
    img.className = 'report-image';
    img.setAttribute('src', image.url);
    img.setAttribute('alt', image.alt);
    img.setAttribute('title', image.title ?? image.path);
    img.setAttribute('decoding', 'async');
    markFileRef(img, { path: image.path });
    slot.replaceWith(img);
  }
  return template.innerHTML;
}
