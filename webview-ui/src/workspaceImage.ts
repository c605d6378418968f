/** File types a report may show inline as images. */
export const INLINE_IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp']);

/** What relative image paths are resolved against. */
export interface ImageBase {
  /** Workspace-relative path of the markdown document (a report's `path`); its folder is the base. Absent: the workspace root. */
  documentPath?: string;
  /** The workspace folder as a webview URI (`status.workspaceUri`); without it nothing loads inline. */
  workspaceUri?: string;
}

/**
 * Where a markdown image's `src` leads:
 * - `image`: a workspace file of an image type, loadable from `url` (under `workspaceUri`);
 * - `file`: a workspace file that cannot be shown inline (another type, or no `workspaceUri`): link it by `path`;
 * - `outside`: a relative path that leaves the workspace (or a document outside it): show nothing of it;
 * - `external`: not a relative path at all (a URL with a scheme, `//host`, an absolute path): never loaded.
 */
export type ImageTarget =
  | { kind: 'image'; path: string; url: string }
  | { kind: 'file'; path: string }
  | { kind: 'outside' }
  | { kind: 'external' };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const BASE_PROTOCOLS = new Set(['https:', 'http:', 'vscode-resource:', 'vscode-webview-resource:']);

/**
 * The segments of `relative` taken from folder `base` (segments), with `.` and `..` applied;
 * `undefined` when `..` climbs above the root. Both `/` and `\` separate segments.
 */
export function joinSegments(base: readonly string[], relative: string): string[] | undefined {
  const out = [...base];
  for (const part of relative.split(/[\\/]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out;
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || SCHEME.test(path);
}

/** The folder segments of a workspace-relative document path (`[]`: the root); `undefined` if it is not inside the workspace. */
export function documentFolderOf(documentPath: string | undefined): string[] | undefined {
  if (documentPath === undefined || documentPath.trim() === '') return [];
  if (isAbsolute(documentPath.trim())) return undefined;
  const segments = joinSegments([], documentPath.trim());
  if (!segments || segments.length === 0) return undefined;
  return segments.slice(0, -1);
}

/** Where a link or image target of a markdown document leads, as a workspace-relative path. */
export type DocumentTarget = { kind: 'inside'; path: string } | { kind: 'outside' } | { kind: 'external' };

/**
 * Pure: resolves a markdown `src`/`href` (maybe percent-encoded) against the folder of
 * `documentPath` (workspace-relative; absent = the workspace root), the way a markdown preview
 * does. Query and fragment are dropped. `external`: not a relative path (a scheme, `//host`, an
 * absolute path); `outside`: it, or the document, leaves the workspace.
 */
export function resolveDocumentPath(src: string, documentPath: string | undefined): DocumentTarget {
  const raw = src.trim();
  if (raw === '' || isAbsolute(raw) || /^[A-Za-z]:/.test(raw)) return { kind: 'external' };
  // Query and fragment mean nothing for a file on disk; they are cut before decoding so an encoded `#` stays part of a name.
  const pathPart = raw.replace(/[?#].*$/s, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    return { kind: 'outside' };
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach a path
  if (decoded === '' || /[\u0000-\u001f]/.test(decoded) || isAbsolute(decoded)) return { kind: 'outside' };
  const folder = documentFolderOf(documentPath);
  const segments = folder && joinSegments(folder, decoded);
  if (!segments || segments.length === 0) return { kind: 'outside' };
  return { kind: 'inside', path: segments.join('/') };
}

/** `workspaceUri` without a trailing slash, when it is a URL a webview may load images from. */
function baseUrl(workspaceUri: string | undefined): string | undefined {
  if (!workspaceUri) return undefined;
  let url: URL;
  try {
    url = new URL(workspaceUri);
  } catch {
    return undefined;
  }
  if (!BASE_PROTOCOLS.has(url.protocol) || url.search !== '' || url.hash !== '') return undefined;
  return workspaceUri.replace(/\/+$/, '');
}

/**
 * Pure: resolves a markdown image `src` (already sanitised by the markdown parser, maybe
 * percent-encoded) against the document's folder inside the workspace. Only a relative path that
 * stays inside the workspace can become an `image`, and only with an image extension and a valid
 * `workspaceUri`; the URL's segments are percent-encoded, so nothing in the path can change its meaning.
 */
export function resolveImageTarget(src: string, base: ImageBase): ImageTarget {
  const target = resolveDocumentPath(src, base.documentPath);
  if (target.kind !== 'inside') return target;
  const segments = target.path.split('/');
  const ext = /\.([A-Za-z0-9]+)$/.exec(segments[segments.length - 1]!)?.[1]?.toLowerCase();
  const root = baseUrl(base.workspaceUri);
  if (!root || !ext || !INLINE_IMAGE_EXTENSIONS.has(ext)) return { kind: 'file', path: target.path };
  return { kind: 'image', path: target.path, url: `${root}/${segments.map(encodeURIComponent).join('/')}` };
}
