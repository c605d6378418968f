import type { Workspace } from '../../../agent/ports';
import type { MentionSuggestion } from '../../../shared/webviewProtocol';
import { rankMentionSuggestions } from './mentionSuggestions';

/** Paths listed for the `@` list (ignore rules applied); enough for fuzzy search in most repositories. */
const MAX_PATHS = 20_000;
/** How long one listing serves the keystrokes that follow. */
const FRESH_MS = 5_000;
/** What Stepwise itself writes into a workspace: its reports and saved images are output, not context to attach. */
export const STEPWISE_OUTPUT_FOLDERS: readonly string[] = ['.stepwise/reports', '.stepwise/images'];

/** True when `path` (workspace-relative, `/`) is one of `folders` or inside one. */
export function isUnder(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => {
    const f = folder.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
    return f !== '' && (path === f || path.startsWith(`${f}/`));
  });
}

/** Answers `@` queries from the chat box: the workspace's paths, listed once per burst of typing. */
export class MentionSource {
  private cache?: { root: string; at: number; paths: Promise<{ path: string; folder: boolean }[]> };

  constructor(
    private readonly root: () => string | undefined,
    private readonly workspace: (root: string) => Workspace,
    private readonly now: () => number = Date.now,
    /** Folders never offered (Stepwise's own output; the host adds the configured reports folder). */
    private readonly hidden: () => readonly string[] = () => STEPWISE_OUTPUT_FOLDERS,
  ) {}

  /** The suggestions for `query` (specials only when no folder is open). */
  async suggest(query: string): Promise<MentionSuggestion[]> {
    const root = this.root();
    if (!root) return rankMentionSuggestions(query, []);
    if (!this.cache || this.cache.root !== root || this.now() - this.cache.at > FRESH_MS) {
      const listing = this.workspace(root).listFiles('', { recursive: true, limit: MAX_PATHS })
        .then(({ entries }) => entries.map((e) => ({ path: e.path, folder: e.kind === 'dir' })));
      this.cache = { root, at: this.now(), paths: listing };
      listing.catch(() => (this.cache = undefined));
    }
    const hidden = this.hidden();
    const paths = (await this.cache.paths.catch(() => [])).filter((entry) => !isUnder(entry.path, hidden));
    return rankMentionSuggestions(query, paths);
  }
}
