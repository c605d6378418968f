import assert from 'node:assert/strict';
import { withCacheBreakpoints } from '../../../src/agent/model/cacheBreakpoints';
import { quirksFor } from '../../../src/agent/model/providerQuirks';
import type { ChatMessage } from '../../../src/agent/model/types';
import { chatRequest, fakeServerPerTest, makeModel } from './support';

// Issue 23: through OpenRouter, Anthropic's and Gemini's models cache only at `cache_control`
// breakpoints in OpenAI-format content parts, as OpenRouter documents.

describe('OpenRouter cache breakpoints', () => {
  const start = fakeServerPerTest();
  const table: Array<[string, string, boolean]> = [
    ['https://openrouter.ai/api/v1', 'anthropic/claude-sonnet-4.5', true],
    ['https://openrouter.ai/api/v1', 'google/gemini-2.5-pro', true],
    ['https://openrouter.ai/api/v1', 'openai/gpt-4o', false],
    ['https://openrouter.ai/api/v1', 'google/gemma-3-27b-it', false],
    ['https://api.openai.com/v1', 'anthropic/claude-sonnet-4.5', false],
    ['http://localhost:11434/v1', 'qwen3', false],
  ];
  for (const [url, model, wanted] of table) {
    it(`${model} at ${url}: ${wanted ? 'breakpoints' : 'none'}`, () => assert.equal(quirksFor(url, model).cacheBreakpoints === true, wanted));
  }

  it('marks the last system message and the last user/tool message, as text parts; leaves the rest and the input as they were', () => {
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AAAA' } };
    const input = [
      { role: 'system' as const, content: 'You are careful.' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'Look.' }, image] },
      { role: 'assistant' as const, content: null, tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'read_file', arguments: '{}' } }] },
      { role: 'tool' as const, tool_call_id: 'c1', content: 'alpha' },
    ];
    const before = JSON.stringify(input);
    const out = withCacheBreakpoints(input);
    assert.equal(JSON.stringify(input), before, 'the input is not changed');
    assert.deepEqual(out[0], { role: 'system', content: [{ type: 'text', text: 'You are careful.', cache_control: { type: 'ephemeral' } }] });
    assert.deepEqual(out[1], input[1], 'an earlier user turn has no breakpoint');
    assert.deepEqual(out[3], { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'alpha', cache_control: { type: 'ephemeral' } }] });
    const onlyUser = withCacheBreakpoints([input[1]!]);
    assert.deepEqual(onlyUser[0], { role: 'user', content: [{ type: 'text', text: 'Look.', cache_control: { type: 'ephemeral' } }, image] });
  });

  it('an OpenRouter request for anthropic/* carries the breakpoints on the wire (host and path prefix rewritten to the loopback fake)', async () => {
    const server = await start([{ text: 'ok' }, { text: 'ok' }]);
    const realFetch = globalThis.fetch;
    const fake = new URL(server.url);
    // Real HTTP to the fake; only OpenRouter's host and `/api` prefix are swapped for the fake's.
    globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.protocol = fake.protocol;
      url.host = fake.host;
      url.pathname = url.pathname.replace(/^\/api\/v1/, '/v1');
      return realFetch(url, init);
    };
    try {
      const history: ChatMessage[] = [{ role: 'system', content: 'System.' }, { role: 'user', content: 'Task.' }];
      await makeModel('https://openrouter.ai/api/v1', { model: 'anthropic/claude-sonnet-4.5' }).complete(chatRequest({ messages: history }));
      await makeModel('https://openrouter.ai/api/v1', { model: 'openai/gpt-4o' }).complete(chatRequest({ messages: history }));
    } finally {
      globalThis.fetch = realFetch;
    }
    const [claude, gpt] = server.chatRequests();
    assert.deepEqual(claude!.body!.messages!.map((m) => m.content), [
      [{ type: 'text', text: 'System.', cache_control: { type: 'ephemeral' } }],
      [{ type: 'text', text: 'Task.', cache_control: { type: 'ephemeral' } }],
    ]);
    assert.deepEqual(gpt!.body!.messages!.map((m) => m.content), ['System.', 'Task.']);
  });
});
