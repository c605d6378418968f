import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { MessageInbox } from '../agent/loop/messageInbox';

/** One stdin line of `--input stream-json`: Claude Code's user message (`content` a string or text blocks). */
export const StreamJsonLine = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({
    role: z.literal('user').optional(),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]),
  }),
});
export type StreamJsonLine = z.infer<typeof StreamJsonLine>;

/** The message's text, or why the line is not a message. */
export function messageOfLine(line: string): { text: string } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { problem: 'not JSON' };
  }
  const parsed = StreamJsonLine.safeParse(raw);
  if (!parsed.success) return { problem: 'not {"type":"user","message":{"content":…}}' };
  const content = parsed.data.message.content;
  const text = typeof content === 'string' ? content : content.filter((b) => b.type === 'text' && b.text).map((b) => b.text).join('\n');
  return text.trim() ? { text } : { problem: 'no text in the message' };
}

/** The first message (taken from the inbox: later ones stay queued), or undefined when stdin ended or the run was cancelled first. */
export function firstMessage(inbox: MessageInbox, stdin: NodeJS.ReadableStream, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const done = (text: string | undefined) => {
      stop();
      stdin.off('end', ended);
      signal.removeEventListener('abort', ended);
      resolve(text);
    };
    const ended = () => done(undefined);
    const stop = inbox.onMessage(() => done(inbox.takeFirst()));
    stdin.once('end', ended);
    signal.addEventListener('abort', ended, { once: true });
  });
}

/**
 * Reads stdin as JSON lines for the life of the task and queues each user message in the task's
 * inbox; a line that is not one is said on stderr and skipped. Returns the stop (the task ended).
 */
export function readStreamJsonInput(stdin: NodeJS.ReadableStream, inbox: MessageInbox, warn: (text: string) => void): () => void {
  const lines = createInterface({ input: stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    const message = messageOfLine(line);
    if ('text' in message) inbox.push(message.text);
    else warn(`stepwise: --input stream-json: skipped a line (${message.problem})\n`);
  });
  return () => {
    lines.close();
    // Reading keeps the process alive: let go of stdin once the task ended.
    (stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  };
}
