import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { runCliProcess } from './cliProcess';

// Azure OpenAI from the CLI: the built bundle talks to a loopback "resource endpoint" that records what
// Azure checks (deployment in the path, api-version in the query, the key in `api-key`, no bearer token)
// and forwards the chat request to the fake OpenAI server for its streamed answer.

describe('stepwise run --azure-api-version (CLI) against an Azure-shaped endpoint', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer;
  let azure: http.Server;
  const seen: Array<{ url: string; headers: http.IncomingHttpHeaders }> = [];

  before(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-cli-azure-'));
    await writeFile(path.join(ws, 'README.md'), '# demo\n');
    fake = await startFakeOpenAI([{ toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'Hello from Azure.' }) }] }]);
    const upstream = new URL(fake.url);
    azure = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: '/v1/chat/completions', headers: { 'content-type': 'application/json' } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => azure.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    await new Promise<void>((resolve) => azure.close(() => resolve()));
    await fake.close();
    await rm(ws, { recursive: true, force: true });
  });

  it('sends the deployment in the path, api-version in the query and the key in api-key, and finishes', async () => {
    const endpoint = `http://127.0.0.1:${(azure.address() as AddressInfo).port}`;
    const r = await runCliProcess(
      ['run', 'Say hello.', '--workspace', ws, '--model', 'my-deployment', '--base-url', endpoint, '--azure-api-version', '2024-10-21', '--no-plan', '--json'],
      { OPENAI_API_KEY: 'azure-key-123' },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.ok(seen.length >= 1);
    for (const request of seen) {
      assert.equal(request.url, '/openai/deployments/my-deployment/chat/completions?api-version=2024-10-21');
      assert.equal(request.headers['api-key'], 'azure-key-123');
      assert.equal(request.headers.authorization, undefined, 'no bearer token goes to Azure');
    }
    assert.ok(!r.stdout.includes('azure-key-123') && !r.stderr.includes('azure-key-123'), 'the key is never printed');
  });

  it('refuses --azure-api-version without a key, before any request', async () => {
    const before = seen.length;
    const r = await runCliProcess(
      ['run', 'Say hello.', '--workspace', ws, '--model', 'd', '--base-url', `http://127.0.0.1:${(azure.address() as AddressInfo).port}`, '--azure-api-version', '2024-10-21'],
      { OPENAI_API_KEY: '', STEPWISE_API_KEY: '' },
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--azure-api-version needs the resource endpoint in --base-url and the key/);
    assert.equal(seen.length, before);
  });
});
