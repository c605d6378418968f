import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

/** One server-sent event: its `event` field (null without one) and its data lines joined by `\n`. */
export interface SseEvent {
  event: string | null;
  data: string;
}

/** Work done, for tests: bytes decoded, line breaks found, characters joined into lines. */
export interface SseWork {
  bytes: number;
  lines: number;
  joinedChars: number;
}

/**
 * Splits decoded text into lines at `\n`, `\r\n` or `\r`, holding back an unfinished last line.
 * Linear in the text: a piece without a line break is kept in a list and joined once when its
 * line ends (the SDK's decoder copies its whole buffer per event, which grows with the network
 * read, and a multi-megabyte tool argument makes tens of thousands of events).
 */
export class LineSplitter {
  private parts: string[] = [];
  /** A `\r` ended the last piece: a `\n` at the start of the next one belongs to it. */
  private pendingCr = false;

  constructor(private readonly work?: SseWork) {}

  /** The lines completed by `text`; `final` ends the last one too. */
  push(text: string, final = false): string[] {
    const out: string[] = [];
    let start = 0;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (text.startsWith('\n')) start = 1;
    }
    if (!text.includes('\r', start)) {
      // Most servers end lines with `\n` alone: indexOf, without a match object per line.
      for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
        this.parts.push(text.slice(start, nl));
        out.push(this.takeLine());
        start = nl + 1;
      }
      return this.rest(text, start, final, out);
    }
    const breaks = /\r\n|\r|\n/g;
    breaks.lastIndex = start;
    for (let found = breaks.exec(text); found; found = breaks.exec(text)) {
      this.parts.push(text.slice(start, found.index));
      out.push(this.takeLine());
      start = found.index + found[0].length;
      // A `\r` at the very end may be the first half of a `\r\n` split across reads.
      if (found[0] === '\r' && start === text.length) this.pendingCr = true;
    }
    return this.rest(text, start, final, out);
  }

  /** Keeps the unfinished end of `text` (from `start`); `final` ends it as a line. */
  private rest(text: string, start: number, final: boolean, out: string[]): string[] {
    if (start < text.length) this.parts.push(text.slice(start));
    if (final && this.parts.length > 0) out.push(this.takeLine());
    return out;
  }

  private takeLine(): string {
    const line = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    if (this.work) {
      this.work.lines++;
      if (this.parts.length > 1) this.work.joinedChars += line.length;
    }
    this.parts = [];
    return line;
  }
}

/** Builds server-sent events from lines, as the SSE spec and the SDK's decoder do (comments and unknown fields ignored). */
export class SseDecoder {
  private event: string | null = null;
  private data: string[] = [];

  /** The event a blank line completes, else undefined. */
  line(line: string): SseEvent | undefined {
    if (line === '') {
      if (this.event === null && this.data.length === 0) return undefined;
      const done = { event: this.event, data: this.data.join('\n') };
      this.event = null;
      this.data = [];
      return done;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return undefined;
  }

  /** The event still open when the body ended without a blank line. */
  end(): SseEvent | undefined {
    return this.line('');
  }
}

/** What `chatChunks` needs besides the body. */
export interface ChatChunkOptions {
  /** Aborting it ends the iteration without an error, as the SDK's stream does (the caller tells why). */
  signal: AbortSignal;
  /** The SDK's error for an `{"error": …}` event (its `APIError`, so classification stays one place). */
  apiError: (error: unknown, headers: Headers) => Error;
  work?: SseWork;
}

/** One read of a response body: bytes, or the end. */
type BodyRead = { done: true } | { done: false; value: Uint8Array };

/** Reads a response body one network read at a time; `close` releases it and, when asked, stops the transfer. */
interface BodyReader {
  read(): Promise<BodyRead>;
  close(cancel: boolean): Promise<void>;
}

/**
 * A reader over either kind of body a `fetch` gives: a web stream (Node's own fetch) or an async
 * iterable of byte chunks (node-fetch's Node stream, which proxies' and test shims' `fetch`
 * install; the SDK reads both).
 */
function bodyReader(body: unknown): BodyReader {
  const stream = body as ReadableStream<Uint8Array>;
  if (typeof stream.getReader === 'function') {
    const reader = stream.getReader();
    return {
      read: async () => {
        const r = await reader.read();
        return r.done ? { done: true } : { done: false, value: r.value };
      },
      close: async (cancel) => {
        reader.releaseLock();
        if (cancel) await stream.cancel().catch(() => undefined);
      },
    };
  }
  const iterator = (body as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return {
    read: async () => {
      const r = await iterator.next();
      if (r.done) return { done: true };
      return { done: false, value: typeof r.value === 'string' ? encoder.encode(r.value) : r.value };
    },
    close: async (cancel) => {
      if (cancel) await iterator.return?.().catch(() => undefined);
    },
  };
}

/**
 * The `chat.completion.chunk`s of a streamed response body, a batch per network read, read as the
 * `openai` SDK's `Stream` reads them (same SSE fields, `[DONE]` ends the data, an `error` payload
 * throws the SDK's `APIError`, a garbled payload throws its `SyntaxError`, an abort ends quietly)
 * but linear in the body: one streaming UTF-8 decode, line breaks found by a native regex, no byte
 * buffer copied per event, and one await per read rather than per chunk. The chunks before a bad
 * payload are yielded before it throws, as the SDK yields them. The SDK still sends the request,
 * retries and maps HTTP errors; only the body is read here.
 */
export async function* chatChunks(response: Response, options: ChatChunkOptions): AsyncGenerator<ChatCompletionChunk[]> {
  if (!response.body) throw new Error('The model endpoint answered without a body.');
  const decoder = new TextDecoder();
  const lines = new LineSplitter(options.work);
  const sse = new SseDecoder();
  const reader = bodyReader(response.body);
  let done = false;
  const parse = (event: SseEvent | undefined, batch: ChatCompletionChunk[]): void => {
    if (!event || done) return;
    if (event.data.startsWith('[DONE]')) {
      done = true;
      return;
    }
    const data = JSON.parse(event.data) as ChatCompletionChunk & { error?: unknown };
    if (data && data.error) throw options.apiError(data.error, response.headers);
    batch.push(data);
  };
  try {
    for (;;) {
      const read = await reader.read();
      const text = read.done ? decoder.decode() : decoder.decode(read.value, { stream: true });
      if (!read.done && options.work) options.work.bytes += read.value.byteLength;
      const batch: ChatCompletionChunk[] = [];
      let failed = false;
      let failure: unknown;
      try {
        for (const line of lines.push(text, read.done)) parse(sse.line(line), batch);
        if (read.done) parse(sse.end(), batch);
      } catch (error) {
        failed = true;
        failure = error;
      }
      if (batch.length > 0) yield batch;
      if (failed) throw failure;
      if (read.done) break;
    }
  } catch (error) {
    if (options.signal.aborted) return;
    throw error;
  } finally {
    // Left early (a thrown error, the caller's `break`): stop the transfer, as the SDK does.
    await reader.close(!done);
  }
}
