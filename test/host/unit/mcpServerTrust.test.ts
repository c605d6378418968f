import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../../src/agent/ports';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { McpHost } from '../../../src/host/common/mcp/mcpHost';
import { describeServer, partitionByTrust, serverFingerprint, type McpServerTrust, type WorkspaceServer } from '../../../src/host/common/mcp/mcpServerTrust';
import { MCP_USER_SETTINGS_SOURCE, type McpServerConfig } from '../../../src/mcp';
import { isRunning } from '../../support/processes';

const EVERYTHING = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const stdio = (name: string, source: string, extra: Partial<McpServerConfig> = {}): McpServerConfig =>
  ({ kind: 'stdio', name, source, enabled: true, autoApprove: [], command: 'node', args: ['server.js'], env: {}, ...extra }) as McpServerConfig;

async function until<T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('workspace MCP server trust (pure parts)', () => {
  it('lets the user\'s servers start and holds every workspace server until trusted', () => {
    const mine = stdio('mine', MCP_USER_SETTINGS_SOURCE);
    const file = stdio('file', '.vscode/mcp.json');
    const own = stdio('own', '.stepwise/mcp.json');
    const setting = stdio('setting', 'workspace settings (stepwise.mcpServers)');
    const trusted = new Set([serverFingerprint(own)]);
    const trust: McpServerTrust = { isTrusted: (f) => trusted.has(f), onWaiting: () => {} };
    const { allowed, waiting } = partitionByTrust([mine, file, own, setting], trust);
    assert.deepEqual(allowed.map((s) => s.name), ['mine', 'own']);
    assert.deepEqual(waiting.map((s) => [s.name, s.source]), [['file', '.vscode/mcp.json'], ['setting', 'workspace settings (stepwise.mcpServers)']]);
    assert.deepEqual(partitionByTrust([mine, file], undefined).allowed.map((s) => s.name), ['mine'], 'no trust store: no workspace server');
  });

  it('fingerprints what runs: a changed command, argument, env, cwd, URL, header or auto-approval is a new server', () => {
    const base = stdio('x', '.stepwise/mcp.json');
    const f = serverFingerprint(base);
    assert.equal(serverFingerprint(stdio('x', '.stepwise/mcp.json')), f, 'stable');
    assert.equal(serverFingerprint({ ...base, timeoutMs: 5000, enabled: false }), f, 'timeouts and on/off are not part of it');
    const variants: Array<Partial<McpServerConfig>> = [
      { command: '/bin/sh' },
      { args: ['-c', 'touch /tmp/x'] },
      { env: { NODE_OPTIONS: '--require evil.js' } },
      { cwd: '/tmp' },
      { autoApprove: true },
      { name: 'y' },
      { source: '.vscode/mcp.json' },
    ];
    for (const change of variants) assert.notEqual(serverFingerprint({ ...base, ...change } as McpServerConfig), f, JSON.stringify(change));
    const http = { kind: 'http', name: 'h', source: '.vscode/mcp.json', enabled: true, autoApprove: [], url: 'https://a.example/mcp', headers: {}, transport: 'auto' } as McpServerConfig;
    assert.notEqual(serverFingerprint({ ...http, url: 'https://b.example/mcp' } as McpServerConfig), serverFingerprint(http));
    assert.notEqual(serverFingerprint({ ...http, headers: { Authorization: 'x' } } as McpServerConfig), serverFingerprint(http));
    assert.doesNotMatch(serverFingerprint({ ...base, env: { TOKEN: 'sk-secret' } } as McpServerConfig), /sk-secret/, 'only a hash is kept');
  });

  it('describes what a server runs the way a shell would read it', () => {
    assert.equal(describeServer(stdio('x', 's', { args: ['-c', "echo 'hi'; touch x"] })), `node -c 'echo '\\''hi'\\''; touch x'`);
    assert.equal(describeServer(stdio('x', 's', { command: '/usr/bin/node', args: ['srv.js', '--port=3'] })), '/usr/bin/node srv.js --port=3');
  });
});

describe('McpHost with a workspace server (real server-everything over stdio, plain Node)', function () {
  this.timeout(60_000);
  let folder: string;
  const trusted = new Set<string>();
  const waited: WorkspaceServer[][] = [];
  const registry = new ToolRegistry();
  let host: McpHost;

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'stepwise-mcptrust-'));
    await mkdir(path.join(folder, '.stepwise'));
    await writeFile(path.join(folder, '.stepwise', 'mcp.json'), JSON.stringify({ mcpServers: { repo: { command: 'node', args: [EVERYTHING, 'stdio'] } } }));
    const serverTrust: McpServerTrust = { isTrusted: (f) => trusted.has(f), onWaiting: (servers) => void waited.push(servers) };
    host = new McpHost(
      registry,
      silentLogger,
      () => ({ trusted: true, folder, settings: { mine: { command: 'node', args: [EVERYTHING, 'stdio'] } }, serverTrust }),
      () => {},
    );
  });

  after(async () => {
    const pids = host.states().flatMap((state) => (state.pid ? [state.pid] : []));
    await host.stop();
    for (const pid of pids) if (isRunning(pid)) process.kill(pid);
    await rm(folder, { recursive: true, force: true });
  });

  it('starts the user\'s server, and the workspace\'s only once it is trusted', async () => {
    await host.start();
    await until('the user server', () => registry.get('mine__echo'));
    assert.deepEqual(host.states().map((s) => s.name), ['mine'], 'the workspace server does not start');
    assert.equal(registry.get('repo__echo'), undefined);
    const [waiting] = waited.at(-1)!;
    assert.equal(waiting?.name, 'repo');
    assert.equal(waiting?.source, '.stepwise/mcp.json');
    assert.match(waiting?.description ?? '', /^node .*server-everything.*index\.js stdio$/);
    assert.deepEqual(host.workspaceServers().map((s) => s.name), ['repo']);

    trusted.add(waiting!.fingerprint);
    await host.refresh();
    await until('the trusted workspace server', () => registry.get('repo__echo'));
    assert.deepEqual(waited.at(-1), [], 'nothing waits any more');

    const pid = host.states().find((s) => s.name === 'repo')!.pid!;
    trusted.clear();
    await host.refresh();
    assert.equal(registry.get('repo__echo'), undefined, 'revoked: its tools leave');
    await until('the revoked server to end', () => !isRunning(pid));
    assert.ok(registry.get('mine__echo'), 'the user server keeps running');
  });
});
