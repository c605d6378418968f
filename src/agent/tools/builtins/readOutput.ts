import { z } from 'zod';
import { ToolError } from '../../errors';
import { o200kCounter } from '../../context/tokenCounter';
import { gutterLine } from '../edit/lineGutter';
import { defineTool } from '../tool';

/** Most lines one read_output call returns (the token cap may make the window smaller). */
export const READ_OUTPUT_MAX_LINES = 400;
/** The per-result token cap when the loop does not say (its default). */
const DEFAULT_RESULT_TOKENS = 6_000;
/** Tokens kept free for the footer. */
const FOOTER_TOKENS = 60;
/** Longer lines are cut (a minified bundle printed whole); the cut says how much is left out. */
const MAX_LINE_CHARS = 2_000;

/** Arguments of `read_output`. */
export const ReadOutputArgs = z.object({
  call_id: z.string().min(1).describe('the call id the cut marker names'),
  start_line: z.number().int().min(1).optional().describe('1-based first line (default 1)'),
  end_line: z.number().int().min(1).optional().describe('last line, inclusive'),
});
export type ReadOutputArgs = z.infer<typeof ReadOutputArgs>;

/**
 * `read_output`: lines of an earlier tool output that reached the model cut (kept whole for the
 * task), numbered like read_file (lineGutter.ts), as many as fit the per-result token cap; the footer names the lines
 * shown and the `start_line` to continue from. Unknown or dropped outputs are a clear error.
 */
export const readOutputTool = defineTool({
  name: 'read_output',
  description: 'Read the lines a cut tool output left out (the cut marker gives the call_id and start_line).',
  category: 'read',
  parameters: ReadOutputArgs,
  async execute(args, context) {
    const text = context.outputs?.get(args.call_id);
    if (text === undefined) {
      throw new ToolError(
        `No kept output for call_id ${JSON.stringify(args.call_id)}: only outputs that were cut are kept, in memory while the task ` +
          'runs (not after a reload or restart), and the oldest go first when many are kept. Run the tool again with narrower arguments instead.',
      );
    }
    const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
    const start = args.start_line ?? 1;
    if (start > lines.length) throw new ToolError(`start_line ${start} is past the end of the output, which has ${lines.length} lines.`);
    const last = Math.min(lines.length, args.end_line ?? Number.POSITIVE_INFINITY, start + READ_OUTPUT_MAX_LINES - 1);
    if (last < start) throw new ToolError(`end_line ${args.end_line} is before start_line ${start}.`);
    const counter = context.resultTokens?.counter ?? o200kCounter;
    const budget = Math.max(16, (context.resultTokens?.max ?? DEFAULT_RESULT_TOKENS) - FOOTER_TOKENS);
    const out: string[] = [];
    let tokens = 0;
    for (let n = start; n <= last; n++) {
      const line = lines[n - 1]!;
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} ... [${line.length - MAX_LINE_CHARS} more characters on this line]` : line;
      const numbered = gutterLine(n, shown, n === start);
      const cost = counter.count(numbered) + 1;
      if (out.length > 0 && tokens + cost > budget) break;
      out.push(out.length === 0 && cost > budget ? `${numbered.slice(0, budget * 2)} ... [cut to fit the token limit]` : numbered);
      tokens += cost;
    }
    const shownLast = start + out.length - 1;
    const more = shownLast < lines.length ? ` To read more, call read_output with start_line=${shownLast + 1}.` : '';
    return { content: `${out.join('\n')}\n[Lines ${start}-${shownLast} of ${lines.length} of the output of ${args.call_id}.${more}]` };
  },
});
