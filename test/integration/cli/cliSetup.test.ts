import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { z } from 'zod';
import { SetupErrorCode } from '../../../src/shared/setupProtocol';
import { startFakeOllama, type FakeOllamaServer } from '../../support/fakeOllamaServer';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { CLI_PATH, TEST_STEPWISE_HOME } from './cliProcess';

// `stepwise presets | models | check` through the built CLI against real loopback servers: a fake
// Ollama (/api/tags, /api/show, /api/ps, /v1), a fake OpenAI-compatible server that checks the key,
// one that rate-limits, an Azure-shaped resource endpoint, and a port nobody listens on.

interface PlainRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI without a TTY and without any key unless `env` gives one. */
function runPlain(args: string[], env: Record<string, string> = {}): Promise<PlainRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', STEPWISE_HOME: TEST_STEPWISE_HOME, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A loopback port that was free a moment ago: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const ModelsJson = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    preset: z.string(),
    endpoint: z.string(),
    models: z.array(z.strictObject({ id: z.string(), contextWindow: z.number().int().positive().optional(), contextSource: z.string().optional(), loaded: z.boolean().optional(), loadedContextWindow: z.number().int().positive().optional() })),
  }).strict(),
  z.object({ ok: z.literal(false), preset: z.string(), endpoint: z.string(), error: z.strictObject({ code: SetupErrorCode, message: z.string(), hint: z.string() }) }).strict(),
]);

const CheckJson = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), preset: z.string(), endpoint: z.string(), model: z.string(), latencyMs: z.number().int().min(0), reply: z.string(), contextWindow: z.number().int().positive().optional() }).strict(),
  z.object({ ok: z.literal(false), preset: z.string(), endpoint: z.string(), model: z.string(), error: z.strictObject({ code: SetupErrorCode, message: z.string(), hint: z.string() }) }).strict(),
]);

const GOOD_KEY = 'sk-good-key-0123456789';
const WRONG_KEY = 'sk-wrong';

