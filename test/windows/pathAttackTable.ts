/**
 * Issue 24, acceptance 2: paths a model may give that must not reach anything outside the workspace
 * `W` (named `Z:\…\ws` under the simulation) or anything but a plain file in it. `byName` rows are
 * refused by their spelling alone (`windowsPathProblem`); the others by confinement (resolution,
 * case-insensitive comparison, junctions). `{ws}` and `{out}` stand for the workspace's and a
 * sibling folder's Windows paths; `{WS}` is the workspace in upper case.
 */
export const WINDOWS_PATH_ATTACKS: [input: string, construct: string, byName: boolean][] = [
  ['C:secret.txt', 'drive-relative C:name', true],
  ['z:..\\..\\etc\\passwd', 'drive-relative with ..', true],
  ['..\\out\\x.txt', '..\\ to a sibling', false],
  ['sub\\..\\..\\out\\x.txt', '..\\ chain through a folder', false],
  ['sub/../../../x.txt', '../ chain with forward slashes', false],
  ['..\\..\\..\\..\\..\\..\\windows\\win.ini', 'long ..\\ chain', false],
  ['\\\\127.0.0.1\\c$\\windows\\win.ini', 'UNC path', false],
  ['\\\\server\\share\\x.txt', 'UNC share', false],
  ['\\\\?\\{ws}\\..\\out\\x.txt', '\\\\?\\ path that skips normalisation', true],
  ['\\\\?\\{ws}\\a.txt', '\\\\?\\ path even inside', true],
  ['\\\\.\\{ws}\\a.txt', '\\\\.\\ device path', true],
  ['\\\\.\\PhysicalDrive0', 'raw disk', true],
  ['a.txt:hidden', 'alternate data stream', true],
  ['a.txt::$DATA', 'the default stream by name', true],
  ['sub:stream\\x.txt', 'a stream on a folder', true],
  ['CON', 'reserved name CON', true],
  ['nul.txt', 'reserved name NUL with an extension', true],
  ['sub\\AUX', 'reserved name AUX in a folder', true],
  ['COM1', 'reserved name COM1', true],
  ['lpt9.log', 'reserved name LPT9', true],
  ['prn .txt', 'reserved name with a space before the dot', true],
  ['a.txt.', 'trailing dot', true],
  ['a.txt ', 'trailing space', true],
  ['.git.\\config', '.git. is .git', true],
  ['PROGRA~1\\x.txt', '8.3 short name', true],
  ['STEPWI~1\\x.txt', '8.3 short name of a sibling', true],
  ['{out}\\x.txt', 'absolute path elsewhere', false],
  ['{OUT}\\x.txt', 'absolute path elsewhere, other case', false],
  ['C:\\windows\\win.ini', 'absolute path on another drive', false],
  ['/windows/win.ini', 'root of the current drive', false],
  ['jn\\x.txt', 'link to a folder outside (junction stand-in: Wine cannot make one on Z:)', false],
  ['jn', 'the link itself', false],
];

/** Spellings that are not refused by name (confinement decides; inside ones are accepted). */
export const WINDOWS_PATHS_ACCEPTED = ['a.txt', 'sub\\b.txt', 'sub/b.txt', '.\\a.txt', 'C:\\ws\\a.txt', 'dir.with.dots\\file', 'Makefile', 'console.log', 'nullable.ts', 'com10.txt'];
