import assert from 'node:assert/strict';
import { AnthropicModel } from '../../../src/agent/model/anthropicModel';
import { toAnthropicPrompt, toAnthropicTools } from '../../../src/agent/model/anthropicMessages';
import { mapStopReason } from '../../../src/agent/model/anthropicStream';
import { toOpenAIMessages } from '../../../src/agent/model/openaiMessages';
import { ContextLengthError, ModelAuthError, ModelBadRequestError, ModelRateLimitError, ModelServerError, StreamInterruptedError } from '../../../src/agent/model/modelErrors';
import type { ChatMessage, FinishReason } from '../../../src/agent/model/types';
import { silentLogger } from '../../../src/agent/ports';
import { startFakeAnthropic, type FakeAnthropicServer, type FakeAnthropicTurn } from '../../support/fakeAnthropicServer';
import { chatRequest, readFileSpec, recordingClock, recordingHandlers, rejectionOf } from './support';

// The Anthropic adapter in-process against the fake Messages server (real HTTP on loopback):
// conversion tables, stop reasons, and the failure classes through the one retry rule.

describe('AnthropicModel', () => {
  describe('stop reasons (table)', () => {
    const table: Array<[string, FinishReason]> = [
      ['end_turn', 'stop'],
      ['stop_sequence', 'stop'],
      ['tool_use', 'tool_calls'],
      ['max_tokens', 'length'],
      ['model_context_window_exceeded', 'length'],
      ['refusal', 'content_filter'],
      ['pause_turn', 'other'],
    ];
    for (const [wire, ours] of table) it(`${wire} -> ${ours}`, () => assert.equal(mapStopReason(wire), ours));
  });

  describe('conversation conversion', () => {
    const thinking = { type: 'thinking', thinking: 'hmm', signature: 'sig==' };
    const conversation: ChatMessage[] = [
      { role: 'system', content: 'You are careful.' },
      { role: 'system', content: 'Rules: be brief.' },
      { role: 'user', content: 'Look at this.', images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }] },
      { role: 'assistant', content: '', reasoning: 'hmm', toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"a"}', extra: { anthropic_thinking: [thinking] } }, { id: 'toolu_2', name: 'read_file', arguments: 'not json' }] },
      { role: 'tool', toolCallId: 'toolu_1', name: 'read_file', content: 'alpha' },
      { role: 'tool', toolCallId: 'toolu_2', name: 'read_file', content: 'no such file', isError: true },
      { role: 'system', content: 'A late note.' },
    ];
    const prompt = toAnthropicPrompt(conversation);

    it('leading system messages become system blocks; the last carries the cache breakpoint', () => {
      assert.deepEqual(prompt.system, [{ type: 'text', text: 'You are careful.' }, { type: 'text', text: 'Rules: be brief.', cache_control: { type: 'ephemeral' } }]);
    });

    it('images are base64 image blocks; thinking goes first and unchanged; results and late notes share one user turn', () => {
      assert.deepEqual(prompt.messages, [
        { role: 'user', content: [{ type: 'text', text: 'Look at this.' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
        {
          role: 'assistant',
          content: [thinking, { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } }, { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { _raw: 'not json' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'alpha' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no such file', is_error: true },
            { type: 'text', text: 'A late note.', cache_control: { type: 'ephemeral' } },
          ],
        },
      ]);
    });

    it('a Claude turn resumed on an OpenAI-compatible model: the thinking blocks stay out of its tool_calls', () => {
      const [assistant] = toOpenAIMessages([conversation[3]!]);
      const calls = (assistant as unknown as { tool_calls: Array<Record<string, unknown>> }).tool_calls;
      assert.deepEqual(calls[0], { id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } });
    });

    it('tools: input_schema from the parameters; the last tool carries the breakpoint', () => {
      const tools = toAnthropicTools([readFileSpec, { ...readFileSpec, name: 'other' }]);
      assert.equal(tools[0]!.cache_control, undefined);
      assert.deepEqual(tools[1]!.cache_control, { type: 'ephemeral' });
      assert.deepEqual(tools[0]!.input_schema, readFileSpec.parameters);
    });
  });

  describe('over HTTP', () => {
    let fake: FakeAnthropicServer | undefined;
    afterEach(async () => {
      await fake?.close();
      fake = undefined;
    });
    async function model(script: FakeAnthropicTurn[], maxRetries = 2) {
      fake = await startFakeAnthropic(script, { requireKey: 'sk-ant' });
      const clock = recordingClock();
      return { clock, model: new AnthropicModel({ baseURL: fake.url, apiKey: 'sk-ant', model: 'claude-sonnet-4-6', clock, logger: silentLogger, maxRetries, random: () => 0.5 }) };
    }

    it('streams text to onText and reports usage with cache reads and writes', async () => {
      const { model: m } = await model([{ blocks: [{ type: 'text', text: 'Hello there', chunks: ['Hel', 'lo ', 'there'] }], usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 30, cache_read_input_tokens: 60 } }]);
      const handlers = recordingHandlers();
      const response = await m.complete(chatRequest(), handlers);
      assert.deepEqual(handlers.texts, ['Hel', 'lo ', 'there']);
      assert.equal(response.text, 'Hello there');
      assert.equal(response.finishReason, 'stop');
      assert.deepEqual(response.usage, { promptTokens: 100, completionTokens: 5, totalTokens: 105, cachedTokens: 60, cacheWriteTokens: 30 });
    });

    it('tool choice: required is "any"; none keeps the tools defined (the history may hold tool_use) with "none"', async () => {
      const { model: m } = await model([{ blocks: [{ type: 'text', text: 'a' }] }, { blocks: [{ type: 'text', text: 'b' }] }]);
      await m.complete(chatRequest({ tools: [readFileSpec], toolChoice: 'required' }));
      await m.complete(chatRequest({ tools: [readFileSpec], toolChoice: 'none' }));
      const [required, none] = fake!.messageRequests();
      assert.deepEqual(required!.body!.tool_choice, { type: 'any' });
      assert.deepEqual(none!.body!.tool_choice, { type: 'none' });
      assert.equal((none!.body!.tools as unknown[]).length, 1);
    });

    it('429 waits retry-after (the one retry rule), 529 backs off, then the answer', async () => {
      const { model: m, clock } = await model([
        { status: 429, errorType: 'rate_limit_error', headers: { 'retry-after': '7' } },
        { status: 529, errorType: 'overloaded_error', message: 'Overloaded' },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ]);
      const handlers = recordingHandlers();
      const response = await m.complete(chatRequest(), handlers);
      assert.equal(response.text, 'ok');
      assert.equal(clock.sleeps[0], 7000);
      assert.equal(handlers.retries.length, 2);
      assert.match(handlers.retries[1]!.reason, /overloaded \(529/);
    });

    const failures: Array<[string, FakeAnthropicTurn[], new (...args: never[]) => Error, RegExp]> = [
      ['401 is an auth error, not retried', [{ status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }], ModelAuthError, /ANTHROPIC_API_KEY/],
      ['400 prompt is too long is a context-length error', [{ status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' }], ContextLengthError, /prompt is too long/],
      ['400 invalid_request is a bad request', [{ status: 400, errorType: 'invalid_request_error', message: 'messages.0.content: bad' }], ModelBadRequestError, /invalid_request_error: messages\.0/],
      ['529 through every retry is a server error', Array(3).fill({ status: 529, errorType: 'overloaded_error', message: 'Overloaded' }) as FakeAnthropicTurn[], ModelServerError, /gave up after 2 retries/],
      ['429 through every retry is a rate limit', Array(3).fill({ status: 429, errorType: 'rate_limit_error', message: 'slow down' }) as FakeAnthropicTurn[], ModelRateLimitError, /rate limiting/],
      ['an overloaded event after text streamed is an interruption, not retried', [{ blocks: [{ type: 'text', text: 'partial' }, { type: 'text', text: 'x' }], errorAfterBlocks: { blocks: 1, type: 'overloaded_error', message: 'Overloaded' } }], StreamInterruptedError, /dropped after part/],
    ];
    for (const [name, script, type, words] of failures) {
      it(name, async () => {
        const { model: m } = await model(script);
        const error = await rejectionOf(m.complete(chatRequest()));
        assert.ok(error instanceof type, `${String(error)}`);
        assert.match((error as Error).message, words);
        assert.equal(fake!.messageRequests().length, script.length);
      });
    }
  });
});
