/**
 * True when `rel` is a path inside the workspace as restore and undo receive it: relative,
 * `/`-separated, and no segment is empty, `.` or `..`. Checked by segments, not by prefix, so a
 * file named `..env.example` or `...` is inside, while `../x`, `a/../../x` and `/etc/x` are not.
 * A backslash or a drive letter is refused too: on Windows it would be a separator or a root.
 */
export function isInsideWorkspace(rel: string): boolean {
  if (rel === '' || rel.startsWith('/') || rel.includes('\\') || rel.includes('\0') || /^[A-Za-z]:/.test(rel)) return false;
  return rel.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}
