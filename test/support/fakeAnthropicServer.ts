/**
 * A hand-written server speaking Anthropic's Messages API for tests, event by event as Anthropic
 * documents its stream: `message_start` (the message skeleton with the prompt's usage:
 * `input_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens`), then per content block
 * `content_block_start` (`text` with empty text, `tool_use` with `input: {}`, `thinking` with empty
 * thinking and signature, `redacted_thinking` with its data), `content_block_delta`s (`text_delta`,
 * `input_json_delta` with `partial_json`, `thinking_delta`, then one `signature_delta`) and
 * `content_block_stop`; a `ping` after the first block start; `message_delta` with `stop_reason`,
 * `stop_sequence` and the output usage; `message_stop`. Every SSE message carries `event:` and
 * `data:` lines. Errors: an HTTP status with Anthropic's body `{type: 'error', error: {type,
 * message}}` (and headers such as `retry-after`), or an `error` event inside the stream.
 *
 *     const fake = await startFakeAnthropic([
 *       { status: 529, errorType: 'overloaded_error' },
 *       { blocks: [{ type: 'tool_use', name: 'read_file', fragments: ['{"pa', 'th": "a.txt"}'] }] },
 *     ]);
 *     // point the client at fake.url (no /v1), then inspect fake.messageRequests()
 *
 * Each POST /v1/messages takes the next scripted turn; when the script runs out the server answers
 * 500 saying so, so a test fails loudly. GET /v1/models lists `models`. Listens on 127.0.0.1, port 0.
 */
import * as http from 'node:http';
import type { Socket } from 'node:net';

/** One content block the fake streams. */
export type FakeBlock =
  | { type: 'text'; text: string; chunks?: string[] }
  /** `fragments` are sent as the `input_json_delta`s verbatim (default: `input` in one piece). */
  | { type: 'tool_use'; name: string; id?: string; input?: string; fragments?: string[] }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** Anthropic's usage fields. */
export interface FakeAnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** A streamed answer. */
export interface FakeAnthropicAnswer {
  blocks: FakeBlock[];
  /** Default `tool_use` when a block is one, else `end_turn`. */
  stopReason?: string;
  /** Default: 100 input, 20 output, no cache. */
  usage?: FakeAnthropicUsage;
  /** Send an `error` event after this many content blocks (and no `message_delta`). */
  errorAfterBlocks?: { blocks: number; type: string; message: string };
}

/** An HTTP error with Anthropic's error body. */
export interface FakeAnthropicError {
  status: number;
  errorType: string;
  message?: string;
  headers?: Record<string, string>;
}

export type FakeAnthropicTurn = FakeAnthropicAnswer | FakeAnthropicError;

/** A request as the fake received it. */
export interface RecordedAnthropicRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body of a POST. */
  body?: Record<string, unknown> & { messages?: Array<{ role: string; content: unknown }>; system?: unknown; tools?: unknown[] };
}

/** The running fake. */
export interface FakeAnthropicServer {
  /** `http://127.0.0.1:PORT` (the SDK adds `/v1/messages`). */
  url: string;
  requests: RecordedAnthropicRequest[];
  /** The POST /v1/messages requests only. */
  messageRequests(): RecordedAnthropicRequest[];
  close(): Promise<void>;
}

/** Options: the models GET /v1/models lists; the one key accepted (`x-api-key`; others get 401). */
export interface FakeAnthropicOptions {
  models?: string[];
  requireKey?: string;
}

