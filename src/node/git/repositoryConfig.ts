import { NEUTRAL_GIT_CONFIG } from '../../agent/secrets/gitNeutral';

/** One entry of `git config -z --list --show-scope`: where it came from, its name and value. */
export interface ConfigEntry {
  scope: string;
  /** Canonical name: section and key lower-case, subsection as written. */
  name: string;
  value: string;
}

/** Scopes that are the user's own configuration; every other scope (local, worktree, …) is the repository's. */
const USER_SCOPES = new Set(['system', 'global']);
/** Our own overrides (`GIT_CONFIG_COUNT`) show as `command`: not the repository's. */
const OWN_SCOPE = 'command';

/**
 * Names in a repository's config that make git start a program, with the value that makes each
 * inert. `diff.external` and `diff.<driver>.textconv|command` are not here: an empty value makes git
 * fail ("cannot run"), so `neutralGit` passes `--no-ext-diff --no-textconv` instead. The fixed
 * settings of `NEUTRAL_GIT_CONFIG` (fsmonitor, hooks, pager, credential.helper…) always win and are
 * not repeated per name.
 */
const PROGRAM_NAMES: readonly { pattern: RegExp; inert: string }[] = [
  { pattern: /^filter\.[^]+\.(clean|smudge|process)$/i, inert: '' },
  { pattern: /^pager\.[^]+$/i, inert: 'false' },
  { pattern: /^core\.sshcommand$/i, inert: 'ssh' },
  { pattern: /^core\.gitproxy$/i, inert: 'none' },
  { pattern: /^core\.alternaterefscommand$/i, inert: '' },
  { pattern: /^credential\.[^]+\.helper$/i, inert: '' },
  { pattern: /^protocol\.[^]+\.allow$/i, inert: 'never' },
  { pattern: /^merge\.[^]+\.driver$/i, inert: '' },
  { pattern: /^gpg\.([^]+\.)?program$/i, inert: '' },
  { pattern: /^gpg\.ssh\.defaultkeycommand$/i, inert: '' },
  { pattern: /^interactive\.difffilter$/i, inert: '' },
];

const FIXED = new Set(NEUTRAL_GIT_CONFIG.map(([name]) => name.toLowerCase()));

/** Parses `git config -z --list --show-scope` output: `scope NUL name LF value NUL`, repeated. */
export function parseConfigList(output: string): ConfigEntry[] {
  const fields = output.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i]!;
    const pair = fields[i + 1]!;
    const nl = pair.indexOf('\n');
    entries.push({ scope, name: nl < 0 ? pair : pair.slice(0, nl), value: nl < 0 ? '' : pair.slice(nl + 1) });
  }
  return entries;
}

/**
 * The settings (command scope, after `NEUTRAL_GIT_CONFIG`) that make every program-running name the
 * repository's config sets inert: each gets the user's own (system / global) value when they set
 * one, else its inert value; a filter driver left with no program of the user's also gets
 * `required=false`, since a required filter with no program makes git fail.
 */
export function neutralRepositorySettings(entries: readonly ConfigEntry[]): [string, string][] {
  const userValue = new Map<string, string>();
  for (const e of entries) if (USER_SCOPES.has(e.scope)) userValue.set(e.name.toLowerCase(), e.value);
  const settings = new Map<string, string>();
  const filtersToRelax = new Set<string>();
  for (const e of entries) {
    if (USER_SCOPES.has(e.scope) || e.scope === OWN_SCOPE || FIXED.has(e.name.toLowerCase())) continue;
    const rule = PROGRAM_NAMES.find((r) => r.pattern.test(e.name));
    if (!rule) continue;
    settings.set(e.name, userValue.get(e.name.toLowerCase()) ?? rule.inert);
    const filter = /^filter\.([^]+)\.(clean|smudge|process)$/i.exec(e.name);
    if (filter) filtersToRelax.add(filter[1]!);
  }
  for (const driver of filtersToRelax) {
    const usersOwn = ['clean', 'smudge', 'process'].some((k) => (userValue.get(`filter.${driver}.${k}`.toLowerCase()) ?? '') !== '');
    if (!usersOwn) settings.set(`filter.${driver}.required`, 'false');
  }
  return [...settings];
}
