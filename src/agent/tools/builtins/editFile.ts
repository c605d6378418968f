import { z } from 'zod';
import { throwIfAborted, ToolError } from '../../errors';
import { truncateHeadTail } from '../../context/truncate';
import { applyEdits } from '../edit/applyEdits';
import { diffStats, unifiedDiff } from '../edit/unifiedDiff';
import { defineTool } from '../tool';
import { rejectionResult } from './rejection';
import { assertUnchanged, assertWritable, readTextFile, withBom } from './textFile';

/** Cap on the diff echoed to the model after a whitespace-tolerant edit. */
const MAX_ECHOED_DIFF_CHARS = 4_000;

/** Arguments of `edit_file`. */
export const EditFileArgs = z.object({
  path: z.string(),
  edits: z
    .array(z.object({ search: z.string(), replace: z.string() }))
    .min(1)
    .describe('applied in order; `search` is the exact current text, with enough lines to be unique'),
});
export type EditFileArgs = z.infer<typeof EditFileArgs>;

/**
 * `edit_file`: applies search/replace edits (see `applyEdits`: exact, then whitespace-tolerant
 * with re-indentation), all or none, shows the unified diff for approval and writes atomically.
 * Failures name the edit index and explain (ambiguity with line numbers, closest region); a
 * rejection comes back with the user's reason. The file keeps its line endings, final newline
 * and byte-order mark.
 */
export const editFileTool = defineTool({
  name: 'edit_file',
  description: 'Edit a file by search/replace. Each `search` must match exactly one place (copy the text exactly, without line numbers); edits apply in order, all or none.',
  category: 'edit',
  parameters: EditFileArgs,
  async execute(args, context) {
    const { workspace, signal } = context;
    const file = await readTextFile(workspace, args.path, signal, 'To create a file use write_file.');
    const { path } = file;
    assertWritable(path, await workspace.stat(path));
    if (file.invalidBytes > 0) {
      throw new ToolError(`${path} contains bytes that are not valid UTF-8; editing it as text would corrupt them, so it was not changed.`);
    }
    const result = applyEdits(file.text, args.edits);
    if (!result.ok) throw new ToolError(`${result.message}\nNo edits were applied; ${path} is unchanged.`);
    if (result.text === file.text) throw new ToolError(`These edits leave ${path} exactly as it is; nothing was written.`);

    const diff = unifiedDiff(path, file.text, result.text);
    const decision = await context.requestApproval({
      category: 'edit',
      title: `Edit ${path}`,
      detail: diff,
      diff: { path, before: file.text, after: result.text },
      paths: [path],
    });
    if (!decision.approved) return rejectionResult(`the edit to ${path} (the file is unchanged)`, decision);
    throwIfAborted(signal);
    await assertUnchanged(workspace, path, file.bytes, signal);
    await workspace.writeFile(path, withBom(result.text, file.bom), signal);

    const { added, removed } = diffStats(diff);
    const count = result.applied.length;
    const lines = [`Edited ${path}: ${count} edit${count === 1 ? '' : 's'} applied (+${added} -${removed} lines).`];
    for (const edit of result.applied) {
      const where = edit.endLine < edit.startLine ? `lines removed at line ${edit.startLine}` : `now lines ${edit.startLine}-${edit.endLine}`;
      const how = [edit.numbersRemoved && 'read_file line numbers taken out of the text', edit.kind === 'tolerant' && 'matched ignoring whitespace; indentation follows the file'].filter(Boolean);
      lines.push(`edits[${edit.index}]: ${where}${how.length > 0 ? ` (${how.join('; ')})` : ''}`);
    }
    if (result.applied.some((edit) => edit.kind === 'tolerant')) {
      lines.push('The change as written:', truncateHeadTail(diff, MAX_ECHOED_DIFF_CHARS).text.trimEnd());
    }
    return { content: lines.join('\n') };
  },
});
