import { z } from 'zod';
import { throwIfAborted, ToolError } from '../../errors';
import { detectEol, normalizeEol, splitBlock } from '../edit/textLines';
import { unifiedDiff } from '../edit/unifiedDiff';
import { defineTool } from '../tool';
import { rejectionResult } from './rejection';
import { assertUnchanged, assertWritable, decodeText, looksBinary, MAX_WHOLE_TEXT_BYTES, withBom, type TextFile } from './textFile';

/** Arguments of `write_file`. */
export const WriteFileArgs = z.object({
  path: z.string(),
  content: z.string().describe('the complete new content'),
});
export type WriteFileArgs = z.infer<typeof WriteFileArgs>;

/**
 * `write_file`: creates or overwrites a file after the user approves the diff; a rejection comes
 * back as an error result with the user's reason. An existing file keeps its CRLF line endings
 * and byte-order mark; identical content writes nothing.
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create a file, or overwrite one with complete new content. To change part of a file use edit_file.',
  category: 'edit',
  parameters: WriteFileArgs,
  async execute(args, context) {
    const { workspace, signal } = context;
    const path = await workspace.resolve(args.path);
    const stat = await workspace.stat(path);
    if (stat?.kind === 'dir') throw new ToolError(`${path} is a folder; give a file path.`);
    if (stat?.kind === 'other') throw new ToolError(`${path} is not a regular file (a FIFO, socket or device); it was not written.`);
    assertWritable(path, stat);
    if (stat && stat.size > MAX_WHOLE_TEXT_BYTES) {
      throw new ToolError(`${path} is ${Math.round(stat.size / 1024 / 1024)} MB; write_file replaces files up to ${MAX_WHOLE_TEXT_BYTES / 1024 / 1024} MB. It was not changed.`);
    }
    let old: TextFile | undefined;
    let oldBytes: Uint8Array | undefined;
    let oldIsBinary = false;
    if (stat) {
      oldBytes = await workspace.readFile(path, signal);
      oldIsBinary = looksBinary(oldBytes);
      if (!oldIsBinary) old = decodeText(path, oldBytes, { strict: false });
      // Text in another encoding (Latin-1, Shift-JIS…) would silently become UTF-8: refuse, as edit_file does.
      if (old && old.invalidBytes > 0) {
        throw new ToolError(
          `${path} is not UTF-8 (${old.invalidBytes} byte sequence${old.invalidBytes === 1 ? ' is' : 's are'} invalid, e.g. Latin-1 text); writing it would re-encode the file, so it was not changed. Change it with a command that keeps its encoding.`,
        );
      }
    }
    let content = args.content;
    let keptCrlf = false;
    if (old && detectEol(old.text) === '\r\n' && content.includes('\n') && !content.includes('\r\n')) {
      content = normalizeEol(content, '\r\n');
      keptCrlf = true;
    }
    if (old && old.invalidBytes === 0 && old.text === content) return { content: `${path} already has this content; nothing was written.` };

    const before = old?.text ?? '';
    const lineCount = splitBlock(content).length;
    const lines = `${lineCount} line${lineCount === 1 ? '' : 's'}`;
    const title = stat ? `Overwrite ${path}` : `Create ${path}`;
    const detail = oldIsBinary
      ? `Replace the binary file ${path} with ${lines} of text.`
      : shownDiff(unifiedDiff(path, before, content, { created: !stat })) || `${title} (empty file)`;
    const decision = await context.requestApproval({ category: 'edit', title, detail, diff: { path, before, after: content }, paths: [path] });
    if (!decision.approved) return rejectionResult(`writing ${path} (nothing was written)`, decision);
    throwIfAborted(signal);
    await assertUnchanged(workspace, path, oldBytes, signal);
    await workspace.writeFile(path, withBom(content, old?.bom ?? false), signal);
    return { content: `${stat ? 'Overwrote' : 'Created'} ${path} (${lines}).${keptCrlf ? ' Kept its CRLF line endings.' : ''}` };
  },
});

/**
 * Longest diff an approval shows as text: the CLI prints it whole and the webview shows its first
 * 6,000 characters, so a generated file of megabytes would only be one more copy of the argument in
 * the event, the history and `--json` output. `diff.after` still carries the whole content (VS Code's
 * diff view, ACP clients).
 */
export const MAX_APPROVAL_DIFF_CHARS = 64 * 1024;

/** `diff` cut at a line end near `MAX_APPROVAL_DIFF_CHARS`, saying how many lines are left out. */
function shownDiff(diff: string): string {
  if (diff.length <= MAX_APPROVAL_DIFF_CHARS) return diff;
  const cut = diff.lastIndexOf('\n', MAX_APPROVAL_DIFF_CHARS - 1) + 1 || MAX_APPROVAL_DIFF_CHARS;
  let rest = 0;
  for (let nl = diff.indexOf('\n', cut); nl !== -1; nl = diff.indexOf('\n', nl + 1)) rest++;
  if (!diff.endsWith('\n')) rest++;
  return `${diff.slice(0, cut)}… ${rest} more line${rest === 1 ? '' : 's'} of the diff not shown\n`;
}
