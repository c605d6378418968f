import assert from 'node:assert/strict';
import { CancelledError } from '../../../src/agent/errors';
import {
  ContextLengthError,
  ModelAuthError,
  ModelBadRequestError,
  ModelRateLimitError,
  ModelUnavailableError,
  StreamInterruptedError,
} from '../../../src/agent/model/modelErrors';
import type { ChatMessage } from '../../../src/agent/model/types';
import { fakeErrors } from '../../support/fakeOpenAIServer';
import { chatRequest, fakeServerPerTest, listFilesSpec, makeModel, readFileSpec, recordingClock, recordingHandlers, rejectionOf } from './support';

describe('OpenAICompatibleModel against a real HTTP fake', () => {
  const start = fakeServerPerTest();

  describe('streaming', () => {
    it('streams text deltas in order and returns the whole answer with usage', async () => {
      const server = await start([{ text: 'Hello there, how can I help you today?', chunkChars: 5, usage: { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 } }]);
      const model = makeModel(server.url, { headers: { 'x-team': 'stepwise' } });
      const handlers = recordingHandlers();
      const response = await model.complete(chatRequest(), handlers);

      assert.equal(response.text, 'Hello there, how can I help you today?');
      assert.ok(handlers.texts.length >= 8, 'text arrived in several deltas');
      assert.equal(handlers.texts.join(''), response.text);
      assert.equal(response.finishReason, 'stop');
      assert.deepEqual(response.toolCalls, []);
      assert.deepEqual(response.usage, { promptTokens: 21, completionTokens: 9, totalTokens: 30 });

      const [sent] = server.chatRequests();
      assert.equal(sent!.body!.model, 'fake-model');
      assert.equal(sent!.body!.stream, true);
      assert.deepEqual(sent!.body!.stream_options, { include_usage: true });
      assert.equal(sent!.body!.tools, undefined);
      assert.deepEqual(sent!.body!.messages, [
        { role: 'system', content: 'You are a careful coding agent.' },
        { role: 'user', content: 'Say hello.' },
      ]);
      assert.equal(sent!.headers.authorization, 'Bearer sk-test');
      assert.equal(sent!.headers['x-team'], 'stepwise');
      assert.equal(model.id, 'fake-model');
    });

    it('assembles a tool call whose arguments arrive in many fragments', async () => {
      const args = JSON.stringify({ path: 'src/deeply/nested/file name ✓.ts', note: 'quotes " and \\ backslashes' });
      const server = await start([{ text: 'Reading it.', toolCalls: [{ id: 'call_abc', name: 'read_file', arguments: args }], chunkChars: 1 }]);
      const handlers = recordingHandlers();
      const response = await makeModel(server.url).complete(chatRequest({ tools: [readFileSpec] }), handlers);

      assert.deepEqual(response.toolCalls, [{ id: 'call_abc', name: 'read_file', arguments: args }]);
      assert.equal(response.finishReason, 'tool_calls');
      assert.equal(response.text, 'Reading it.');
      assert.equal(handlers.texts.join(''), 'Reading it.');
      const sent = server.chatRequests()[0]!.body!;
      assert.deepEqual(sent.tools, [
        { type: 'function', function: { name: 'read_file', description: readFileSpec.description, parameters: readFileSpec.parameters } },
      ]);
      assert.equal(sent.tool_choice, undefined);
    });

    it('returns parallel tool calls in index order', async () => {
      const server = await start([
        {
          toolCalls: [
            { name: 'read_file', arguments: '{"path":"a.ts"}' },
            { name: 'read_file', arguments: '{"path":"b.ts"}' },
            { name: 'list_files', arguments: '{"path":"src"}' },
          ],
          chunkChars: 3,
        },
      ]);
      const response = await makeModel(server.url).complete(chatRequest({ tools: [readFileSpec, listFilesSpec] }));
      assert.deepEqual(
        response.toolCalls.map((c) => [c.name, c.arguments]),
        [
          ['read_file', '{"path":"a.ts"}'],
          ['read_file', '{"path":"b.ts"}'],
          ['list_files', '{"path":"src"}'],
        ],
      );
      assert.equal(new Set(response.toolCalls.map((c) => c.id)).size, 3);
    });

    it('maps finish reasons, and reports length', async () => {
      const server = await start([{ text: 'cut o', finishReason: 'length' }]);
      const response = await makeModel(server.url).complete(chatRequest());
      assert.equal(response.finishReason, 'length');
    });

    it('sends history in the OpenAI shape: assistant tool_calls and tool messages', async () => {
      const server = await start([{ text: 'ok' }]);
      const messages: ChatMessage[] = [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'look' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'list_files', arguments: '' }] },
        { role: 'tool', toolCallId: 'call_1', name: 'list_files', content: 'a.ts\nb.ts' },
        { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'call_2', name: 'read_file', arguments: '{"path":"x"}' }] },
        { role: 'tool', toolCallId: 'call_2', name: 'read_file', content: 'File not found: x', isError: true },
      ];
      await makeModel(server.url).complete(chatRequest({ messages, tools: [readFileSpec, listFilesSpec], toolChoice: 'required', maxOutputTokens: 500, temperature: 0.2 }));
      const sent = server.chatRequests()[0]!.body!;
      assert.deepEqual(sent.messages!.slice(2), [
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list_files', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'a.ts\nb.ts' },
        { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } }] },
        { role: 'tool', tool_call_id: 'call_2', content: 'Error: File not found: x' },
      ]);
      assert.equal(sent.tool_choice, 'required');
      assert.equal(sent.max_tokens, 500);
      assert.equal(sent.temperature, 0.2);
    });

    it("sends no tools when toolChoice is 'none'", async () => {
      const server = await start([{ text: 'Summary.' }]);
      await makeModel(server.url).complete(chatRequest({ tools: [readFileSpec], toolChoice: 'none' }));
      const sent = server.chatRequests()[0]!.body!;
      assert.equal(sent.tools, undefined);
      assert.equal(sent.tool_choice, undefined);
    });
  });

  describe('retries', () => {
    it('retries a 429 after the wait retry-after asks for, then succeeds', async () => {
      const server = await start([fakeErrors.rateLimited(3), { text: 'finally' }]);
      const clock = recordingClock();
      const handlers = recordingHandlers();
      const response = await makeModel(server.url, { clock }).complete(chatRequest(), handlers);
      assert.equal(response.text, 'finally');
      assert.deepEqual(clock.sleeps, [3000]);
      assert.equal(handlers.retries.length, 1);
      assert.equal(handlers.retries[0]!.attempt, 1);
      assert.equal(handlers.retries[0]!.delayMs, 3000);
      assert.match(handlers.retries[0]!.reason, /429/);
      assert.equal(server.chatRequests().length, 2);
    });

    it('honours retry-after-ms and retry-after as an HTTP date', async () => {
      const clock = recordingClock();
      const server = await start([
        { status: 429, headers: { 'retry-after-ms': '1500' }, body: { error: { message: 'slow down' } } },
        { status: 503, headers: { 'retry-after': new Date(clock.now() + 7000).toUTCString() }, body: 'Service Unavailable' },
        { text: 'ok' },
      ]);
      await makeModel(server.url, { clock }).complete(chatRequest());
      // The clock advanced by the first sleep, so the date is 5.5 s ahead when the second failure is read.
      assert.deepEqual(clock.sleeps, [1500, 5500]);
    });

    it('retries 500 with exponential backoff and jitter', async () => {
      const server = await start([fakeErrors.serverError(), fakeErrors.serverError(502), { text: 'up again' }]);
      const clock = recordingClock();
      const response = await makeModel(server.url, { clock, random: () => 0.4 }).complete(chatRequest());
      assert.equal(response.text, 'up again');
      assert.deepEqual(clock.sleeps, [900, 1800]);
    });

    it('retries a connection dropped before any output: before the headers and right after them', async () => {
      const server = await start([{ disconnect: true }, { text: 'never seen', dropAfterChunks: 0 }, { text: 'third time lucky' }]);
      const handlers = recordingHandlers();
      const response = await makeModel(server.url).complete(chatRequest(), handlers);
      assert.equal(response.text, 'third time lucky');
      assert.equal(handlers.retries.length, 2);
      assert.match(handlers.retries[0]!.reason, /connection/i);
      // Nothing of the failed attempts reached the user.
      assert.equal(handlers.texts.join(''), 'third time lucky');
    });

    it('gives up after maxRetries with ModelUnavailableError naming the endpoint', async () => {
      const server = await start(() => fakeErrors.serverError(503));
      const handlers = recordingHandlers();
      const error = await rejectionOf(makeModel(server.url, { maxRetries: 2 }).complete(chatRequest(), handlers));
      assert.ok(error instanceof ModelUnavailableError, error.message);
      assert.ok(error.message.includes(server.url), error.message);
      assert.match(error.message, /gave up after 2 retries/);
      assert.equal(server.chatRequests().length, 3);
      assert.deepEqual(handlers.retries.map((r) => r.attempt), [1, 2]);
    });

    it('gives up on rate limits with ModelRateLimitError', async () => {
      const server = await start(() => fakeErrors.rateLimited(1));
      const error = await rejectionOf(makeModel(server.url, { maxRetries: 1 }).complete(chatRequest()));
      assert.ok(error instanceof ModelRateLimitError, error.message);
      assert.match(error.message, /rate limit/i);
      assert.equal(server.chatRequests().length, 2);
    });

    it('does not wait an hour when the server asks for one', async () => {
      const server = await start([fakeErrors.rateLimited(3600), { text: 'unreachable' }]);
      const clock = recordingClock();
      const error = await rejectionOf(makeModel(server.url, { clock }).complete(chatRequest()));
      assert.ok(error instanceof ModelRateLimitError);
      assert.match(error.message, /asks to wait 60 min/);
      assert.deepEqual(clock.sleeps, []);
      assert.equal(server.chatRequests().length, 1);
    });

    it('does not retry an exhausted quota', async () => {
      const server = await start([{ status: 429, body: { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } } }]);
      const error = await rejectionOf(makeModel(server.url).complete(chatRequest()));
      assert.ok(error instanceof ModelRateLimitError);
      assert.match(error.message, /billing/);
      assert.equal(server.chatRequests().length, 1);
    });
  });

  describe('failures that are not retried', () => {
    it('a connection dropped mid-stream is a StreamInterruptedError, after the partial text was shown', async () => {
      const server = await start([{ text: 'The first part of a long answer that never ends', chunkChars: 10, dropAfterChunks: 3 }, { text: 'must not be asked for' }]);
      const handlers = recordingHandlers();
      const error = await rejectionOf(makeModel(server.url).complete(chatRequest(), handlers));
      assert.ok(error instanceof StreamInterruptedError, `${error.name}: ${error.message}`);
      assert.match(error.message, /the connection dropped after part of the answer/i);
      // Three events: the role chunk and two text chunks of ten characters.
      assert.equal(handlers.texts.join(''), 'The first part of a ');
      assert.equal(error.partialText, 'The first part of a ');
      assert.equal(server.chatRequests().length, 1);
      assert.equal(handlers.retries.length, 0);
    });

    it('a dropped stream after a tool-call fragment is not retried either', async () => {
      const server = await start([{ toolCalls: [{ name: 'read_file', arguments: '{"path":"a.ts"}' }], chunkChars: 4, dropAfterChunks: 3 }]);
      const error = await rejectionOf(makeModel(server.url).complete(chatRequest({ tools: [readFileSpec] })));
      assert.ok(error instanceof StreamInterruptedError, error.message);
      assert.equal(server.chatRequests().length, 1);
    });

    it('401 is a ModelAuthError that names the base URL, asked once', async () => {
      const server = await start([fakeErrors.unauthorized(), { text: 'no' }]);
      const error = await rejectionOf(makeModel(server.url).complete(chatRequest()));
      assert.ok(error instanceof ModelAuthError, error.message);
      assert.ok(error.message.includes(server.url));
      assert.match(error.message, /check your API key and base URL/i);
      assert.match(error.message, /Incorrect API key/);
      assert.equal(server.chatRequests().length, 1);
    });

    it('403 is a ModelAuthError too', async () => {
      const server = await start([{ status: 403, body: { error: { message: 'Project does not have access to model' } } }]);
      const error = await rejectionOf(makeModel(server.url).complete(chatRequest()));
      assert.ok(error instanceof ModelAuthError);
    });

    it('context-length errors are ContextLengthError, in OpenAI and in vLLM shape', async () => {
      const server = await start([
        fakeErrors.contextLength(),
        {
          status: 400,
          body: {
            object: 'error',
            message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
            type: 'BadRequestError',
            param: null,
            code: 400,
          },
        },
        { status: 400, body: { error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' } } },
      ]);
      const model = makeModel(server.url);
      for (let i = 0; i < 3; i++) {
        const error = await rejectionOf(model.complete(chatRequest()));
        assert.ok(error instanceof ContextLengthError, `${i}: ${error.name}: ${error.message}`);
        assert.equal(error.code, 'context_length');
      }
      assert.equal(server.chatRequests().length, 3);
    });

    it('another 400 is a ModelBadRequestError with the server message', async () => {
      const server = await start([{ status: 400, body: { error: { message: "Invalid value for 'messages[1].role'", type: 'invalid_request_error' } } }]);
      const error = await rejectionOf(makeModel(server.url).complete(chatRequest()));
      assert.ok(error instanceof ModelBadRequestError);
      assert.match(error.message, /Invalid value for 'messages\[1\]\.role'/);
    });

    it('a base URL without /v1 gets a 404 with a hint', async () => {
      const server = await start([{ text: 'unreachable' }]);
      const error = await rejectionOf(makeModel(server.url.replace(/\/v1$/, '')).complete(chatRequest()));
      assert.ok(error instanceof ModelBadRequestError);
      assert.match(error.message, /404/);
      assert.match(error.message, /\/v1/);
      assert.match(error.message, /"fake-model"/);
    });

    it('an invalid base URL is refused at construction', () => {
      assert.throws(() => makeModel('localhost:11434'), /not a valid URL/);
      assert.throws(() => makeModel('api.openai.com/v1'), /not a valid URL/);
    });
  });

  describe('adapting to the endpoint', () => {
    it("switches to max_completion_tokens when max_tokens is refused, and remembers it", async () => {
      const server = await start((request) =>
        request.body!.max_tokens !== undefined
          ? { status: 400, body: { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", param: 'max_tokens' } } }
          : { text: 'fine' },
      );
      const model = makeModel(server.url);
      assert.equal((await model.complete(chatRequest({ maxOutputTokens: 100 }))).text, 'fine');
      assert.equal((await model.complete(chatRequest({ maxOutputTokens: 100 }))).text, 'fine');
      const bodies = server.chatRequests().map((r) => r.body!);
      assert.equal(bodies.length, 3);
      assert.equal(bodies[0]!.max_tokens, 100);
      assert.equal(bodies[1]!.max_completion_tokens, 100);
      assert.equal(bodies[2]!.max_completion_tokens, 100);
    });

    it('drops stream_options for servers that reject it, still streaming', async () => {
      const server = await start((request) =>
        request.body!.stream_options ? { status: 422, body: { detail: [{ loc: ['body', 'stream_options'], msg: 'extra fields not permitted' }] } } : { text: 'streamed' },
      );
      const response = await makeModel(server.url).complete(chatRequest());
      assert.equal(response.text, 'streamed');
      assert.equal(response.usage, undefined);
    });
  });

  describe('cancellation', () => {
    it('aborting mid-stream rejects with CancelledError without waiting for the server', async () => {
      const server = await start([{ text: 'Thinking hard about this', chunkChars: 4, hangAfterChunks: 3, hangMs: 120_000 }]);
      const controller = new AbortController();
      const texts: string[] = [];
      const error = await rejectionOf(
        makeModel(server.url).complete(chatRequest({ signal: controller.signal }), {
          onText: (delta) => {
            texts.push(delta);
            if (texts.length === 2) setImmediate(() => controller.abort());
          },
        }),
      );
      assert.ok(error instanceof CancelledError, `${error.name}: ${error.message}`);
      assert.equal(texts.join(''), 'Thinking');
      assert.equal(server.chatRequests().length, 1);
    });

    it('aborting while waiting for headers rejects with CancelledError', async () => {
      const server = await start([{ text: 'late', headersDelayMs: 120_000 }]);
      const controller = new AbortController();
      const pending = makeModel(server.url).complete(chatRequest({ signal: controller.signal }));
      setTimeout(() => controller.abort(), 50);
      const error = await rejectionOf(pending);
      assert.ok(error instanceof CancelledError, `${error.name}: ${error.message}`);
    });

    it('an already aborted signal sends nothing', async () => {
      const server = await start([{ text: 'x' }]);
      const controller = new AbortController();
      controller.abort();
      const error = await rejectionOf(makeModel(server.url).complete(chatRequest({ signal: controller.signal })));
      assert.ok(error instanceof CancelledError);
      assert.equal(server.requests.length, 0);
    });

    it('aborting during the backoff sleep stops the retries', async () => {
      const server = await start(() => fakeErrors.serverError());
      const controller = new AbortController();
      const clock = recordingClock();
      const error = await rejectionOf(
        makeModel(server.url, {
          clock: { ...clock, sleep: async (ms, signal) => (controller.abort(), clock.sleep(ms, signal)) },
        }).complete(chatRequest({ signal: controller.signal })),
      );
      assert.ok(error instanceof CancelledError);
      assert.equal(server.chatRequests().length, 1);
    });
  });

  describe('stalled streams', () => {
    it('a stream silent past the idle timeout before any output is retried', async () => {
      const server = await start([{ text: 'never', hangAfterChunks: 1, hangMs: 120_000 }, { text: 'second try' }]);
      const handlers = recordingHandlers();
      const response = await makeModel(server.url, { streamIdleTimeoutMs: 150 }).complete(chatRequest(), handlers);
      assert.equal(response.text, 'second try');
      assert.match(handlers.retries[0]!.reason, /stalled/);
    });

    it('a stream silent past the idle timeout after output is interrupted', async () => {
      const server = await start([{ text: 'Partial answer here', chunkChars: 8, hangAfterChunks: 2, hangMs: 120_000 }]);
      const error = await rejectionOf(makeModel(server.url, { streamIdleTimeoutMs: 150 }).complete(chatRequest()));
      assert.ok(error instanceof StreamInterruptedError, error.message);
      assert.equal((error as StreamInterruptedError).partialText, 'Partial ');
      assert.match(error.message, /stalled/);
    });
  });

  it('waiting too long for the headers counts as a connection failure and is retried', async () => {
    const server = await start([{ text: 'slow', headersDelayMs: 120_000 }, { text: 'quick' }]);
    const handlers = recordingHandlers();
    const response = await makeModel(server.url, { requestTimeoutMs: 150 }).complete(chatRequest(), handlers);
    assert.equal(response.text, 'quick');
    assert.equal(handlers.retries.length, 1);
  });

  it('an error event inside the stream before any output is retried', async () => {
    const server = await start([{ finishReason: null, rawEvents: ['{"error":{"message":"provider overloaded"}}'] }, { text: 'recovered' }]);
    const handlers = recordingHandlers();
    const response = await makeModel(server.url).complete(chatRequest(), handlers);
    assert.equal(response.text, 'recovered');
    assert.match(handlers.retries[0]!.reason, /provider overloaded/);
  });

  it('an error event inside the stream after output is an interruption with the server message', async () => {
    const server = await start([{ text: 'Half an', rawEvents: ['{"error":{"message":"upstream provider overloaded","code":502}}'] }]);
    const error = await rejectionOf(makeModel(server.url).complete(chatRequest()));
    assert.ok(error instanceof StreamInterruptedError, error.message);
    assert.match(error.message, /upstream provider overloaded/);
  });
});
