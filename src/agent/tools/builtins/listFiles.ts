import { z } from 'zod';
import { FileNotFoundError, ToolError } from '../../errors';
import { defineTool } from '../tool';

/** Most entries one list_files call returns. */
export const LIST_FILES_LIMIT = 500;

/** Arguments of `list_files`. */
export const ListFilesArgs = z.object({
  path: z.string().optional().describe('folder (default: workspace root)'),
  recursive: z.boolean().optional(),
});
export type ListFilesArgs = z.infer<typeof ListFilesArgs>;

/**
 * `list_files`: a folder's entries (workspace-relative, folders ending in `/`), ignored files
 * left out, at most 500; says when the list was cut.
 */
export const listFilesTool = defineTool({
  name: 'list_files',
  description: 'List files and folders (folders end in `/`), skipping ignored ones.',
  category: 'read',
  parameters: ListFilesArgs,
  async execute(args, context) {
    const path = await context.workspace.resolve(args.path ?? '.');
    const stat = await context.workspace.stat(path);
    if (!stat) throw new FileNotFoundError(`Folder not found: ${path}.`);
    if (stat.kind === 'file') throw new ToolError(`${path} is a file, not a folder; use read_file to read it.`);
    const recursive = args.recursive ?? false;
    const { entries, truncated } = await context.workspace.listFiles(path, { recursive, limit: LIST_FILES_LIMIT, signal: context.signal });
    const where = path === '' || path === '.' ? 'the workspace' : path;
    if (entries.length === 0) return { content: `${where} is empty (or holds only ignored files).` };
    const lines = entries
      .map((entry) => (entry.kind === 'dir' ? `${entry.path}/` : entry.path))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (truncated) {
      const hint = recursive ? 'list a subfolder, or call without recursive' : 'use search_files to find specific files';
      lines.push(`[Showing the first ${entries.length} entries; more exist. To narrow down, ${hint}.]`);
    }
    return { content: lines.join('\n') };
  },
});
