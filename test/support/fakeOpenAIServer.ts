/**
 * A hand-written OpenAI-compatible chat-completions server for tests, with byte-level control over
 * the stream and its faults. Streams exactly as OpenAI does (see /work/shared/peers.md): every chunk
 * carries the same `id`, `created`, `model` and `object: "chat.completion.chunk"`; the first delta
 * has `role: "assistant"`; a tool call's first fragment is `{index, id, type: "function",
 * function: {name, arguments: ""}}` and later fragments `{index, function: {arguments}}`; parallel
 * calls use index 0, 1, ...; the last choice chunk has an empty delta and `finish_reason`; with
 * `stream_options.include_usage` every chunk has `usage: null` and one extra chunk has `choices: []`
 * and the usage; the stream ends with `data: [DONE]`.
 *
 * Usage:
 *
 *     const fake = await startFakeOpenAI([
 *       { status: 429, headers: { 'retry-after': '2' } },
 *       { text: 'Reading it.', toolCalls: [{ name: 'read_file', arguments: '{"path":"a.ts"}' }] },
 *     ]);
 *     // point a client at fake.url (ends in /v1), then inspect fake.requests
 *     await fake.close();
 *
 * Each POST /v1/chat/completions takes the next scripted turn (or asks the script function). When
 * the script runs out the server answers 500 with a message saying so, so a test fails loudly.
 * GET /v1/models lists the model. Listens on 127.0.0.1, port 0.
 */
import * as http from 'node:http';
import type { Socket } from 'node:net';

/** A tool call the fake streams; `arguments` is sent verbatim (it may be malformed on purpose). */
export interface FakeToolCall {
  name: string;
  arguments: string;
  /** Default `call_<turn>_<index>`. */
  id?: string;
  /** Provider fields sent in the call's first fragment beside id/type/function (Gemini's `extra_content`). */
  extra?: Record<string, unknown>;
}

/** Usage as the wire carries it. */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** OpenAI's cache report. */
  prompt_tokens_details?: { cached_tokens?: number };
  /** DeepSeek's cache report. */
  prompt_cache_hit_tokens?: number;
}

