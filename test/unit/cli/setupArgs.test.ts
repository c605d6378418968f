import { strict as assert } from 'node:assert';
import { UsageError } from '../../../src/cli/cliArgs';
import { parseSetupArgs, setupDraftOf, setupKeyOf, type SetupOptions } from '../../../src/cli/setupArgs';
import { setupHint } from '../../../src/cli/setupCommands';
import { presetById } from '../../../src/host/common/setup/providerPresets';

describe('stepwise presets | models | check: arguments', () => {
  const env = { STEPWISE_MODEL: 'env-model', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' };

  const parsed: Array<[string[], Partial<SetupOptions>]> = [
    [['presets'], { command: 'presets', json: false }],
    [['models', '--presets', '--json'], { command: 'presets', json: true }],
    // Without --preset the run's endpoint ($OPENAI_BASE_URL) is listed; --model belongs to check.
    [['models'], { command: 'models', baseUrl: 'http://127.0.0.1:1/v1', model: undefined }],
    [['models', '--preset', 'Ollama'], { command: 'models', preset: 'ollama', baseUrl: undefined }],
    [['models', '--preset', 'ollama', '--base-url', ' http://h:11434/v1 '], { preset: 'ollama', baseUrl: 'http://h:11434/v1' }],
    [['check'], { command: 'check', model: 'env-model', baseUrl: 'http://127.0.0.1:1/v1' }],
    [['check', '--model', 'm', '--api-key-env', 'MY_KEY', '--json'], { model: 'm', apiKeyEnv: 'MY_KEY', json: true }],
    [['check', '--azure-api-version', '2024-10-21', '--base-url', 'https://r.openai.azure.com'], { azureApiVersion: '2024-10-21', baseUrl: 'https://r.openai.azure.com' }],
  ];
  for (const [argv, expected] of parsed) {
    it(`${argv.join(' ')} -> ${JSON.stringify(expected)}`, () => {
      const options = parseSetupArgs(argv, env);
      assert.ok(options);
      for (const [key, value] of Object.entries(expected)) assert.deepEqual(options[key as keyof SetupOptions], value, key);
    });
  }

  it('returns undefined for --help', () => {
    assert.equal(parseSetupArgs(['models', '--help'], env), undefined);
  });

  const refused: Array<[string[], RegExp]> = [
    [['models', 'extra'], /takes no arguments/],
    [['models', '--frobnicate'], /Unknown option/],
    [['models', '--model', 'm'], /leave out --model/],
    [['presets', '--preset', 'ollama'], /takes only --json/],
    [['check', '--presets'], /--presets belongs to stepwise models/],
    [['check', '--api-key-env', 'not a name'], /--api-key-env is not a variable name/],
    [['check', '--azure-api-version', ' '], /--azure-api-version/],
  ];
  for (const [argv, message] of refused) {
    it(`refuses ${argv.join(' ')}`, () => {
      assert.throws(() => parseSetupArgs(argv, env), (error: unknown) => error instanceof UsageError && message.test(error.message));
    });
  }
});

describe('stepwise models | check: which preset and draft the options mean', () => {
  const base: SetupOptions = { command: 'check', json: false };

  const drafts: Array<[string, Partial<SetupOptions>, { presetId: string; baseUrl: string; model: string; apiVersion?: string }]> = [
    ['no endpoint: OpenAI', {}, { presetId: 'openai', baseUrl: '', model: 'gpt-4o-mini' }],
    ['a URL on Ollama\'s port is Ollama', { baseUrl: 'http://localhost:11434/v1', model: 'qwen' }, { presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'qwen' }],
    ['DeepSeek\'s URL is DeepSeek', { baseUrl: 'https://api.deepseek.com/v1' }, { presetId: 'deepseek', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat' }],
    ['any other URL is custom', { baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' }, { presetId: 'custom', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' }],
    ['an API version means Azure', { baseUrl: 'https://r.openai.azure.com', azureApiVersion: '2024-10-21', model: 'dep' }, { presetId: 'azure', baseUrl: 'https://r.openai.azure.com', model: 'dep', apiVersion: '2024-10-21' }],
    ['--preset with its own URL', { preset: 'lmstudio' }, { presetId: 'lmstudio', baseUrl: '', model: '' }],
  ];
  for (const [name, options, draft] of drafts) {
    it(name, () => {
      assert.deepEqual(setupDraftOf({ ...base, ...options }).draft, draft);
    });
  }

  const contradictions: Array<[string, Partial<SetupOptions>, RegExp]> = [
    ['an unknown preset', { preset: 'nope' }, /unknown --preset "nope" \(use openai, azure/],
    ['VS Code\'s models', { preset: 'vscode-lm' }, /only inside VS Code/],
    ['a fixed-URL preset with --base-url', { preset: 'openai', baseUrl: 'http://x/v1' }, /always uses https:\/\/api\.openai\.com\/v1/],
    ['an API version for another provider', { preset: 'ollama', azureApiVersion: '2024-10-21' }, /belongs to Azure OpenAI/],
  ];
  for (const [name, options, message] of contradictions) {
    it(`refuses ${name}`, () => {
      assert.throws(() => setupDraftOf({ ...base, ...options }), (error: unknown) => error instanceof UsageError && message.test(error.message));
    });
  }

  const keys: Array<[string, Partial<SetupOptions>, NodeJS.ProcessEnv, { key?: string; source: string } | RegExp]> = [
    ['STEPWISE_API_KEY first', {}, { STEPWISE_API_KEY: 'a', OPENAI_API_KEY: 'b' }, { key: 'a', source: 'STEPWISE_API_KEY' }],
    ['then OPENAI_API_KEY', {}, { STEPWISE_API_KEY: ' ', OPENAI_API_KEY: 'b' }, { key: 'b', source: 'OPENAI_API_KEY' }],
    ['none', {}, {}, { source: 'OPENAI_API_KEY (or STEPWISE_API_KEY)' }],
    ['--api-key-env wins', { apiKeyEnv: 'MY_KEY' }, { MY_KEY: 'c', OPENAI_API_KEY: 'b' }, { key: 'c', source: 'MY_KEY' }],
    ['--api-key-env must be set', { apiKeyEnv: 'MY_KEY' }, { OPENAI_API_KEY: 'b' }, /MY_KEY: that variable is not set/],
  ];
  for (const [name, options, env, expected] of keys) {
    it(`the key: ${name}`, () => {
      if (expected instanceof RegExp) assert.throws(() => setupKeyOf({ ...base, ...options }, env), (error: unknown) => error instanceof UsageError && expected.test(error.message));
      else assert.deepEqual(setupKeyOf({ ...base, ...options }, env), expected);
    });
  }

  it('hints name the CLI\'s own flags and the variable the key came from', () => {
    assert.match(setupHint('auth', 'MY_KEY', presetById('custom')!), /right key in MY_KEY.*--api-key-env/);
    assert.match(setupHint('unreachable', 'X', presetById('ollama')!), /ollama serve/);
    assert.match(setupHint('not_found', 'X', presetById('azure')!), /deployment name/);
  });
});
