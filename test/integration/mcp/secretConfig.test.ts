import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { silentLogger } from '../../../src/agent/ports';
import { Redactor } from '../../../src/agent/secrets/redactor';
import type { EnvironmentRules } from '../../../src/agent/secrets/secretEnv';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { connectCliMcp } from '../../../src/cli/cliMcp';
import { McpHost } from '../../../src/host/common/mcp/mcpHost';
import type { McpHub, McpServerState } from '../../../src/mcp';
import { ScriptedModel } from '../../support/scriptedModel';
import { recordingApprover, scriptedAsker } from '../../support/stubPorts';
import { startEverythingHttp, type HttpServerProcess } from './httpServers';
import { EVERYTHING_SCRIPT, livePidsWith, tempDir } from './mcpKit';

// A known key in the parent's environment, as a user's shell has it.
const KEY = `sk-stepwise-known-${randomBytes(12).toString('hex')}`;
const parentEnv = { ...process.env, OPENAI_API_KEY: KEY, PLAIN_REGION: 'eu-test' };
const redactor = new Redactor();
redactor.add(KEY);
const rules = (passThrough: string[] = []): EnvironmentRules => ({ passThrough, isSecretValue: (value) => redactor.contains(value) });

/** What a process received: its environment and its command line, from /proc. */
async function received(pid: number): Promise<{ environ: string; argv: string }> {
  return { environ: await readFile(`/proc/${pid}/environ`, 'utf8'), argv: await readFile(`/proc/${pid}/cmdline`, 'utf8') };
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A loopback proxy in front of server-everything's Streamable HTTP endpoint that records every request's URL and headers. */
async function recordingProxy(target: string): Promise<{ origin: string; seen: { url: string; headers: IncomingHttpHeaders }[]; close: () => Promise<void> }> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    // A proxy does not forward hop-by-hop headers (RFC 9110 7.6.1): the client's `connection: close` is its own.
    const { connection: _c, 'keep-alive': _k, 'proxy-connection': _p, ...headers } = req.headers;
    const upstream = httpRequest(`${target}${req.url ?? ''}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

describe('MCP configuration with a known key in the parent environment (real server-everything, stdio and Streamable HTTP)', function () {
  this.timeout(60_000);

  /**
   * Connects a CLI `--mcp-config` file and collects its warnings: outside the workspace it is the
   * user's own configuration, inside it (`inWorkspace`) the repository's.
   */
  async function cli(servers: Record<string, unknown>, dir: string, inWorkspace = false): Promise<{ hub: McpHub; warnings: string[] }> {
    const workspaceRoot = join(dir, 'workspace');
    await mkdir(workspaceRoot, { recursive: true });
    const configPath = join(inWorkspace ? workspaceRoot : dir, `mcp-${randomBytes(4).toString('hex')}.json`);
    await writeFile(configPath, JSON.stringify({ mcpServers: servers }));
    const warnings: string[] = [];
    const hub = await connectCliMcp({
      configPath, workspaceRoot, env: parentEnv, registry: new ToolRegistry(), model: new ScriptedModel([]), approver: recordingApprover(),
      emit: () => {}, asker: scriptedAsker(), logger: silentLogger, warn: (text) => void warnings.push(text), environment: rules(),
    });
    return { hub, warnings };
  }

  describe('Streamable HTTP: a header or URL that would carry the key is refused; the server is never reached', () => {
    let everything: HttpServerProcess;
    let proxy: Awaited<ReturnType<typeof recordingProxy>>;
    let dir: Awaited<ReturnType<typeof tempDir>>;
    before(async () => {
      everything = await startEverythingHttp('streamableHttp');
      proxy = await recordingProxy(everything.origin);
      dir = await tempDir('stepwise-mcp-secret-http-');
    });
    after(async () => {
      await proxy?.close();
      await everything?.stop();
      await dir?.remove();
    });

    it('refuses the header and the URL query by name, connects the plain one, and no request holds the key', async () => {
      const { hub, warnings } = await cli({
        header: { type: 'http', url: `${proxy.origin}/mcp?srv=header`, headers: { Authorization: 'Bearer ${env:OPENAI_API_KEY}' } },
        query: { type: 'http', url: `${proxy.origin}/mcp?srv=query&key=\${env:OPENAI_API_KEY}` },
        plain: { type: 'http', url: `${proxy.origin}/mcp?srv=plain`, headers: { 'X-Region': '${env:PLAIN_REGION}' } },
      }, dir.path);
      try {
        assert.equal(hub.state('plain')?.status, 'connected', JSON.stringify(hub.state('plain')));
        assert.deepEqual(hub.states().map((s) => s.name), ['plain'], 'refused servers were never started');
        const text = warnings.join('');
        assert.match(text, /server "header": refused "headers\.Authorization": it would carry the secret variable \$\{env:OPENAI_API_KEY\}.*The server was not started\./);
        assert.match(text, /server "query": refused "url": it would carry the secret variable \$\{env:OPENAI_API_KEY\}/);
        assert.ok(!text.includes(KEY), 'the warnings never show the key');
        assert.ok(proxy.seen.length > 0, 'the recorder saw the plain server');
        assert.ok(proxy.seen.every((r) => r.url.includes('srv=plain')), `only the plain server was reached: ${proxy.seen.map((r) => r.url).join(', ')}`);
        assert.ok(proxy.seen.some((r) => r.headers['x-region'] === 'eu-test'), 'a plain variable is expanded into a header');
        assert.ok(!JSON.stringify(proxy.seen).includes(KEY), 'no URL or header the server received holds the key');
      } finally {
        await hub.dispose();
      }
    });
  });

  describe('stdio: an argument is refused; env only when the user passes it', () => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    before(async () => void (dir = await tempDir('stepwise-mcp-secret-stdio-')));
    after(() => dir?.remove());

    it("the user's config (--mcp-config): the argument is refused and never started; env passes the key only where written", async () => {
      const marker = `marker-${randomBytes(6).toString('hex')}`;
      const { hub, warnings } = await cli({
        arg: { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio', marker, '--key=${env:OPENAI_API_KEY}'] },
        passed: { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'], env: { OPENAI_API_KEY: '${env:OPENAI_API_KEY}' } },
        plain: { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'], env: { REGION: '${env:PLAIN_REGION}' } },
      }, dir.path);
      try {
        assert.match(warnings.join(''), /server "arg": refused "args\[3\]": it would carry the secret variable \$\{env:OPENAI_API_KEY\}/);
        assert.deepEqual(livePidsWith(marker), [], 'the refused server was not started');
        assert.deepEqual(hub.states().map((s) => s.name).sort(), ['passed', 'plain']);
        const passed = await received(hub.state('passed')!.pid!);
        assert.ok(passed.environ.split('\0').includes(`OPENAI_API_KEY=${KEY}`), 'the user passed the key explicitly through env');
        const plain = await received(hub.state('plain')!.pid!);
        assert.ok(plain.environ.split('\0').includes('REGION=eu-test'));
        assert.ok(!plain.environ.includes(KEY) && !plain.argv.includes(KEY), 'the parent has the key; a server not given it never sees it');
        assert.ok(!passed.argv.includes(KEY));
      } finally {
        await hub.dispose();
      }
    });

    it('the CLI with --mcp-config inside the workspace: the env entry is withheld (said so), the server starts without the key', async () => {
      const { hub, warnings } = await cli({ repo: { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'], env: { LEAK: '${env:OPENAI_API_KEY}', KEPT: 'yes' } } }, dir.path, true);
      try {
        assert.match(warnings.join(''), /server "repo": "env\.LEAK" left out: a workspace's MCP configuration may not pass the secret variable \$\{env:OPENAI_API_KEY\}/);
        const seen = await received(hub.state('repo')!.pid!);
        assert.ok(seen.environ.split('\0').includes('KEPT=yes'));
        assert.ok(!seen.environ.includes(KEY) && !seen.environ.includes('LEAK='), 'withheld, not just redacted');
      } finally {
        await hub.dispose();
      }
    });

    it("a workspace's mcp.json (VS Code's McpHost): env with the key is withheld unless the user passes the name through", async () => {
      const folder = join(dir.path, 'ws');
      await mkdir(join(folder, '.vscode'), { recursive: true });
      await writeFile(join(folder, '.vscode', 'mcp.json'), JSON.stringify({ servers: {
        wsKey: { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'], env: { OPENAI_API_KEY: '${env:OPENAI_API_KEY}' } },
        wsPlain: { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'], env: { LEVEL: '3' } },
      } }));
      const saved = process.env.OPENAI_API_KEY;
      process.env.OPENAI_API_KEY = KEY;
      const run = async (passThrough: string[]): Promise<Record<string, McpServerState>> => {
        const host = new McpHost(new ToolRegistry(), silentLogger, () => ({
          trusted: true, folder, settings: {}, environment: rules(passThrough), serverTrust: { isTrusted: () => true, onWaiting: () => {} },
        }), () => {});
        try {
          await host.start();
          await until('the servers to settle', () => (host.states().every((s) => s.status !== 'connecting') ? true : undefined));
          const states = Object.fromEntries(host.states().map((s) => [s.name, s]));
          for (const state of Object.values(states)) {
            if (state.pid === undefined) continue;
            const seen = await received(state.pid);
            Object.assign(state, { environ: seen.environ });
          }
          return states;
        } finally {
          await host.stop();
        }
      };
      try {
        const workspaceOnly = await run([]);
        assert.equal(workspaceOnly.wsKey?.status, 'connected', 'started without the withheld entry');
        assert.ok(!(workspaceOnly.wsKey as unknown as { environ: string }).environ.includes(KEY), 'the key was withheld');
        assert.equal(workspaceOnly.wsPlain?.status, 'connected');
        assert.ok(!(workspaceOnly.wsPlain as unknown as { environ: string }).environ.includes(KEY), 'the workspace server never sees the key');
        const passedThrough = await run(['OPENAI_API_KEY']);
        assert.equal(passedThrough.wsKey?.status, 'connected');
        assert.ok((passedThrough.wsKey as unknown as { environ: string }).environ.split('\0').includes(`OPENAI_API_KEY=${KEY}`), "the user's envPassThrough lets it through");
      } finally {
        if (saved === undefined) delete process.env.OPENAI_API_KEY;
        else process.env.OPENAI_API_KEY = saved;
      }
    });
  });
});
