import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { call, finish, flowScript, requestText } from '../flow/flowFake';
import { runCliProcess } from './cliProcess';

// The prompt boundary through the built CLI (acceptance 4, prompt-side rows, and 6's rules file):
// a known key reaches the workspace through an @.env mention, AGENTS.md, an MCP tool result and
// resource (a real stdio MCP server) and a web page on loopback; the model even repeats it in its
// step summary and report. No request the model server recorded, no saved report, no history file
// and no `stepwise history export` holds it.

const MODEL_KEY = 'sk-test-boundary-MODELKEY-0123456789';
const REGISTERED = 'Reg1stered-Secret-Value-777';
const ENV_ONLY = 'envline-Only-Secret-5150';
const SECRETS = [MODEL_KEY, REGISTERED, ENV_ONLY];
const SDK = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/sdk/dist/cjs/server');

/** A tiny stdio MCP server whose tool result and resource quote a secrets file (read at call time). */
const LEAKY_SERVER = `
const { readFileSync } = require('node:fs');
const { McpServer } = require(${JSON.stringify(path.join(SDK, 'mcp.js'))});
const { StdioServerTransport } = require(${JSON.stringify(path.join(SDK, 'stdio.js'))});
const secrets = () => readFileSync(process.argv[2], 'utf8');
const server = new McpServer({ name: 'leaky', version: '1.0.0' });
server.tool('leak', 'Shows the service configuration', async () => ({ content: [{ type: 'text', text: 'config:\\n' + secrets() }] }));
server.registerResource('config', 'leaky://config', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'resource:\\n' + secrets() }] }));
server.connect(new StdioServerTransport());
`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('stepwise run: the prompt boundary (built CLI)', function () {
  this.timeout(120_000);
  let ws: string;
  let outside: string;
  let home: string;
  let fake: FakeOpenAIServer | undefined;
  let site: http.Server | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-boundary-'));
    outside = await mkdtemp(path.join(tmpdir(), 'stepwise-boundary-srv-'));
    home = await mkdtemp(path.join(tmpdir(), 'stepwise-boundary-home-'));
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    if (site) await new Promise<void>((resolve) => site!.close(() => resolve()));
    site = undefined;
    for (const dir of [ws, outside, home]) await rm(dir, { recursive: true, force: true });
  });

  it('a known key in a mention, a rules file, MCP content and a web page never reaches a request, the report, history or an export', async () => {
    await writeFile(path.join(ws, '.env'), `OPENAI_API_KEY=${MODEL_KEY}\nDATABASE_PASSWORD=${ENV_ONLY}\nACME_SERVICE_TOKEN=${REGISTERED}\nPORT=8080\n`);
    await writeFile(path.join(ws, 'AGENTS.md'), `Deploy with ${MODEL_KEY}; the service token is ${REGISTERED}.\nDATABASE_PASSWORD=${ENV_ONLY}\nRULES-MARKER\n`);
    await writeFile(path.join(outside, 'secrets.txt'), `OPENAI_API_KEY=${MODEL_KEY}\nDATABASE_PASSWORD=${ENV_ONLY}\ntoken ${REGISTERED}\nMCP-MARKER\n`);
    await writeFile(path.join(outside, 'leaky.cjs'), LEAKY_SERVER);
    await writeFile(path.join(outside, 'mcp.json'), JSON.stringify({ mcpServers: { leaky: { command: process.execPath, args: [path.join(outside, 'leaky.cjs'), path.join(outside, 'secrets.txt')] } } }));
    site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<html><head><title>Config ${REGISTERED}</title></head><body><article><h1>Settings</h1><p>WEB-MARKER key ${MODEL_KEY} and token ${REGISTERED} for the service, as documented here in full detail.</p></article></body></html>`));
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
    const page = `http://127.0.0.1:${(site.address() as AddressInfo).port}/config`;

    fake = await startFakeOpenAI(flowScript({
      planner: [call('create_plan', { goal: 'Collect the configuration', thought: 'one step', steps: [{ title: 'Collect', description: 'Gather the configuration.', role: 'coder' }] })],
      'step:Collect': [
        call('leaky__leak', {}),
        call('mcp_resources', { action: 'read', server: 'leaky', uri: 'leaky://config' }),
        call('web_fetch', { url: page }),
        // A model that repeats what it saw: its own words go through the same redaction.
        finish(`Collected; the key is ${MODEL_KEY}.`),
      ],
      updater: () => call('keep_plan', {}),
      report: [call('write_report', { summary: `Configuration uses ${REGISTERED}.`, findings: [`DATABASE_PASSWORD=${ENV_ONLY}`], verification: 'Read back.', left: [] })],
    }));
    const env = { OPENAI_API_KEY: MODEL_KEY, ACME_SERVICE_TOKEN: REGISTERED, STEPWISE_HOME: home };
    const r = await runCliProcess(['run', 'Check the configuration in @.env and on its web page', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--plan', '--json',
      '--mcp-config', path.join(outside, 'mcp.json'), '--auto-approve', 'read,mcp,web', '--web-allow-host', '127.0.0.1'], env);
    assert.equal(r.code, 0, r.stderr);

    // Every path did carry its content to the model, redacted.
    const chats = fake.chatRequests();
    const all = chats.map((request) => requestText(request)).join('\n');
    for (const marker of ['OPENAI_API_KEY=[redacted]', 'RULES-MARKER', 'MCP-MARKER', 'WEB-MARKER', 'leaky://config']) assert.ok(all.includes(marker), `${marker} reached the model`);
    // Not in any request body (the Authorization header carries the model key by design).
    for (const request of fake.requests) {
      const body = JSON.stringify(request.body ?? '');
      for (const secret of SECRETS) assert.ok(!body.includes(secret), `${secret} in a request to ${request.path}`);
    }
    // Not in the saved report.
    const report = r.events.find((e) => e.type === 'report');
    assert.ok(report && report.type === 'report' && report.path);
    const markdown = readFileSync(path.join(ws, report.path), 'utf8');
    assert.match(markdown, /Configuration uses \[redacted\]/);
    for (const secret of SECRETS) assert.ok(!markdown.includes(secret), `${secret} in the report`);
    // Not in the events, the history files or an export.
    for (const secret of SECRETS) assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), `${secret} in the CLI output`);
    const historyFiles = filesUnder(home);
    assert.ok(historyFiles.length > 0);
    for (const file of historyFiles) {
      const text = readFileSync(file, 'latin1');
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} in ${path.relative(home, file)}`);
    }
    const taskId = r.envelopes[0]!.runId;
    for (const format of ['markdown', 'json']) {
      const out = path.join(outside, `export.${format}`);
      const exported = await runCliProcess(['history', 'export', taskId, '--format', format, '--out', out], { STEPWISE_HOME: home });
      assert.equal(exported.code, 0, exported.stderr);
      const text = readFileSync(out, 'utf8');
      assert.ok(text.includes('Collect'), 'the export has the task');
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} in the ${format} export`);
    }
  });

  it('a sparse 1.5 GB AGENTS.md is cut at the rules cap and the task runs', async () => {
    const rules = path.join(ws, 'AGENTS.md');
    await writeFile(rules, 'SPARSE-RULES-START: keep answers short.\n');
    await truncate(rules, 1500 * 1024 * 1024);
    fake = await startFakeOpenAI([{ toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'ran' }) }] }]);
    const r = await runCliProcess(['run', 'Say hello', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json'], { STEPWISE_HOME: home });
    assert.equal(r.code, 0, r.stderr);
    const system = String(fake.chatRequests()[0]?.body?.messages?.[0]?.content ?? '');
    assert.match(system, /SPARSE-RULES-START: keep answers short\./);
    assert.match(system, /cut to fit the rules budget \(the file has 1572864000 bytes; only its start was read\)/);
    assert.ok(system.length < 200_000, `the system prompt is ${system.length} characters`);
  });
});
