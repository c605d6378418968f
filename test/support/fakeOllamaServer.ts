// A fake Ollama: the native `/api/tags` and `/api/show` (the shapes Ollama's API reference documents) on top of
// the OpenAI-compatible fake (`/v1/models`, `/v1/chat/completions`), on one loopback port like the real server.
import { startFakeOpenAI, type FakeOpenAIServer, type FakeScript, type RecordedRequest } from './fakeOpenAIServer';

/** One pulled model: its name, architecture, trained context length and (optionally) a `num_ctx` parameter. */
export interface FakeOllamaModel {
  name: string;
  architecture: string;
  contextLength: number;
  numCtx?: number;
  /** The window `/api/ps` reports once a chat request loaded the model; default `numCtx`, else 4096 (Ollama's default on a small GPU). */
  loadedContext?: number;
}

/** A running fake Ollama. */
export interface FakeOllamaServer extends FakeOpenAIServer {
  /** The server root, e.g. `http://127.0.0.1:40123` (the OpenAI-compatible API is under `/v1`). */
  root: string;
}

/** `/api/tags` as Ollama answers it. */
function tags(models: readonly FakeOllamaModel[]): unknown {
  return {
    models: models.map((m) => ({
      name: m.name,
      model: m.name,
      modified_at: '2026-01-01T00:00:00Z',
      size: 2_019_393_189,
      digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
      details: { parent_model: '', format: 'gguf', family: m.architecture, families: [m.architecture], parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
    })),
  };
}

/** `/api/show` as Ollama answers it: `parameters` is Modelfile text, `model_info` the GGUF metadata. */
function show(model: FakeOllamaModel): unknown {
  return {
    license: 'LICENSE',
    modelfile: `FROM ${model.name}\n`,
    parameters: [model.numCtx ? `num_ctx                        ${model.numCtx}` : '', 'stop                           "<|eot_id|>"'].filter(Boolean).join('\n'),
    template: '{{ .Prompt }}',
    details: { parent_model: '', format: 'gguf', family: model.architecture, families: [model.architecture], parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
    model_info: {
      'general.architecture': model.architecture,
      'general.parameter_count': 3_212_749_888,
      [`${model.architecture}.context_length`]: model.contextLength,
      [`${model.architecture}.embedding_length`]: 3072,
      [`${model.architecture}.block_count`]: 28,
    },
    capabilities: ['completion', 'tools'],
    modified_at: '2026-01-01T00:00:00Z',
  };
}

/** One `/api/ps` entry: a loaded model with the window it was loaded with. */
function ps(model: FakeOllamaModel): unknown {
  return {
    name: model.name,
    model: model.name,
    size: 5_618_579_456,
    digest: 'dae161e27b0e90dd1856c8bb3209201fd6736d8eb66298e75ed87571486f4364',
    details: { parent_model: '', format: 'gguf', family: model.architecture, families: [model.architecture], parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
    expires_at: '2026-01-01T00:05:00Z',
    size_vram: 5_618_579_456,
    context_length: model.loadedContext ?? model.numCtx ?? 4096,
  };
}

/** Starts the fake Ollama with `models` pulled; chat answers follow `script` (any model name is accepted). */
export async function startFakeOllama(models: readonly FakeOllamaModel[], script: FakeScript): Promise<FakeOllamaServer> {
  // The routes read the chat requests of the server they are part of.
  const started: { fake?: FakeOpenAIServer } = {};
  const routes = (request: RecordedRequest): { status: number; body: unknown } | undefined => {
    const path = request.path.split('?')[0];
    if (request.method === 'GET' && path === '/api/tags') return { status: 200, body: tags(models) };
    if (request.method === 'POST' && path === '/api/show') {
      const wanted = (request.body as { model?: unknown; name?: unknown } | undefined)?.model ?? (request.body as { name?: unknown } | undefined)?.name;
      const model = models.find((m) => m.name === wanted);
      return model ? { status: 200, body: show(model) } : { status: 404, body: { error: `model '${String(wanted)}' not found` } };
    }
    if (request.method === 'GET' && path === '/api/ps') {
      const loaded = new Set(started.fake?.chatRequests().map((r) => r.body?.model));
      return { status: 200, body: { models: models.filter((m) => loaded.has(m.name)).map((m) => ps(m)) } };
    }
    if (request.method === 'GET' && path === '/v1/models') {
      return { status: 200, body: { object: 'list', data: models.map((m) => ({ id: m.name, object: 'model', created: 1_700_000_000, owned_by: 'library' })) } };
    }
    return undefined;
  };
  const fake: FakeOpenAIServer = await startFakeOpenAI(script, { model: models[0]?.name ?? 'fake-model', routes: (request) => routes(request) });
  started.fake = fake;
  return { ...fake, root: fake.url.replace(/\/v1$/, '') };
}
