import { z } from 'zod';
import { ToolError } from '../../errors';
import { indexLines } from '../edit/textLines';
import { defineTool } from '../tool';
import { readTextFile } from './textFile';

/** Most lines one read_file call returns. */
export const READ_FILE_MAX_LINES = 500;
/** Most characters one read_file call returns (kept under the loop's per-result token cap). */
export const READ_FILE_MAX_CHARS = 20_000;
/** Longer lines are cut (minified files); the cut says how much is left out. */
const MAX_LINE_CHARS = 2_000;

/** Arguments of `read_file`. */
export const ReadFileArgs = z.object({
  path: z.string(),
  start_line: z.number().int().min(1).optional().describe('1-based first line (default 1)'),
  end_line: z.number().int().min(1).optional().describe('last line, inclusive'),
});
export type ReadFileArgs = z.infer<typeof ReadFileArgs>;

/**
 * `read_file`: a text file's lines numbered `  12| text`, at most 500 lines or 20,000 characters
 * per call; a cut view names the lines shown, the total and the `start_line` to continue from.
 * Refuses binary files and start lines past the end.
 */
export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file with numbered lines (`12| text`). Long files come in windows of 500 lines.',
  category: 'read',
  parameters: ReadFileArgs,
  async execute(args, context) {
    const file = await readTextFile(context.workspace, args.path, context.signal);
    if (file.text === '') return { content: `${file.path} is empty (0 lines).` };
    const { lines } = indexLines(file.text);
    const total = lines.length;
    const start = args.start_line ?? 1;
    if (start > total) throw new ToolError(`start_line ${start} is past the end of ${file.path}, which has ${total} lines.`);
    if (args.end_line !== undefined && args.end_line < start) {
      throw new ToolError(`end_line ${args.end_line} is before start_line ${start}.`);
    }
    const wanted = Math.min(args.end_line ?? total, total);
    const windowEnd = Math.min(wanted, start + READ_FILE_MAX_LINES - 1);
    const width = String(windowEnd).length;
    const out: string[] = [];
    let chars = 0;
    let last = start - 1;
    for (let n = start; n <= windowEnd; n++) {
      let line = lines[n - 1]!;
      if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)} ... [${line.length - MAX_LINE_CHARS} more characters on this line]`;
      const numbered = `${String(n).padStart(width)}| ${line}`;
      if (out.length > 0 && chars + numbered.length + 1 > READ_FILE_MAX_CHARS) break;
      out.push(numbered);
      chars += numbered.length + 1;
      last = n;
    }
    const notes: string[] = [];
    if (start > 1 || last < total) {
      const more = last < wanted ? ` To read more, call read_file with start_line=${last + 1}.` : '';
      notes.push(`[Lines ${start}-${last} of ${total}.${more}]`);
    }
    if (file.invalidBytes > 0) {
      const many = file.invalidBytes > 1;
      notes.push(`[${file.invalidBytes} invalid UTF-8 sequence${many ? 's are' : ' is'} shown as \uFFFD.]`);
    }
    return { content: [out.join('\n'), ...notes].join('\n') };
  },
});
