/** Device names Windows opens whatever the folder or extension (`NUL`, `con.txt`, `COM1 .log`). */
const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\s*\..*)?$/i;
/** An 8.3 short name (`PROGRA~1`, `GIT~1`): another spelling of a long name, which rules and the guard would not see. */
const SHORT_NAME = /~[0-9]+(\.[^.]*)?$/;

/**
 * Why a model-given path must be refused on Windows before it is resolved, or `undefined`. Each is
 * a spelling that names something other than what it seems: device and `\\?\` / `\\.\` paths skip
 * Windows' normalisation; a drive-relative `C:foo` depends on the drive's current folder; a `:` after
 * the name writes an alternate data stream; trailing dots and spaces are stripped by Windows (so
 * `.git.` is `.git`); reserved names are devices; 8.3 short names alias long names.
 */
export function windowsPathProblem(input: string): string | undefined {
  if (/^[\\/]{2}[?.][\\/]/.test(input)) return 'it is a \\\\?\\ or \\\\.\\ device path';
  if (/^[a-z]:(?![\\/])/i.test(input)) return 'it is drive-relative (C:name depends on that drive\'s current folder)';
  const body = input.replace(/^[a-z]:(?=[\\/])/i, '');
  const parts = body.split(/[\\/]+/).filter((p) => p !== '' && p !== '.' && p !== '..');
  for (const part of parts) {
    if (part.includes(':')) return `"${part}" names an alternate data stream (a ":" after the file name)`;
    if (/[. ]$/.test(part)) return `"${part}" ends with a dot or a space, which Windows strips`;
    if (RESERVED.test(part)) return `"${part}" is a reserved device name on Windows`;
    if (SHORT_NAME.test(part)) return `"${part}" looks like an 8.3 short name, another spelling of a long name`;
    if (/[<>"|?*]/.test(part) || [...part].some((c) => c.charCodeAt(0) < 32)) return `"${part}" holds a character Windows does not allow in names`;
  }
  return undefined;
}
