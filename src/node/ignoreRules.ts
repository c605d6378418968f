import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * Ignore files read in every folder, lowest precedence first. This is ripgrep's set and order
 * (it reads `.ignore` and `.rgignore` too), so the JS search and `rg` agree on what is skipped.
 */
const PER_FOLDER_FILES = ['.gitignore', '.ignore', '.rgignore'] as const;

/** The agent's own ignore file, read at the workspace root with the lowest precedence (as `rg --ignore-file`). */
export const STEPWISE_IGNORE_FILE = '.stepwiseignore';

/** Names never listed or searched, whatever the ignore files say. */
const ALWAYS_SKIPPED = new Set(['.git']);

/**
 * Git-style ignore rules for one walk of the workspace: the root `.stepwiseignore`, and
 * `.gitignore` / `.ignore` / `.rgignore` in every folder, each matched relative to its own folder,
 * deeper folders overriding shallower ones (so a nested `!pattern` re-includes). Rule files are
 * read lazily and cached, so make a new instance for each listing or search.
 */
export class IgnoreRules {
  private readonly cache = new Map<string, Promise<Ignore | undefined>>();

  /** @param root absolute workspace folder the relative paths are relative to */
  constructor(private readonly root: string) {}

  /** True when the workspace-relative POSIX path `rel` (a folder when `isDir`) must be skipped. */
  async isIgnored(rel: string, isDir: boolean): Promise<boolean> {
    const parts = rel.split('/').filter((p) => p !== '');
    if (parts.some((p) => ALWAYS_SKIPPED.has(p))) return true;
    if (parts.length === 0) return false;
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const rules = await this.rulesFor(parts.slice(0, depth).join('/'));
      if (!rules) continue;
      const below = parts.slice(depth);
      // `ignore` also reports a path as ignored when a parent folder is. Every parent here was
      // either walked (so allowed) or named explicitly by the caller, so a verdict inherited from
      // a parent would be wrong: such a level gives no verdict for the entry itself.
      if (hasIgnoredParent(rules, below)) continue;
      const verdict = rules.test(below.join('/') + (isDir ? '/' : ''));
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }

  /**
   * The same verdicts as `isIgnored` for the entries of one folder, with the folder's share of the
   * work (which levels' rules apply, which of their parents are ignored) done once: a walk judges
   * each entry with one rule test per level that has rules. `names` (the folder's entries, when
   * already listed) spares reading rule files that are not there.
   */
  async folderMatcher(folderRel: string, names?: ReadonlySet<string>): Promise<(name: string, isDir: boolean) => boolean> {
    const parts = folderRel.split('/').filter((p) => p !== '');
    if (parts.some((p) => ALWAYS_SKIPPED.has(p))) return () => true;
    const levels: Array<{ rules: Ignore; prefix: string }> = [];
    for (let depth = parts.length; depth >= 0; depth--) {
      const rules = await this.rulesFor(parts.slice(0, depth).join('/'), depth === parts.length ? names : undefined);
      if (!rules) continue;
      const below = parts.slice(depth);
      // As in isIgnored: a level that ignores one of the entry's parents gives no verdict (the '' stands for the entry).
      if (hasIgnoredParent(rules, [...below, ''])) continue;
      levels.push({ rules, prefix: below.length ? `${below.join('/')}/` : '' });
    }
    return (name, isDir) => {
      if (ALWAYS_SKIPPED.has(name)) return true;
      for (const { rules, prefix } of levels) {
        const verdict = rules.test(prefix + name + (isDir ? '/' : ''));
        if (verdict.ignored) return true;
        if (verdict.unignored) return false;
      }
      return false;
    };
  }

  private rulesFor(folderRel: string, present?: ReadonlySet<string>): Promise<Ignore | undefined> {
    let rules = this.cache.get(folderRel);
    if (!rules) {
      rules = this.load(folderRel, present);
      this.cache.set(folderRel, rules);
    }
    return rules;
  }

  private async load(folderRel: string, present?: ReadonlySet<string>): Promise<Ignore | undefined> {
    const all = folderRel === '' ? [STEPWISE_IGNORE_FILE, ...PER_FOLDER_FILES] : PER_FOLDER_FILES;
    const names = present ? all.filter((name) => present.has(name)) : all;
    const texts = await Promise.all(names.map((name) => readText(path.join(this.root, folderRel, name))));
    const found = texts.filter((t): t is string => t !== undefined);
    if (found.length === 0) return undefined;
    // Case-sensitive like git on Linux and ripgrep; the package defaults to ignoring case.
    return ignore({ ignorecase: false }).add(found.join('\n'));
  }
}

function hasIgnoredParent(rules: Ignore, parts: readonly string[]): boolean {
  for (let i = 1; i < parts.length; i++) {
    if (rules.test(parts.slice(0, i).join('/') + '/').ignored) return true;
  }
  return false;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
