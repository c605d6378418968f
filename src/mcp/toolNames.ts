import { createHash } from 'node:crypto';

/** Longest tool name model APIs accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Replaces every character outside `[a-zA-Z0-9_-]` by `_`. */
export function sanitizeNamePart(part: string): string {
  const cleaned = part.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned === '' ? '_' : cleaned;
}

function shortHash(text: string, salt: number): string {
  return createHash('sha256').update(`${salt}:${text}`).digest('hex').slice(0, 6);
}

/**
 * The model-facing name of an MCP tool: `server__tool`, sanitised, at most 64 characters. When the
 * plain name is too long or `taken` says it is already used, it is cut and given a short hash of
 * the original `server/tool` (salted until free), so two different tools never share a name.
 */
export function exposedToolName(server: string, tool: string, taken: (name: string) => boolean): string {
  const plain = `${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  if (plain.length <= MAX_TOOL_NAME_LENGTH && !taken(plain)) return plain;
  const original = `${server}/${tool}`;
  for (let salt = 0; ; salt++) {
    const suffix = `_${shortHash(original, salt)}`;
    const candidate = plain.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
    if (!taken(candidate)) return candidate;
  }
}
