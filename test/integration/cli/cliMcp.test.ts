import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { runCliProcess } from './cliProcess';

const EVERYTHING = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe('stepwise run --mcp-config (real server-everything over stdio)', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-cli-mcp-'));
    await writeFile(
      path.join(ws, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
          broken: { args: ['no command and no url'] },
        },
      }),
    );
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  const script = () => [
    { toolCalls: [{ name: 'everything__get-sum', arguments: JSON.stringify({ a: 2, b: 40 }) }] },
    { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'summed' }) }] },
  ];

  it('offers the server tools namespaced, calls them when mcp is auto-approved, and reports the broken entry', async () => {
    fake = await startFakeOpenAI(script());
    const r = await runCliProcess(['run', 'add 2 and 40', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json',
      '--mcp-config', path.join(ws, 'mcp.json'), '--auto-approve', 'read,mcp']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /server "broken"/);
    const offered = (fake.requests[0]!.body!.tools ?? []).map((t) => t.function.name);
    assert.ok(offered.includes('everything__echo') && offered.includes('everything__get-sum'), offered.join(', '));
    assert.ok(offered.includes('read_file'), 'built-ins stay');
    const result = r.events.find((e) => e.type === 'tool_result' && e.name === 'everything__get-sum');
    assert.ok(result && result.type === 'tool_result' && !result.isError);
    assert.match(result.content, /42/);
  });

  it('denies MCP calls without a TTY unless mcp is auto-approved', async () => {
    fake = await startFakeOpenAI(script());
    const r = await runCliProcess(['run', 'add 2 and 40', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json',
      '--mcp-config', path.join(ws, 'mcp.json')]);
    assert.equal(r.code, 0, r.stderr);
    const result = r.events.find((e) => e.type === 'tool_result' && e.name === 'everything__get-sum');
    assert.ok(result && result.type === 'tool_result' && result.isError);
    assert.match(result.content, /--auto-approve mcp/);
  });

  it('exits 2 when the config file cannot be read', async () => {
    const r = await runCliProcess(['run', 'x', '--workspace', ws, '--model', 'm', '--base-url', 'http://127.0.0.1:9', '--mcp-config', path.join(ws, 'missing.json')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read/);
  });
});
