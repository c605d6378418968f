import assert from 'node:assert/strict';
import { silentLogger, type Clock } from '../../../src/agent/ports';
import { presetById, presetForSettings } from '../../../src/host/common/setup/providerPresets';
import { SetupService } from '../../../src/host/common/setup/setupService';
import type { SetupDraft } from '../../../src/shared/setupProtocol';
import { startFakeAnthropic, type FakeAnthropicServer } from '../../support/fakeAnthropicServer';

// Issue 23: the "Anthropic" set-up preset over real HTTP: the model list from GET /v1/models
// (x-api-key and anthropic-version, never a bearer token), the connection test through the
// Anthropic adapter, and the settings a save writes.

function steppingClock(): Clock {
  let t = 1_000;
  return { now: () => (t += 5), sleep: async () => {} };
}

describe('set-up: the Anthropic preset against a fake Anthropic API', () => {
  let fake: FakeAnthropicServer;
  const KEY = 'sk-ant-good-key';
  const service = (stored: Record<string, string> = {}) =>
    new SetupService({ storedKey: async (baseUrl) => stored[new URL(baseUrl).origin], clock: steppingClock(), logger: silentLogger });
  const signal = () => new AbortController().signal;

  beforeEach(async () => {
    fake = await startFakeAnthropic([{ blocks: [{ type: 'text', text: 'OK' }] }], { models: ['claude-sonnet-4-6', 'claude-haiku-4-5-20251001'], requireKey: KEY });
  });
  afterEach(async () => fake.close());

  it('is offered, needs a key, and is what provider "anthropic" settings map back to', () => {
    const preset = presetById('anthropic')!;
    assert.equal(preset.label, 'Anthropic');
    assert.equal(preset.provider, 'anthropic');
    assert.equal(preset.baseUrl, 'https://api.anthropic.com');
    assert.equal(preset.needsKey, true);
    assert.equal(presetForSettings('anthropic', '').id, 'anthropic');
    assert.equal(presetForSettings('openai-compatible', 'https://api.anthropic.com').id, 'anthropic');
  });

  it('lists the models with the key in x-api-key and the anthropic-version header, in the server’s order', async () => {
    const draft: SetupDraft = { presetId: 'anthropic', baseUrl: fake.url, model: '', apiKey: KEY };
    const { models, error } = await service().models(draft, signal());
    assert.equal(error, undefined);
    assert.deepEqual(models, [{ id: 'claude-sonnet-4-6' }, { id: 'claude-haiku-4-5-20251001' }]);
    const [listing] = fake.requests;
    assert.equal(listing!.path, '/v1/models?limit=1000');
    assert.equal(listing!.headers['x-api-key'], KEY);
    assert.equal(listing!.headers['anthropic-version'], '2023-06-01');
    assert.equal(listing!.headers.authorization, undefined, 'never a bearer token');
  });

  it('a wrong key: the listing and the test both say "auth"', async () => {
    const draft: SetupDraft = { presetId: 'anthropic', baseUrl: fake.url, model: 'claude-sonnet-4-6', apiKey: 'sk-ant-wrong' };
    assert.equal((await service().models(draft, signal())).error?.code, 'auth');
    const result = await service().test(draft, signal());
    assert.equal(result.ok, false);
    assert.equal(result.ok ? '' : result.code, 'auth');
  });

  it('tests the model with one tiny real Messages request (the stored key of the origin when none is typed)', async () => {
    const draft: SetupDraft = { presetId: 'anthropic', baseUrl: fake.url, model: 'claude-sonnet-4-6' };
    const result = await service({ [new URL(fake.url).origin]: KEY }).test(draft, signal());
    assert.deepEqual(result, { ok: true, latencyMs: 5, model: 'claude-sonnet-4-6', reply: 'OK', endpoint: fake.url });
    const [request] = fake.messageRequests();
    assert.equal(request!.body!.model, 'claude-sonnet-4-6');
    assert.equal(request!.body!.max_tokens, 16);
  });

  it('saving writes provider "anthropic", the endpoint and the model, never the key', async () => {
    const settings = await service().settingsFor({ presetId: 'anthropic', baseUrl: '', model: 'claude-sonnet-4-6', apiKey: KEY });
    assert.deepEqual(settings, { provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-6', contextWindow: 0 });
    await assert.rejects(service().settingsFor({ presetId: 'anthropic', baseUrl: '', model: 'claude-sonnet-4-6' }), /API key/);
  });
});