/** OpenAI's answer for a model the server does not have. */
const modelNotFound: FakeTurn = {
  status: 404,
  body: { error: { message: 'The model `no-such-model` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } },
};

describe('stepwise presets | models | check (built CLI) against real endpoints', function () {
  this.timeout(60_000);
  let ollama: FakeOllamaServer;
  let openai: FakeOpenAIServer;
  let limited: FakeOpenAIServer;
  let azure: http.Server;
  let azureSeen: Array<{ url: string; headers: http.IncomingHttpHeaders }>;
  let refused: number;

  before(async () => {
    ollama = await startFakeOllama(
      [
        { name: 'qwen2.5-coder:7b', architecture: 'qwen2', contextLength: 32768, numCtx: 8192 },
        { name: 'llama3.2:3b', architecture: 'llama', contextLength: 131072 },
      ],
      () => ({ text: 'OK' }),
    );
    openai = await startFakeOpenAI((request) => (request.body?.model === 'no-such-model' ? modelNotFound : { text: 'OK' }), { model: 'gpt-test', requireKey: GOOD_KEY });
    limited = await startFakeOpenAI(() => ({ status: 429, body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } } }), {
      routes: (request) => (request.path === '/v1/models' ? { status: 429, body: { error: { message: 'Rate limit reached for requests', type: 'requests' } } } : undefined),
    });
    azureSeen = [];
    const upstream = new URL(openai.url);
    // Azure's resource endpoint: deployment in the path, api-version in the query, key in `api-key`; the
    // fake OpenAI server behind it gives the answer (with the key it expects as a bearer token).
    azure = http.createServer((req, res) => {
      azureSeen.push({ url: req.url ?? '', headers: req.headers });
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${String(req.headers['api-key'] ?? '')}` };
      const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: '/v1/chat/completions', headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => azure.listen(0, '127.0.0.1', resolve));
    refused = await closedPort();
  });

  after(async () => {
    await new Promise<void>((resolve) => azure.close(() => resolve()));
    await Promise.all([ollama.close(), openai.close(), limited.close()]);
  });

  it('presets lists the providers with their default base URLs (and --json the same)', async () => {
    const text = await runPlain(['presets']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^ollama\s+Ollama\s+http:\/\/127\.0\.0\.1:11434\/v1\s+no key$/m);
    assert.match(text.stdout, /^openai\s+OpenAI\s+https:\/\/api\.openai\.com\/v1\s+key needed$/m);
    assert.doesNotMatch(text.stdout, /vscode-lm/, 'VS Code language models are not offered outside VS Code');
    const json = await runPlain(['models', '--presets', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const { presets } = z.object({ presets: z.array(z.object({ id: z.string(), baseUrl: z.string(), needsKey: z.boolean(), listsModels: z.boolean() })) }).parse(JSON.parse(json.stdout));
    const deepseek = presets.find((p) => p.id === 'deepseek');
    assert.deepEqual([deepseek?.baseUrl, deepseek?.needsKey, deepseek?.listsModels], ['https://api.deepseek.com/v1', true, true]);
    assert.equal(presets.find((p) => p.id === 'azure')?.listsModels, false);
  });

  const listRows: Array<{ name: string; args: () => string[]; env?: Record<string, string>; code: number; stdout?: RegExp; stderr?: RegExp; json?: { code: SetupErrorCode } }> = [
    {
      name: 'Ollama: every pulled model with its window and where it came from',
      args: () => ['models', '--preset', 'ollama', '--base-url', ollama.url],
      code: 0,
      stdout: /^Models at .* \(Ollama\):\n {2}qwen2\.5-coder:7b +context 8192 \(num_ctx parameter\) +not loaded\n {2}llama3\.2:3b +context 131072 \(trained length\) +(not )?loaded/m,
    },
    { name: 'an OpenAI-compatible server, key from --api-key-env', args: () => ['models', '--base-url', openai.url, '--api-key-env', 'MY_KEY'], env: { MY_KEY: GOOD_KEY }, code: 0, stdout: /^ {2}gpt-test +context unknown$/m },
    { name: 'a refused key (401)', args: () => ['models', '--base-url', openai.url], env: { OPENAI_API_KEY: WRONG_KEY }, code: 1, stderr: /answered 401[\s\S]*The key was refused: put the right key in OPENAI_API_KEY/ },
    { name: 'a refused key, --json', args: () => ['models', '--base-url', openai.url, '--json'], env: { STEPWISE_API_KEY: WRONG_KEY }, code: 1, json: { code: 'auth' } },
    { name: 'a port nobody listens on', args: () => ['models', '--base-url', `http://127.0.0.1:${refused}/v1`], code: 1, stderr: /http:\/\/127\.0\.0\.1:\d+: connect ECONNREFUSED[\s\S]*Start the server or check --base-url/ },
    { name: 'Ollama not running', args: () => ['models', '--preset', 'ollama', '--base-url', `http://127.0.0.1:${refused}/v1`, '--json'], code: 1, json: { code: 'unreachable' } },
    { name: 'a wrong path (404)', args: () => ['models', '--base-url', openai.url.replace(/\/v1$/, '/nope')], env: { OPENAI_API_KEY: GOOD_KEY }, code: 1, stderr: /answered 404[\s\S]*Check --base-url/ },
    { name: 'a rate limit (429)', args: () => ['models', '--base-url', limited.url, '--json'], code: 1, json: { code: 'rate_limit' } },
    { name: 'an --api-key-env variable that is not set', args: () => ['models', '--base-url', openai.url, '--api-key-env', 'NOT_SET_HERE'], code: 2, stderr: /NOT_SET_HERE: that variable is not set/ },
    { name: 'not a URL', args: () => ['models', '--base-url', 'localhost 8000'], code: 2, stderr: /not a valid URL[\s\S]*--base-url/ },
    { name: 'Azure, which lists no deployments', args: () => ['models', '--preset', 'azure'], code: 2, stderr: /does not list its models; test one with: stepwise check --preset azure/ },
    { name: 'an unknown preset', args: () => ['models', '--preset', 'nope'], code: 2, stderr: /unknown --preset "nope"/ },
  ];
  for (const row of listRows) {
    it(`models: ${row.name} -> exit ${row.code}`, async () => {
      const r = await runPlain(row.args(), row.env);
      assert.equal(r.code, row.code, r.stdout + r.stderr);
      if (row.stdout) assert.match(r.stdout, row.stdout);
      if (row.stderr) assert.match(r.stderr, row.stderr);
      if (row.json) {
        const parsed = ModelsJson.parse(JSON.parse(r.stdout));
        assert.ok(!parsed.ok);
        assert.equal(parsed.error.code, row.json.code);
      }
      for (const key of [GOOD_KEY, WRONG_KEY]) assert.ok(!r.stdout.includes(key) && !r.stderr.includes(key), 'the key is never printed');
    });
  }

  it('models --json: windows, their source and what Ollama has loaded (after check loaded a model)', async () => {
    const check = await runPlain(['check', '--preset', 'ollama', '--base-url', ollama.url, '--model', 'llama3.2:3b']);
    assert.equal(check.code, 0, check.stderr);
    const r = await runPlain(['models', '--preset', 'ollama', '--base-url', ollama.url, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(ModelsJson.parse(JSON.parse(r.stdout)), {
      ok: true,
      preset: 'ollama',
      endpoint: ollama.url,
      models: [
        { id: 'qwen2.5-coder:7b', contextWindow: 8192, contextSource: 'num_ctx', loaded: false },
        { id: 'llama3.2:3b', contextWindow: 131072, contextSource: 'model_info', loaded: true, loadedContextWindow: 4096 },
      ],
    });
    const text = await runPlain(['models', '--preset', 'ollama', '--base-url', ollama.url]);
    assert.match(text.stdout, /llama3\.2:3b +context 131072 \(trained length\) +loaded with context 4096$/m);
  });

  const checkRows: Array<{ name: string; args: () => string[]; env?: Record<string, string>; code: number; stdout?: RegExp; stderr?: RegExp; json?: SetupErrorCode | 'ok' }> = [
    {
      name: 'Ollama: connected, with the window the server loaded the model with',
      args: () => ['check', '--preset', 'ollama', '--base-url', ollama.url, '--model', 'qwen2.5-coder:7b'],
      code: 0,
      stdout: /^Connected to http:\/\/127\.0\.0\.1:\d+\/v1 \(model qwen2\.5-coder:7b\) in \d+ ms\.\nContext window: 8192 tokens, as the server loaded the model; pass --context-window 8192 to stepwise run\.$/m,
    },
    { name: 'the model from $STEPWISE_MODEL, --json', args: () => ['check', '--base-url', openai.url, '--json'], env: { OPENAI_API_KEY: GOOD_KEY, STEPWISE_MODEL: 'gpt-test' }, code: 0, json: 'ok' },
    { name: 'a refused key (401)', args: () => ['check', '--base-url', openai.url, '--model', 'gpt-test'], env: { OPENAI_API_KEY: WRONG_KEY }, code: 1, stderr: /does not work: .*401[\s\S]*The key was refused/ },
    { name: 'a model the server does not have (404)', args: () => ['check', '--base-url', openai.url, '--model', 'no-such-model', '--json'], env: { OPENAI_API_KEY: GOOD_KEY }, code: 1, json: 'not_found' },
    { name: 'a model the server does not have (404), in words', args: () => ['check', '--base-url', openai.url, '--model', 'no-such-model'], env: { OPENAI_API_KEY: GOOD_KEY }, code: 1, stderr: /no-such-model[\s\S]*the model name \(stepwise models lists them\)/ },
    { name: 'a port nobody listens on', args: () => ['check', '--base-url', `http://127.0.0.1:${refused}/v1`, '--model', 'm', '--json'], code: 1, json: 'unreachable' },
    { name: 'a rate limit (429)', args: () => ['check', '--base-url', limited.url, '--model', 'm', '--json'], code: 1, json: 'rate_limit' },
    { name: 'no model given', args: () => ['check', '--base-url', openai.url], env: { OPENAI_API_KEY: GOOD_KEY }, code: 2, stderr: /give the model to test: --model M/ },
    { name: 'a provider that needs a key, without one', args: () => ['check', '--preset', 'deepseek'], code: 2, stderr: /Enter the API key[\s\S]*Set OPENAI_API_KEY \(or STEPWISE_API_KEY\)/ },
  ];
  for (const row of checkRows) {
    it(`check: ${row.name} -> exit ${row.code}`, async () => {
      const r = await runPlain(row.args(), row.env);
      assert.equal(r.code, row.code, r.stdout + r.stderr);
      if (row.stdout) assert.match(r.stdout, row.stdout);
      if (row.stderr) assert.match(r.stderr, row.stderr);
      if (row.json) {
        const parsed = CheckJson.parse(JSON.parse(r.stdout));
        assert.equal(parsed.ok ? 'ok' : parsed.error.code, row.json);
      }
      for (const key of [GOOD_KEY, WRONG_KEY]) assert.ok(!r.stdout.includes(key) && !r.stderr.includes(key), 'the key is never printed');
    });
  }

  it('check --azure-api-version: the deployment in the path, the key in api-key, connected', async () => {
    const endpoint = `http://127.0.0.1:${(azure.address() as AddressInfo).port}`;
    const r = await runPlain(['check', '--base-url', endpoint, '--azure-api-version', '2024-10-21', '--model', 'my-deployment'], { OPENAI_API_KEY: GOOD_KEY });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Connected to http:\/\/127\.0\.0\.1:\d+ \(model my-deployment\) in \d+ ms\.$/m);
    assert.equal(azureSeen.length, 1);
    assert.equal(azureSeen[0]!.url, '/openai/deployments/my-deployment/chat/completions?api-version=2024-10-21');
    assert.equal(azureSeen[0]!.headers['api-key'], GOOD_KEY);
    assert.ok(!r.stdout.includes(GOOD_KEY) && !r.stderr.includes(GOOD_KEY));
  });
});
