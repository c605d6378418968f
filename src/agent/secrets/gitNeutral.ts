/**
 * Variables every git process Stepwise starts gets, whatever repository it reads: git never
 * prompts, pages, opens an editor or an askpass program, never talks to any transport (so no lazy
 * fetch of a partial clone runs an ssh command or a credential helper), and a read never writes
 * the index (which would fire `post-index-change`). Verified against git 2.39.
 */
export const NEUTRAL_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  // `:` is git's own "no editor" value: it launches nothing.
  GIT_EDITOR: ':',
  GIT_SEQUENCE_EDITOR: ':',
  // An empty askpass (set, not unset) stops git falling back to core.askPass or SSH_ASKPASS.
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
  // A list naming no protocol: every transport is refused, above any protocol.* config.
  GIT_ALLOW_PROTOCOL: '',
  GIT_NO_LAZY_FETCH: '1',
  GIT_NO_REPLACE_OBJECTS: '1',
};

/**
 * Configuration set for every git process at command scope (`GIT_CONFIG_COUNT`), which outranks the
 * repository's `.git/config` and every file it includes: no fsmonitor program, no hooks, no pager,
 * no credential helper, no transport. Per-driver names (filters, credentials per URL…) are found in
 * the repository's own config by the Node side (`src/node/git/repositoryConfig.ts`).
 */
export const NEUTRAL_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['core.askPass', ''],
  // An empty helper resets the list of helpers read so far (all files come before the command scope).
  ['credential.helper', ''],
  ['protocol.allow', 'never'],
  ['log.showSignature', 'false'],
  ['status.submoduleSummary', 'false'],
];

/** Names of the user's environment a git process keeps (deny by default: git needs no more). */
export const GIT_ENV_NAMES: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'XDG_CONFIG_HOME',
  // Where the user's own (system and global) git config lives: theirs, and it stays.
  'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM',
  // Windows: git for Windows finds its home and runtime through these.
  'SYSTEMROOT', 'USERPROFILE', 'HOMEDRIVE', 'HOMEPATH', 'APPDATA', 'LOCALAPPDATA', 'PROGRAMDATA', 'COMSPEC',
];

/** `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>` for these settings, in order. */
export function gitConfigVariables(settings: readonly (readonly [string, string])[]): Record<string, string> {
  const out: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([key, value], index) => {
    out[`GIT_CONFIG_KEY_${index}`] = key;
    out[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return out;
}