/** Starts the fake on loopback. */
export async function startFakeAnthropic(script: FakeAnthropicTurn[], options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const requests: RecordedAnthropicRequest[] = [];
  const sockets = new Set<Socket>();
  let turn = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const recorded: RecordedAnthropicRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers };
      if (raw) recorded.body = JSON.parse(raw) as RecordedAnthropicRequest['body'];
      requests.push(recorded);
      const path = (req.url ?? '').split('?')[0];
      if (options.requireKey !== undefined && req.headers['x-api-key'] !== options.requireKey) {
        return sendError(res, { status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' });
      }
      if (req.method === 'GET' && path === '/v1/models') return listModels(res, options.models ?? ['claude-sonnet-4-6']);
      if (req.method !== 'POST' || path !== '/v1/messages') return sendError(res, { status: 404, errorType: 'not_found_error', message: `no route ${req.method} ${path}` });
      const next = script[turn++];
      if (!next) return sendError(res, { status: 500, errorType: 'api_error', message: `fake script ran out at request ${turn}` });
      if ('status' in next) return sendError(res, next);
      streamAnswer(res, next, turn, String(recorded.body?.model ?? 'claude'));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messageRequests: () => requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/messages')),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function listModels(res: http.ServerResponse, models: string[]): void {
  const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z' }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ data, has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null }));
}

function sendError(res: http.ServerResponse, error: FakeAnthropicError): void {
  res.writeHead(error.status, { 'content-type': 'application/json', 'request-id': 'req_fake', ...error.headers });
  res.end(JSON.stringify({ type: 'error', error: { type: error.errorType, message: error.message ?? error.errorType }, request_id: 'req_fake' }));
}

/** The SSE events of one answer, in Anthropic's order. */
function answerEvents(answer: FakeAnthropicAnswer, turn: number, model: string): Array<[string, unknown]> {
  const usage = answer.usage ?? { input_tokens: 100, output_tokens: 20 };
  const startUsage = { input_tokens: usage.input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0, cache_read_input_tokens: usage.cache_read_input_tokens ?? 0, output_tokens: 1 };
  const events: Array<[string, unknown]> = [
    ['message_start', { type: 'message_start', message: { id: `msg_fake_${turn}`, type: 'message', role: 'assistant', content: [], model, stop_reason: null, stop_sequence: null, usage: startUsage } }],
  ];
  let toolIndex = 0;
  for (const [index, block] of answer.blocks.entries()) {
    if (answer.errorAfterBlocks && index === answer.errorAfterBlocks.blocks) break;
    const delta = (d: Record<string, unknown>): [string, unknown] => ['content_block_delta', { type: 'content_block_delta', index, delta: d }];
    switch (block.type) {
      case 'text':
        events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
        for (const piece of block.chunks ?? [block.text]) events.push(delta({ type: 'text_delta', text: piece }));
        break;
      case 'tool_use': {
        const id = block.id ?? `toolu_fake_${turn}_${toolIndex++}`;
        events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: block.name, input: {} } }]);
        for (const piece of block.fragments ?? [block.input ?? '{}']) events.push(delta({ type: 'input_json_delta', partial_json: piece }));
        break;
      }
      case 'thinking':
        events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }]);
        for (const piece of splitInTwo(block.thinking)) events.push(delta({ type: 'thinking_delta', thinking: piece }));
        events.push(delta({ type: 'signature_delta', signature: block.signature }));
        break;
      case 'redacted_thinking':
        events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.data } }]);
        break;
    }
    if (index === 0) events.push(['ping', { type: 'ping' }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  }
  if (answer.errorAfterBlocks) {
    events.push(['error', { type: 'error', error: { type: answer.errorAfterBlocks.type, message: answer.errorAfterBlocks.message } }]);
    return events;
  }
  const stopReason = answer.stopReason ?? (answer.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

function streamAnswer(res: http.ServerResponse, answer: FakeAnthropicAnswer, turn: number, model: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${turn}` });
  for (const [name, data] of answerEvents(answer, turn, model)) res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** Thinking arrives in more than one delta, as it does from the API. */
function splitInTwo(text: string): string[] {
  const chars = [...text];
  const half = Math.ceil(chars.length / 2);
  return [chars.slice(0, half).join(''), chars.slice(half).join('')].filter((s) => s !== '');
}
