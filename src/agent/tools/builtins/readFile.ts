import { z } from 'zod';
import { FileNotFoundError, ToolError } from '../../errors';
import { o200kCounter, type TokenCounter } from '../../context/tokenCounter';
import { defineTool } from '../tool';
import { gutterLine } from '../edit/lineGutter';
import { readLineWindow, type RawWindow } from './lineWindow';
import { looksBinary } from './textFile';

/** Most lines one read_file call returns. */
export const READ_FILE_MAX_LINES = 500;
/** Most characters one read_file call returns (the token cap may make the window smaller still). */
export const READ_FILE_MAX_CHARS = 20_000;
/** Longer lines are cut (minified files); the cut says how much is left out. */
const MAX_LINE_CHARS = 2_000;
/** Most bytes read for one window, whatever the file's size. */
const MAX_WINDOW_BYTES = 256 * 1024;
/** Files up to this size get their line count in the footer (counting reads the rest of the file). */
const COUNT_TOTAL_UP_TO_BYTES = 8 * 1024 * 1024;
/** Bytes sniffed for a NUL to call a file binary. */
const SNIFF_BYTES = 8192;
/** The per-result token cap when the loop does not say (its default). */
const DEFAULT_RESULT_TOKENS = 6_000;
/** Tokens kept free for the footer and notes below the window. */
const FOOTER_TOKENS = 80;

/** Arguments of `read_file`. */
export const ReadFileArgs = z.object({
  path: z.string(),
  start_line: z.number().int().min(1).optional().describe('1-based first line (default 1)'),
  end_line: z.number().int().min(1).optional().describe('last line, inclusive'),
});
export type ReadFileArgs = z.infer<typeof ReadFileArgs>;

/**
 * `read_file`: a text file's lines shown with the line-number gutter of lineGutter.ts, at most 500 lines, 20,000 characters
 * and the loop's per-result token cap per call, so the window is never cut in the middle
 * afterwards; the footer names the lines shown, the total when known and the `start_line` to
 * continue from. Reads only the window's bytes (any file size). Refuses binary files (judged on
 * the first 8 KB), special files and start lines past the end.
 */
export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file. Per line: a number column, a tab, the exact text; numbered on the first line and every 5th (5, 10…). Windows of 500 lines.',
  category: 'read',
  parameters: ReadFileArgs,
  async execute(args, context) {
    const { workspace, signal } = context;
    const path = await workspace.resolve(args.path);
    const stat = await workspace.stat(path);
    if (!stat) throw new FileNotFoundError(`File not found: ${path}. Check the path with list_files or search_files.`);
    if (stat.kind === 'dir') throw new ToolError(`${path} is a folder, not a file; use list_files to see what it holds.`);
    if (stat.kind === 'other') throw new ToolError(`${path} is not a regular file (a FIFO, socket or device); only regular files can be read.`);
    const start = args.start_line ?? 1;
    if (args.end_line !== undefined && args.end_line < start) throw new ToolError(`end_line ${args.end_line} is before start_line ${start}.`);
    const head = await workspace.readRange(path, { offset: 0, length: SNIFF_BYTES }, signal);
    if (looksBinary(head.bytes)) throw new ToolError(`${path} is a binary file (${head.size} bytes); it cannot be shown or edited as text.`);
    const bodyStart = head.bytes[0] === 0xef && head.bytes[1] === 0xbb && head.bytes[2] === 0xbf ? 3 : 0;
    if (head.size <= bodyStart) return { content: `${path} is empty (0 lines).` };
    const wanted = args.end_line === undefined ? Number.POSITIVE_INFINITY : args.end_line;
    const raw = await readLineWindow(
      workspace,
      {
        path,
        startLine: start,
        maxLines: Math.min(READ_FILE_MAX_LINES, wanted - start + 1),
        maxBytes: MAX_WINDOW_BYTES,
        bodyStart,
        size: head.size,
        mtimeMs: head.mtimeMs,
        ...(head.ino === undefined ? {} : { ino: head.ino }),
        countTotalUpTo: COUNT_TOTAL_UP_TO_BYTES,
      },
      signal,
    );
    if (raw.lines.length === 0) throw new ToolError(`start_line ${start} is past the end of ${path}, which has ${raw.totalLines ?? 'fewer'} lines.`);
    const budget = (context.resultTokens?.max ?? DEFAULT_RESULT_TOKENS) - FOOTER_TOKENS;
    const shown = fitWindow(path, raw, Math.max(16, budget), context.resultTokens?.counter ?? o200kCounter);
    return { content: [shown.text, ...footer(raw, shown.last, wanted, shown.invalidBytes)].join('\n') };
  },
});

/** The numbered lines that fit the character and token budgets (at least one, cut if it must be). */
function fitWindow(path: string, raw: RawWindow, maxTokens: number, counter: TokenCounter): { text: string; last: number; invalidBytes: number } {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const out: string[] = [];
  let chars = 0;
  let tokens = 0;
  let invalidBytes = 0;
  let decodedChars = 0;
  for (let k = 0; k < raw.lines.length; k++) {
    let line = decoder.decode(raw.lines[k]);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    decodedChars += line.length;
    for (let i = line.indexOf('\uFFFD'); i !== -1; i = line.indexOf('\uFFFD', i + 1)) invalidBytes++;
    const lastCut = raw.cut && k === raw.lines.length - 1;
    if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)} ... [${lastCut ? 'the line goes on; more than ' : ''}${line.length - MAX_LINE_CHARS} more characters on this line]`;
    else if (lastCut) line += ' ... [the line goes on past what one window reads]';
    const numbered = gutterLine(raw.firstLine + k, line, k === 0);
    const lineTokens = counter.count(numbered) + 1;
    if (out.length > 0 && (chars + numbered.length + 1 > READ_FILE_MAX_CHARS || tokens + lineTokens > maxTokens)) break;
    out.push(numbered);
    chars += numbered.length + 1;
    tokens += lineTokens;
  }
  if (invalidBytes > Math.max(8, decodedChars / 50)) {
    throw new ToolError(`${path} is not UTF-8 text (${invalidBytes} invalid byte sequences); it cannot be shown or edited as text.`);
  }
  // Lines counted apart, plus one token per newline, bound the joined text from above (BPE merges
  // across lines only lower the count), so the window fits without tokenizing it again.
  let text = out.join('\n');
  if (out.length === 1 && tokens > maxTokens) text = text.slice(0, maxTokens * 2) + ' ... [cut to fit the token limit]';
  return { text, last: raw.firstLine + out.length - 1, invalidBytes };
}

/** Where the window sits in the file and how to go on; nothing for a whole small file. */
function footer(raw: RawWindow, last: number, wanted: number, invalidBytes: number): string[] {
  const notes: string[] = [];
  const reachedEnd = raw.atEnd && last === raw.firstLine + raw.lines.length - 1;
  if (raw.firstLine > 1 || !reachedEnd) {
    const more = last < wanted && !reachedEnd ? ` To read more, call read_file with start_line=${last + 1}.` : '';
    const of = raw.totalLines !== undefined ? ` of ${raw.totalLines}` : ` of a ${formatSize(raw.size)} file (lines not counted)`;
    notes.push(`[Lines ${raw.firstLine}-${last}${of}.${more}]`);
  }
  if (invalidBytes > 0) {
    const many = invalidBytes > 1;
    notes.push(`[${invalidBytes} invalid UTF-8 sequence${many ? 's are' : ' is'} shown as \uFFFD.]`);
  }
  return notes;
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}
