import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { chatChunks, LineSplitter, type SseWork } from '../../../src/agent/model/sseChunks';

/** A Response whose body arrives in exactly these reads: a web stream, or (`node`) a Node stream as node-fetch gives. */
function bodyOf(reads: Array<string | Uint8Array>, node = false): Response {
  if (node) {
    const encoder = new TextEncoder();
    const body = Readable.from(reads.map((read) => Buffer.from(typeof read === 'string' ? encoder.encode(read) : read)), { objectMode: true });
    // node-fetch's Response: `body` is the Node stream itself, headers as usual.
    return { body, headers: new Headers({ 'x-request-id': 'req-1' }) } as unknown as Response;
  }
  const encoder = new TextEncoder();
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= reads.length) return controller.close();
      const read = reads[i++]!;
      controller.enqueue(typeof read === 'string' ? encoder.encode(read) : read);
    },
  });
  return new Response(stream, { headers: { 'x-request-id': 'req-1' } });
}

class FakeApiError extends Error {
  constructor(readonly error: unknown, readonly headers: Headers) {
    super('api error');
  }
}

async function collect(reads: Array<string | Uint8Array>, work?: SseWork, signal = new AbortController().signal, node = false): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of chatChunks(bodyOf(reads, node), { signal, apiError: (error, headers) => new FakeApiError(error, headers), ...(work ? { work } : {}) })) out.push(...batch);
  return out;
}

const chunk = (n: number) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `t${n}` } }] });
const event = (n: number, eol = '\n') => `data: ${JSON.stringify(chunk(n))}${eol}${eol}`;

describe('chatChunks: the streamed body read as the SDK reads it, in linear work', () => {
  const CASES: Array<[string, Array<string | Uint8Array>, unknown[]]> = [
    ['one event per read', [event(1), event(2), 'data: [DONE]\n\n'], [chunk(1), chunk(2)]],
    ['all events in one read', [event(1) + event(2) + 'data: [DONE]\n\n'], [chunk(1), chunk(2)]],
    ['CRLF line ends', [event(1, '\r\n'), event(2, '\r\n'), 'data: [DONE]\r\n\r\n'], [chunk(1), chunk(2)]],
    ['CR line ends', [event(1, '\r') + event(2, '\r')], [chunk(1), chunk(2)]],
    ['a CRLF split between reads', [`data: ${JSON.stringify(chunk(1))}\r`, '\n\r', '\n', event(2)], [chunk(1), chunk(2)]],
    ['an event split inside its JSON', [event(1).slice(0, 17), event(1).slice(17)], [chunk(1)]],
    ['comments, ids and event names ignored', [': keep-alive\n\nid: 4\nevent: message\n' + event(1) + 'retry: 10\n\n'], [chunk(1)]],
    ['data split over lines is joined by a newline', ['data: {"a":\ndata: 1}\n\n'], [{ a: 1 }]],
    ['data without the space after the colon', ['data:{"a":2}\n\n'], [{ a: 2 }]],
    ['nothing after [DONE] is read as a chunk', ['data: [DONE]\n\n' + event(3)], []],
    ['the last event without a blank line still counts', [event(1), `data: ${JSON.stringify(chunk(2))}`], [chunk(1), chunk(2)]],
  ];
  for (const [name, reads, expected] of CASES) {
    it(name, async () => assert.deepEqual(await collect(reads), expected));
    it(`${name} (a Node stream body, as node-fetch gives)`, async () => assert.deepEqual(await collect(reads, undefined, undefined, true), expected));
  }

  it('decodes a character split between reads', async () => {
    const bytes = new TextEncoder().encode(`data: ${JSON.stringify({ text: 'café 😀' })}\n\n`);
    const cut = bytes.indexOf(0xf0) + 2;
    assert.deepEqual(await collect([bytes.slice(0, cut), bytes.slice(cut)]), [{ text: 'café 😀' }]);
  });

  it('an error payload throws the SDK error with the response headers', async () => {
    await assert.rejects(collect([event(1), 'data: {"error":{"message":"overloaded","type":"server_error"}}\n\n']), (error: unknown) => {
      assert.ok(error instanceof FakeApiError);
      assert.deepEqual(error.error, { message: 'overloaded', type: 'server_error' });
      assert.equal(error.headers.get('x-request-id'), 'req-1');
      return true;
    });
  });

  it('the chunks before a bad payload in the same read still arrive, then the error (output started: no silent retry)', async () => {
    const seen: unknown[] = [];
    const reads = [event(1) + event(2) + 'data: {"error":{"message":"overloaded"}}\n\n'];
    await assert.rejects(async () => {
      for await (const batch of chatChunks(bodyOf(reads), { signal: new AbortController().signal, apiError: (e, h) => new FakeApiError(e, h) })) seen.push(...batch);
    }, FakeApiError);
    assert.deepEqual(seen, [chunk(1), chunk(2)]);
  });

  it('one batch per network read: 1,000 events in one read are one await', async () => {
    const batches: number[] = [];
    const body = Array.from({ length: 1000 }, (_, i) => event(i)).join('');
    for await (const batch of chatChunks(bodyOf([body, event(1000)]), { signal: new AbortController().signal, apiError: (e) => new Error(String(e)) })) batches.push(batch.length);
    assert.deepEqual(batches, [1000, 1]);
  });

  it('a garbled payload throws a SyntaxError (the stream cannot be trusted)', async () => {
    await assert.rejects(collect(['data: {"id":\n\n']), SyntaxError);
  });

  it('an abort ends the iteration quietly, as the SDK stream does', async () => {
    const controller = new AbortController();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(event(1)));
        controller.signal.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
      },
    });
    const seen: unknown[] = [];
    for await (const batch of chatChunks(new Response(stream), { signal: controller.signal, apiError: (e) => new Error(String(e)) })) {
      seen.push(...batch);
      controller.abort();
    }
    assert.deepEqual(seen, [chunk(1)]);
  });

  it('work is linear: N events in one read are N line pairs and no joins; a 1 MB line in 1 KB reads is joined once', async () => {
    for (const n of [100, 10_000]) {
      const work: SseWork = { bytes: 0, lines: 0, joinedChars: 0 };
      const body = Array.from({ length: n }, (_, i) => event(i)).join('');
      const out = await collect([body], work);
      assert.equal(out.length, n);
      assert.equal(work.lines, 2 * n);
      assert.equal(work.joinedChars, 0);
      assert.equal(work.bytes, Buffer.byteLength(body));
    }
    const big = `data: ${JSON.stringify({ text: 'x'.repeat(1 << 20) })}\n\n`;
    const reads = Array.from({ length: Math.ceil(big.length / 1024) }, (_, i) => big.slice(i * 1024, (i + 1) * 1024));
    const work: SseWork = { bytes: 0, lines: 0, joinedChars: 0 };
    const [only] = (await collect(reads, work)) as Array<{ text: string }>;
    assert.equal(only!.text.length, 1 << 20);
    assert.equal(work.lines, 2);
    assert.equal(work.joinedChars, big.length - 2, 'the long line joined once from its pieces');
  });

  it('LineSplitter: lines at \\n, \\r\\n and \\r, the last held back until final', () => {
    const lines = new LineSplitter();
    assert.deepEqual(lines.push('a\nb\r\nc\rd'), ['a', 'b', 'c']);
    // A `\r` ends its line at once; a `\n` opening the next read is its other half, not an empty line.
    assert.deepEqual(lines.push('e\r'), ['de']);
    assert.deepEqual(lines.push('\nf'), []);
    assert.deepEqual(lines.push('', true), ['f']);
  });
});
