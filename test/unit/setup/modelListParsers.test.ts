import assert from 'node:assert/strict';
import { codeForStatus, contextLengthOf, loadedContextLength, ollamaContextWindow, ollamaRoot, parseNumCtx, parseOllamaTags, parseOpenAIModels } from '../../../src/host/common/setup/modelList';
import { PROVIDER_PRESETS, presetForSettings } from '../../../src/host/common/setup/providerPresets';
import { ProviderPresetInfo } from '../../../src/shared/setupProtocol';

describe('set-up: model-list parsers and presets', () => {
  describe('parseNumCtx (Ollama `parameters` text)', () => {
    const cases: Array<[string, string | undefined, number | undefined]> = [
      ['absent', undefined, undefined],
      ['empty', '', undefined],
      ['aligned like ollama show', 'num_ctx                        8192\nstop                           "<|eot_id|>"', 8192],
      ['after other lines', 'temperature 0.7\nnum_ctx 32768', 32768],
      ['other parameters only', 'stop "<|eot_id|>"\ntemperature 0.2', undefined],
      ['not a number', 'num_ctx lots', undefined],
      ['zero', 'num_ctx 0', undefined],
      ['a longer name is not num_ctx', 'num_ctx_max 4096', undefined],
    ];
    for (const [name, text, want] of cases) it(name, () => assert.equal(parseNumCtx(text), want));
  });

  describe('contextLengthOf (Ollama `model_info`)', () => {
    const cases: Array<[string, Record<string, unknown> | undefined, number | undefined]> = [
      ['absent', undefined, undefined],
      ['llama', { 'general.architecture': 'llama', 'llama.context_length': 131072, 'llama.embedding_length': 3072 }, 131072],
      ['qwen2', { 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 }, 32768],
      ['architecture named, its key missing', { 'general.architecture': 'gemma3', 'llama.context_length': 8192 }, undefined],
      ['no architecture: any *.context_length', { 'phi3.context_length': 4096 }, 4096],
      ['a string is not a length', { 'general.architecture': 'llama', 'llama.context_length': '8192' }, undefined],
      ['negative', { 'general.architecture': 'llama', 'llama.context_length': -1 }, undefined],
    ];
    for (const [name, info, want] of cases) it(name, () => assert.equal(contextLengthOf(info), want));
  });

  describe('ollamaContextWindow (`/api/show` answers)', () => {
    const cases: Array<[string, unknown, { contextWindow?: number; contextSource?: string }]> = [
      ['num_ctx wins over the trained length', { parameters: 'num_ctx 8192', model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 } }, { contextWindow: 8192, contextSource: 'num_ctx' }],
      ['trained length without num_ctx', { parameters: 'stop "x"', model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 } }, { contextWindow: 131072, contextSource: 'model_info' }],
      ['neither', { modelfile: 'FROM x' }, {}],
      ['extra fields are fine', { license: 'MIT', capabilities: ['completion'], model_info: { 'general.architecture': 'mistral', 'mistral.context_length': 32768 } }, { contextWindow: 32768, contextSource: 'model_info' }],
    ];
    for (const [name, json, want] of cases) it(name, () => assert.deepEqual(ollamaContextWindow(json), want));
    it('refuses a body that is not an object', () => assert.throws(() => ollamaContextWindow('not json')));
    it('refuses a model_info that is not a record', () => assert.throws(() => ollamaContextWindow({ model_info: [1, 2] })));
  });

  describe('parseOpenAIModels (`GET /models`)', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['OpenAI', { object: 'list', data: [{ id: 'gpt-4o', object: 'model' }, { id: 'gpt-4o-mini', object: 'model' }] }, [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }]],
      ['sorted by id', { data: [{ id: 'b' }, { id: 'a' }] }, [{ id: 'a' }, { id: 'b' }]],
      ['OpenRouter context_length', { data: [{ id: 'x/y', context_length: 200000, pricing: {} }] }, [{ id: 'x/y', contextWindow: 200000, contextSource: 'listing' }]],
      ['empty list', { data: [] }, []],
    ];
    for (const [name, json, want] of cases) it(name, () => assert.deepEqual(parseOpenAIModels(json), want));
    for (const [name, json] of [['no data', {}], ['an id missing', { data: [{ object: 'model' }] }], ['an empty id', { data: [{ id: '' }] }]] as const) {
      it(`refuses ${name}`, () => assert.throws(() => parseOpenAIModels(json)));
    }
  });

  describe('loadedContextLength (`/api/ps`)', () => {
    const ps = { models: [{ name: 'qwen2.5-coder:7b', model: 'qwen2.5-coder:7b', size_vram: 1, context_length: 4096 }, { name: 'old:1b', model: 'old:1b' }] };
    const cases: Array<[string, unknown, string, number | undefined]> = [
      ['a loaded model', ps, 'qwen2.5-coder:7b', 4096],
      ['an older server without context_length', ps, 'old:1b', undefined],
      ['not loaded', ps, 'llama3.2:3b', undefined],
      ['nothing loaded', { models: [] }, 'x', undefined],
    ];
    for (const [name, json, model, want] of cases) it(name, () => assert.equal(loadedContextLength(json, model), want));
    it('refuses a body without models', () => assert.throws(() => loadedContextLength({}, 'x')));
  });

  describe('parseOllamaTags (`/api/tags`)', () => {
    it('names in the server order', () => assert.deepEqual(parseOllamaTags({ models: [{ name: 'qwen2.5-coder:7b', model: 'qwen2.5-coder:7b', size: 1 }, { name: 'llama3.2:3b' }] }), ['qwen2.5-coder:7b', 'llama3.2:3b']));
    it('no models pulled', () => assert.deepEqual(parseOllamaTags({ models: [] }), []));
    it('refuses an OpenAI listing', () => assert.throws(() => parseOllamaTags({ data: [{ id: 'x' }] })));
  });

  describe('small helpers', () => {
    const roots: Array<[string, string]> = [
      ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434'],
      ['http://127.0.0.1:11434/v1/', 'http://127.0.0.1:11434'],
      ['http://box:11434', 'http://box:11434'],
    ];
    for (const [url, want] of roots) it(`ollamaRoot(${url})`, () => assert.equal(ollamaRoot(url), want));
    const statuses: Array<[number, string]> = [[401, 'auth'], [403, 'auth'], [404, 'not_found'], [429, 'rate_limit'], [400, 'bad_request'], [422, 'bad_request'], [500, 'unreachable'], [503, 'unreachable']];
    for (const [status, code] of statuses) it(`status ${status} is ${code}`, () => assert.equal(codeForStatus(status), code));
  });

  describe('presets', () => {
    it('every preset matches the protocol schema and ids are unique', () => {
      for (const preset of PROVIDER_PRESETS) ProviderPresetInfo.parse(preset);
      assert.equal(new Set(PROVIDER_PRESETS.map((p) => p.id)).size, PROVIDER_PRESETS.length);
    });
    it('presets with a fixed URL have one; key-less presets are local servers, custom URLs or VS Code', () => {
      for (const preset of PROVIDER_PRESETS) {
        if (!preset.editableUrl && preset.provider !== 'vscode-lm') assert.match(preset.baseUrl, /^https:\/\//, preset.id);
        if (!preset.needsKey) assert.ok(['ollama', 'lmstudio', 'custom', 'vscode-lm'].includes(preset.id), preset.id);
      }
    });
    const settings: Array<[string, string, string]> = [
      ['openai-compatible', '', 'openai'],
      ['openai-compatible', 'https://api.openai.com/v1', 'openai'],
      ['openai-compatible', 'https://api.openai.com/v1/', 'openai'],
      ['openai-compatible', 'https://api.deepseek.com/v1', 'deepseek'],
      ['openai-compatible', 'https://openrouter.ai/api/v1', 'openrouter'],
      ['openai-compatible', 'http://127.0.0.1:11434/v1', 'ollama'],
      ['openai-compatible', 'http://localhost:11434/v1', 'ollama'],
      ['openai-compatible', 'http://gpu-box:11434/v1', 'ollama'],
      ['openai-compatible', 'http://localhost:1234/v1', 'lmstudio'],
      ['openai-compatible', 'http://10.0.0.5:8000/v1', 'custom'],
      ['openai-compatible', 'not a url', 'custom'],
      ['azure-openai', 'https://res.openai.azure.com', 'azure'],
      ['vscode-lm', '', 'vscode-lm'],
    ];
    for (const [provider, url, id] of settings) it(`${provider} ${JSON.stringify(url)} -> ${id}`, () => assert.equal(presetForSettings(provider, url).id, id));
  });
});
