import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Model } from '../../../src/agent/model/types';
import { silentLogger, type Clock } from '../../../src/agent/ports';
import { SetupService } from '../../../src/host/common/setup/setupService';
import type { SetupDraft } from '../../../src/shared/setupProtocol';
import { startFakeOllama, type FakeOllamaServer } from '../../support/fakeOllamaServer';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';

/** A clock that advances 5 ms per reading, so latencies are deterministic. */
function steppingClock(): Clock {
  let t = 1_000;
  return { now: () => (t += 5), sleep: async () => {} };
}

function service(stored: Record<string, string> = {}): SetupService {
  return new SetupService({ storedKey: async (baseUrl) => stored[new URL(baseUrl).origin], clock: steppingClock(), logger: silentLogger });
}

const signal = (): AbortSignal => new AbortController().signal;

describe('set-up service over real HTTP (fake Ollama, fake OpenAI-compatible, fake Azure)', () => {
  let ollama: FakeOllamaServer;
  let openai: FakeOpenAIServer;

  before(async () => {
    ollama = await startFakeOllama(
      [
        { name: 'qwen2.5-coder:7b', architecture: 'qwen2', contextLength: 32768, numCtx: 8192 },
        { name: 'llama3.2:3b', architecture: 'llama', contextLength: 131072 },
      ],
      () => ({ text: 'OK' }),
    );
    openai = await startFakeOpenAI(() => ({ text: 'OK' }), { model: 'gpt-test', requireKey: 'sk-good' });
  });
  after(async () => {
    await ollama.close();
    await openai.close();
  });

  it('lists Ollama models with their context windows (num_ctx first, else model_info)', async () => {
    const draft: SetupDraft = { presetId: 'ollama', baseUrl: ollama.url, model: '' };
    const { models, error } = await service().models(draft, signal());
    assert.equal(error, undefined);
    assert.deepEqual(models, [
      { id: 'qwen2.5-coder:7b', contextWindow: 8192, contextSource: 'num_ctx' },
      { id: 'llama3.2:3b', contextWindow: 131072, contextSource: 'model_info' },
    ]);
    const paths = ollama.requests.map((r) => `${r.method} ${r.path}`);
    assert.ok(paths.includes('GET /api/tags'));
    assert.equal(paths.filter((p) => p === 'POST /api/show').length, 2);
    assert.deepEqual(ollama.requests.filter((r) => r.path === '/api/show').map((r) => r.body?.model).sort(), ['llama3.2:3b', 'qwen2.5-coder:7b']);
  });

  it('tests an Ollama model with one tiny real chat request, reports the round trip and the window it was loaded with', async () => {
    const before = ollama.chatRequests().length;
    const result = await service().test({ presetId: 'ollama', baseUrl: ollama.url, model: 'llama3.2:3b' }, signal());
    // /api/show said 131072 (trained); the server loaded it with its default 4096, and that is what a prompt may use.
    assert.deepEqual(result, { ok: true, latencyMs: 5, model: 'llama3.2:3b', reply: 'OK', endpoint: ollama.url, contextWindow: 4096 });
    assert.ok(ollama.requests.some((r) => r.method === 'GET' && r.path === '/api/ps'));
    const sent = ollama.chatRequests().slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.body?.model, 'llama3.2:3b');
    assert.equal(sent[0]!.body?.tools, undefined, 'no tools in a connection test');
  });

  it('says which models Ollama has loaded and with what window (after the test above loaded one); other endpoints: unknown', async () => {
    const loaded = await service().loadedModels({ presetId: 'ollama', baseUrl: ollama.url, model: '' }, signal());
    assert.deepEqual(loaded && [...loaded], [['llama3.2:3b', 4096]]);
    assert.equal(await service().loadedModels({ presetId: 'custom', baseUrl: openai.url, model: '' }, signal()), undefined);
    assert.equal(await service().loadedModels({ presetId: 'ollama', baseUrl: 'http://127.0.0.1:9/v1', model: '' }, signal()), undefined);
  });

  const failures: Array<[string, () => SetupDraft, string, RegExp]> = [
    ['a refused key (401)', () => ({ presetId: 'custom', baseUrl: openai.url, model: 'gpt-test', apiKey: 'sk-wrong' }), 'auth', /401/],
    ['a wrong path (404)', () => ({ presetId: 'custom', baseUrl: openai.url.replace(/\/v1$/, '/nope'), model: 'gpt-test', apiKey: 'sk-good' }), 'not_found', /404/],
    ['a server that is not there', () => ({ presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'x' }), 'unreachable', /127\.0\.0\.1:9/],
    ['no URL', () => ({ presetId: 'custom', baseUrl: '', model: 'x' }), 'bad_url', /base URL/],
    ['not a URL', () => ({ presetId: 'custom', baseUrl: 'localhost 8000', model: 'x' }), 'bad_url', /not a valid URL/],
    ['no key for a provider that needs one', () => ({ presetId: 'deepseek', baseUrl: '', model: 'deepseek-chat' }), 'no_key', /API key/],
  ];
  for (const [name, draft, code, message] of failures) {
    it(`a test with ${name} comes back as "${code}" in plain words`, async () => {
      const result = await service().test(draft(), signal());
      assert.equal(result.ok, false);
      assert.ok(!result.ok);
      assert.equal(result.code, code);
      assert.match(result.message, message);
    });
  }

  it('uses the stored key of the endpoint when none is typed, and lists the models with it', async () => {
    const stored = { [new URL(openai.url).origin]: 'sk-good' };
    const draft: SetupDraft = { presetId: 'custom', baseUrl: openai.url, model: 'gpt-test' };
    assert.equal((await service(stored).test(draft, signal())).ok, true);
    assert.deepEqual((await service(stored).models(draft, signal())).models, [{ id: 'gpt-test' }]);
    const refused = await service().models(draft, signal());
    assert.equal(refused.error?.code, 'auth');
  });

  it('says which settings a save writes (no key among them), and refuses a draft without model or key', async () => {
    const svc = service();
    assert.deepEqual(await svc.settingsFor({ presetId: 'ollama', baseUrl: ollama.url, model: 'llama3.2:3b', contextWindow: 131072 }), {
      provider: 'openai-compatible', baseUrl: ollama.url, model: 'llama3.2:3b', contextWindow: 131072,
    });
    assert.deepEqual(await svc.settingsFor({ presetId: 'openai', baseUrl: 'https://evil.example/v1', model: 'gpt-4o', apiKey: 'sk-x' }), {
      provider: 'openai-compatible', baseUrl: '', model: 'gpt-4o', contextWindow: 0,
    });
    assert.deepEqual(await svc.settingsFor({ presetId: 'azure', baseUrl: 'https://res.openai.azure.com', model: 'dep', apiKey: 'k' }), {
      provider: 'azure-openai', baseUrl: 'https://res.openai.azure.com', model: 'dep', 'azure.apiVersion': '2024-10-21', contextWindow: 0,
    });
    await assert.rejects(svc.settingsFor({ presetId: 'ollama', baseUrl: ollama.url, model: '' }), /Pick or enter a model/);
    await assert.rejects(svc.settingsFor({ presetId: 'openai', baseUrl: '', model: 'gpt-4o' }), /API key/);
  });

  it("VS Code's language models: tested through the host's model, saved without an endpoint", async () => {
    const asked: string[] = [];
    const lm: Model = {
      id: 'copilot-gpt-4o',
      complete: async (request) => {
        asked.push(String(request.messages.at(-1)?.content));
        return { text: 'OK', toolCalls: [], finishReason: 'stop' };
      },
    };
    const withLm = new SetupService({ storedKey: async () => undefined, lmModel: async (id) => (id === 'copilot-gpt-4o' ? lm : undefined), clock: steppingClock(), logger: silentLogger });
    const draft: SetupDraft = { presetId: 'vscode-lm', baseUrl: '', model: 'copilot-gpt-4o' };
    assert.deepEqual(await withLm.test(draft, signal()), { ok: true, latencyMs: 5, model: 'copilot-gpt-4o', reply: 'OK', endpoint: '' });
    assert.equal(asked.length, 1);
    assert.deepEqual(await withLm.settingsFor(draft), { provider: 'vscode-lm', baseUrl: '', model: 'copilot-gpt-4o', contextWindow: 0 });
    const none = await service().test(draft, signal());
    assert.equal(none.ok, false);
    assert.ok(!none.ok && none.code === 'not_found');
    assert.deepEqual((await withLm.models(draft, signal())).models, [], 'the host lists VS Code models itself');
  });

  it('Azure OpenAI: the key in `api-key` (no Authorization), `api-version` in the query, the deployment in the path', async () => {
    const seen: Array<{ url: string; headers: http.IncomingHttpHeaders }> = [];
    const azure = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.end(chunk({ role: 'assistant', content: 'OK' }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => azure.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(azure.address() as AddressInfo).port}`;
      const result = await service().test({ presetId: 'azure', baseUrl: endpoint, model: 'my-deployment', apiKey: 'azure-key', apiVersion: '2024-06-01' }, signal());
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.url, '/openai/deployments/my-deployment/chat/completions?api-version=2024-06-01');
      assert.equal(seen[0]!.headers['api-key'], 'azure-key');
      assert.equal(seen[0]!.headers.authorization, undefined);
    } finally {
      await new Promise<void>((resolve) => azure.close(() => resolve()));
    }
  });
});