/** A successful answer, streamed (or a whole `chat.completion` when the request had `stream: false`). */
export interface FakeAnswer {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Default `tool_calls` when there are calls, else `stop`; `null` leaves the finish chunk out. */
  finishReason?: string | null;
  /** Streamed first as `delta.reasoning_content` fragments (DeepSeek, vLLM reasoning parsers). */
  reasoning?: string;
  /** Send every tool call on `index: 0`, told apart only by id (vLLM, SGLang, some proxies). */
  sameIndex?: boolean;
  /** Extra fields of the finishing choice (Azure's `content_filter_results`). */
  finishExtra?: Record<string, unknown>;
  /** Size of text and argument fragments, in code points; default 8. */
  chunkChars?: number;
  /** Pause before each chunk; default 0. */
  delayMs?: number;
  /** Default: estimated from the request and answer sizes; `null` sends no usage chunk even if asked. */
  usage?: FakeUsage | null;
  /**
   * Destroy the socket after this many SSE events (the role chunk counts as one, so do the usage
   * chunk and `rawEvents`). `0` destroys it right after the headers (and an SSE comment line that
   * carries no data), before any output.
   */
  dropAfterChunks?: number;
  /** Stop for `hangMs` after this many SSE events (default 0: right after the headers). */
  hangAfterChunks?: number;
  /** Length of that pause; the server stops waiting when the client goes away or the fake closes. */
  hangMs?: number;
  /** Wait this long before sending the status line and headers. */
  headersDelayMs?: number;
  /** Raw SSE event payloads (what follows `data: `) sent after the generated chunks, before `[DONE]`. */
  rawEvents?: string[];
  /** Leave out `data: [DONE]` (the connection still ends cleanly). */
  omitDone?: boolean;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** An HTTP error answer; an object `body` is sent as JSON, a string as it is. */
export interface FakeErrorTurn {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Destroy the connection before any response byte (a refused or reset connection). */
export interface FakeDisconnectTurn {
  disconnect: true;
}

/** One scripted answer of the fake. */
export type FakeTurn = FakeAnswer | FakeErrorTurn | FakeDisconnectTurn;

/** A message as a client sent it. */
export interface RecordedMessage {
  role: string;
  content?: string | null;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  [key: string]: unknown;
}

/** A chat-completions request body as a client sent it. */
export interface RecordedBody {
  model?: string;
  messages?: RecordedMessage[];
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** Every request the fake received. */
export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` when there was none or it was not JSON. */
  body: RecordedBody | undefined;
  rawBody: string;
}

/** A script: fixed turns in order, or a function of the request (and its 0-based index among chat requests). */
export type FakeScript = FakeTurn[] | ((request: RecordedRequest, index: number) => FakeTurn | Promise<FakeTurn>);

/** Server-wide behaviour. */
export interface FakeOpenAIOptions {
  /** Model name in answers and in /v1/models; default `fake-model`. */
  model?: string;
  /**
   * Answer every request that carries `tools` with 400 (a model without native tool calling); such
   * requests do not consume a scripted turn. A string replaces the default (Ollama's) message.
   */
  rejectTools?: boolean | string;
  /** Answer 401 (OpenAI's body) to every request without `Authorization: Bearer <requireKey>`; a function may change its answer. */
  requireKey?: string | (() => string);
  /** More routes (e.g. Ollama's `/api/*`): a JSON answer, or `undefined` to fall through to the OpenAI routes. */
  routes?: (request: RecordedRequest) => { status: number; body: unknown } | undefined;
}

/** A running fake. */
export interface FakeOpenAIServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:40123/v1`. */
  url: string;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  /** The chat-completions requests only. */
  chatRequests(): RecordedRequest[];
  /** Stops listening and destroys open connections. */
  close(): Promise<void>;
}

/** Canned error turns that real servers send. */
export const fakeErrors = {
  /** 429 with `retry-after` in seconds (OpenAI's body). */
  rateLimited: (retryAfterSeconds?: number): FakeErrorTurn => ({
    status: 429,
    headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
    body: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
  }),
  serverError: (status = 500): FakeErrorTurn => ({
    status,
    body: { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } },
  }),
  unauthorized: (): FakeErrorTurn => ({
    status: 401,
    body: { error: { message: 'Incorrect API key provided: sk-wrong.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
  }),
  contextLength: (): FakeErrorTurn => ({
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  }),
  toolsUnsupported: (model = 'fake-model'): FakeErrorTurn => ({
    status: 400,
    body: { error: { message: `registry.ollama.ai/library/${model} does not support tools`, type: 'api_error', param: null, code: null } },
  }),
};

/** Starts the fake on 127.0.0.1 with a free port. */
export async function startFakeOpenAI(script: FakeScript, options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  const model = options.model ?? 'fake-model';
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let chatIndex = 0;
  let closed = false;

  const wait = (ms: number, res: http.ServerResponse) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || closed || res.destroyed) return resolve();
      const done = () => {
        clearTimeout(timer);
        timers.delete(timer);
        res.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timers.add(timer);
      res.on('close', done);
    });

  const nextTurn = async (recorded: RecordedRequest, index: number): Promise<FakeTurn> => {
    if (typeof script === 'function') return script(recorded, index);
    return script[index] ?? { status: 500, body: { error: { message: `fake: no scripted turn left for request #${index + 1}`, type: 'fake' } } };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const rawBody = await readBody(req);
    let body: RecordedBody | undefined;
    try {
      body = rawBody === '' ? undefined : (JSON.parse(rawBody) as RecordedBody);
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, rawBody };
    requests.push(recorded);
    const path = recorded.path.split('?')[0];
    const extra = options.routes?.(recorded);
    if (extra) return sendJson(res, extra.status, extra.body);
    const required = typeof options.requireKey === 'function' ? options.requireKey() : options.requireKey;
    if (required !== undefined && req.headers.authorization !== `Bearer ${required}`) return sendError(res, fakeErrors.unauthorized());

    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'fake' }] });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, { error: { message: `fake: no route for ${req.method} ${path}`, type: 'not_found' } });
    }
    if (!body) return sendJson(res, 400, { error: { message: 'fake: the body is not JSON', type: 'invalid_request_error' } });
    if (options.rejectTools && Array.isArray(body.tools) && body.tools.length > 0) {
      const turn = fakeErrors.toolsUnsupported(model);
      if (typeof options.rejectTools === 'string') turn.body = { error: { message: options.rejectTools, type: 'api_error' } };
      return sendError(res, turn);
    }

    const index = chatIndex++;
    const turnNo = index + 1;
    const turn = await nextTurn(recorded, index);
    if ('disconnect' in turn) {
      req.socket.destroy();
      return;
    }
    if ('status' in turn) return sendError(res, turn);
    await wait(turn.headersDelayMs ?? 0, res);
    if (closed || res.destroyed) return;
    if (body.stream) await streamAnswer(res, turn, recorded, turnNo, model, wait);
    else sendJson(res, 200, completion(turn, recorded, turnNo, model), turn.headers);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake: ${String(error)}`, type: 'fake' } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake: no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.split('?')[0] === '/v1/chat/completions'),
    close: async () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}

type Wait = (ms: number, res: http.ServerResponse) => Promise<void>;

async function streamAnswer(res: http.ServerResponse, turn: FakeAnswer, request: RecordedRequest, turnNo: number, model: string, wait: Wait) {
  const includeUsage = request.body?.stream_options?.include_usage === true;
  const base = { id: `chatcmpl-fake-${turnNo}`, object: 'chat.completion.chunk', created: 1_700_000_000 + turnNo, model, system_fingerprint: 'fp_fake' };
  const chunks = answerChunks(turn, turnNo).map((choice) => ({ ...base, choices: [choice], ...(includeUsage ? { usage: null } : {}) }));
  const usage = turn.usage === null ? undefined : (turn.usage ?? estimateUsage(request, turn));
  const events: string[] = chunks.map((chunk) => JSON.stringify(chunk));
  if (includeUsage && usage) events.push(JSON.stringify({ ...base, choices: [], usage }));
  events.push(...(turn.rawEvents ?? []));

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...turn.headers });
  res.flushHeaders();
  const write = (text: string) => new Promise<void>((resolve) => res.write(text, () => resolve()));
  const hangAt = turn.hangMs !== undefined ? (turn.hangAfterChunks ?? 0) : -1;
  for (let i = 0; i <= events.length; i++) {
    if (res.destroyed) return;
    if (i === turn.dropAfterChunks) {
      // A comment line makes sure the headers left before the socket dies; it carries no data.
      if (i === 0) await write(': fake\n\n');
      res.socket?.destroy();
      return;
    }
    if (i === hangAt) await wait(turn.hangMs ?? 0, res);
    if (i === events.length) break;
    if (turn.delayMs) await wait(turn.delayMs, res);
    if (res.destroyed) return;
    await write(`data: ${events[i]}\n\n`);
  }
  if (!turn.omitDone) await write('data: [DONE]\n\n');
  res.end();
}

/** The `choices[0]` of each streamed chunk, in order. */
function answerChunks(turn: FakeAnswer, turnNo: number): object[] {
  const size = Math.max(1, turn.chunkChars ?? 8);
  const choice = (delta: object, finish: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finish });
  const out: object[] = [choice({ role: 'assistant', content: '', refusal: null })];
  for (const piece of split(turn.reasoning ?? '', size)) out.push(choice({ content: null, reasoning_content: piece }));
  for (const piece of split(turn.text ?? '', size)) out.push(choice({ content: piece }));
  (turn.toolCalls ?? []).forEach((call, position) => {
    const id = call.id ?? `call_${turnNo}_${position}`;
    const index = turn.sameIndex ? 0 : position;
    out.push(choice({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' }, ...call.extra }] }));
    for (const piece of split(call.arguments, size)) out.push(choice({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  const finish = turn.finishReason === undefined ? (turn.toolCalls?.length ? 'tool_calls' : 'stop') : turn.finishReason;
  if (finish !== null) out.push({ ...choice({}, finish), ...turn.finishExtra });
  return out;
}

function completion(turn: FakeAnswer, request: RecordedRequest, turnNo: number, model: string): object {
  const toolCalls = (turn.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${turnNo}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: `chatcmpl-fake-${turnNo}`,
    object: 'chat.completion',
    created: 1_700_000_000 + turnNo,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: turn.text ?? null, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: turn.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
      },
    ],
    usage: turn.usage ?? estimateUsage(request, turn),
  };
}

/** Rough token counts (4 characters a token), so usage is present and plausible. */
function estimateUsage(request: RecordedRequest, turn: FakeAnswer): FakeUsage {
  const prompt = Math.ceil(JSON.stringify(request.body?.messages ?? []).length / 4);
  const answerChars = (turn.text ?? '').length + (turn.toolCalls ?? []).reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const completionTokens = Math.ceil(answerChars / 4);
  return { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Splits by code points, so a fragment never ends inside a surrogate pair. Linear without an array
 * of every character (a 50 MB argument would make one of 50 million strings and stall the stream).
 */
function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + size);
    if (SURROGATE.test(text.slice(i, end))) {
      // Count code points: a pair is one point of two units.
      end = i;
      for (let points = 0; points < size && end < text.length; points++) {
        const code = text.charCodeAt(end);
        const next = text.charCodeAt(end + 1);
        end += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
      }
    }
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

function sendError(res: http.ServerResponse, turn: FakeErrorTurn): void {
  const body = turn.body === undefined ? '' : typeof turn.body === 'string' ? turn.body : JSON.stringify(turn.body);
  const type = typeof turn.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(turn.status, { 'content-type': type, ...turn.headers });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
