import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { fakeServerPerTest } from './support';

/** Reads a streamed answer's raw SSE `data:` payloads. */
async function rawEvents(url: string, body: object): Promise<string[]> {
  const response = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}

describe('fake OpenAI server (test support)', () => {
  const start = fakeServerPerTest();

  it('streams the wire format OpenAI uses, byte for byte in structure', async () => {
    const server = await start([{ text: 'Hi!', toolCalls: [{ name: 'a', arguments: '{"x":1}' }, { name: 'b', arguments: '{}', id: 'call_b' }], chunkChars: 4 }]);
    const events = await rawEvents(server.url, { model: 'm', messages: [{ role: 'user', content: 'q' }], stream: true, stream_options: { include_usage: true } });

    assert.equal(events.at(-1), '[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    const ids = new Set(chunks.map((c) => `${c.id}|${c.created}|${c.model}|${c.object}`));
    assert.equal(ids.size, 1, 'same id, created, model and object on every chunk');
    assert.equal(chunks[0].object, 'chat.completion.chunk');
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const usageChunk = chunks.at(-1);
    assert.deepEqual(usageChunk.choices, []);
    assert.ok(usageChunk.usage.total_tokens > 0);
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null), 'usage: null on the other chunks');
    const finish = chunks.at(-2).choices[0];
    assert.deepEqual(finish.delta, {});
    assert.equal(finish.finish_reason, 'tool_calls');

    const fragments = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    assert.deepEqual(fragments[0], { index: 0, id: 'call_1_0', type: 'function', function: { name: 'a', arguments: '' } });
    assert.deepEqual(fragments[1], { index: 0, function: { arguments: '{"x"' } });
    assert.deepEqual(fragments[2], { index: 0, function: { arguments: ':1}' } });
    assert.deepEqual(fragments[3], { index: 1, id: 'call_b', type: 'function', function: { name: 'b', arguments: '' } });
  });

  it("is read correctly by the openai SDK's own stream helper", async () => {
    const server = await start([{ text: 'Let me check.', toolCalls: [{ name: 'read_file', arguments: '{"path":"a.ts"}' }], chunkChars: 2 }]);
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const stream = client.chat.completions.stream({ model: 'fake-model', messages: [{ role: 'user', content: 'q' }], stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    const message = final.choices[0]!.message;
    assert.equal(message.content, 'Let me check.');
    assert.equal(message.tool_calls?.length, 1);
    const call = message.tool_calls![0]!;
    assert.ok(call.type === 'function');
    assert.equal(call.function.name, 'read_file');
    assert.equal(call.function.arguments, '{"path":"a.ts"}');
    assert.equal(final.choices[0]!.finish_reason, 'tool_calls');
    assert.ok(final.usage && final.usage.total_tokens > 0);
  });

  it('answers non-streaming requests with a chat.completion', async () => {
    const server = await start([{ text: 'whole', toolCalls: [{ name: 'f', arguments: '{}' }] }]);
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'q' }] });
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.choices[0]!.message.content, 'whole');
    assert.equal(completion.choices[0]!.message.tool_calls?.length, 1);
  });

  it('sends scripted errors with their headers and records every request', async () => {
    const server = await start([{ status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'slow' } } }]);
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer abc' },
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    assert.equal(response.status, 429);
    assert.equal(response.headers.get('retry-after'), '7');
    assert.deepEqual(await response.json(), { error: { message: 'slow' } });
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer abc');
    assert.deepEqual(server.requests[0]!.body, { model: 'm', messages: [] });
  });

  it('says so when the script runs out, rejects tools when asked, and lists its model', async () => {
    const server = await start([], { rejectTools: true, model: 'tiny' });
    const noTurn = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [] }) });
    assert.equal(noTurn.status, 500);
    assert.match(await noTurn.text(), /no scripted turn left for request #1/);
    const withTools = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [], tools: [{ type: 'function', function: { name: 'f' } }] }) });
    assert.equal(withTools.status, 400);
    assert.match(await withTools.text(), /tiny does not support tools/);
    const models = await (await fetch(`${server.url}/models`)).json();
    assert.equal(models.data[0].id, 'tiny');
  });

  it('close() ends a hanging stream', async () => {
    const server = await start([{ text: 'never', hangMs: 600_000 }]);
    const pending = fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [], stream: true }) }).then((r) => r.text());
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    await assert.rejects(pending);
  });
});
