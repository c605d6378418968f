import { errorMessage, isCancellation } from '../errors';
import type { Workspace } from '../ports';
import { decodeText } from '../tools/builtins/textFile';
import type { MentionContent, MentionResolver } from './expandMentions';
import type { Mention } from './parseMentions';

/** Files larger than this are named, not attached: the agent can read them by window. */
const MAX_ATTACH_BYTES = 1_000_000;
/** Entries listed for a mentioned folder. */
const MAX_FOLDER_ENTRIES = 300;

/**
 * Resolves `@file` and `@folder/` mentions through the `Workspace` port (confined to the workspace,
 * ignore rules applied), and hands every other kind to `others` — the part each shell adds
 * (VS Code: problems, selection, terminal; both: git changes).
 */
export function workspaceMentions(workspace: Workspace, others: MentionResolver['resolve']): MentionResolver {
  return {
    async resolve(mention: Mention, signal: AbortSignal): Promise<MentionContent> {
      if (mention.kind !== 'file' && mention.kind !== 'folder') return others(mention, signal);
      try {
        const path = await workspace.resolve(mention.path ?? '.');
        const stat = await workspace.stat(path);
        if (!stat) return { ok: false, reason: `${path || '.'} does not exist` };
        if (stat.kind === 'dir') return folder(workspace, path, signal);
        if (stat.size > MAX_ATTACH_BYTES) return { ok: false, reason: `${path} is ${stat.size} bytes, too large to attach; the agent can read it with read_file` };
        // A range read of at most the cap: the size checked above may have grown since (a file being written, a swap for a sparse giant).
        const range = await workspace.readRange(path, { offset: 0, length: MAX_ATTACH_BYTES }, signal);
        if (range.size > MAX_ATTACH_BYTES) return { ok: false, reason: `${path} is ${range.size} bytes, too large to attach; the agent can read it with read_file` };
        const text = decodeText(path, range.bytes).text;
        return { ok: true, title: path, content: text };
      } catch (error) {
        if (isCancellation(error) || signal.aborted) throw error;
        return { ok: false, reason: errorMessage(error) };
      }
    },
  };
}

async function folder(workspace: Workspace, path: string, signal: AbortSignal): Promise<MentionContent> {
  const { entries, truncated } = await workspace.listFiles(path, { recursive: true, limit: MAX_FOLDER_ENTRIES, signal });
  const lines = entries.map((e) => (e.kind === 'dir' ? `${e.path}/` : e.path));
  if (truncated) lines.push(`… more entries not listed (first ${MAX_FOLDER_ENTRIES} shown)`);
  return { ok: true, title: `folder ${path || '.'} (${entries.length} entries)`, content: lines.join('\n') || '(empty)' };
}
