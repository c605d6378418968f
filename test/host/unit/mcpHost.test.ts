import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createToolContext } from '../../../src/agent/loop/toolContext';
import { silentLogger } from '../../../src/agent/ports';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { McpHost } from '../../../src/host/common/mcp/mcpHost';
import type { McpServerState, SamplingRequest } from '../../../src/mcp';
import { isRunning } from '../../support/processes';
import { recordingApprover, scriptedAsker, stubCommandRunner, stubWorkspace } from '../../support/stubPorts';

const EVERYTHING = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

async function until<T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('McpHost (real server-everything over stdio, plain Node)', function () {
  this.timeout(60_000);
  let folder: string;
  let trusted = true;
  let reported: McpServerState[] = [];
  let reportCount = 0;
  const samplingRequests: SamplingRequest[] = [];
  const registry = new ToolRegistry();
  let host: McpHost;

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'stepwise-mcphost-'));
    host = new McpHost(
      registry,
      silentLogger,
      () => ({ trusted, folder, settings: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } } }),
      (servers) => {
        reported = servers;
        reportCount++;
      },
      {
        sampling: async (request) => {
          samplingRequests.push(request);
          return { approved: true, text: 'sampled by the host', model: 'host-model' };
        },
      },
    );
    // Before `start` (no view shown, no task) nothing connects and nothing is even read.
    await host.refresh();
    assert.deepEqual(host.states(), []);
    assert.equal(reportCount, 0, 'no state reported before start');
    await host.start();
  });

  after(async () => {
    const pids = host.states().flatMap((state) => (state.pid ? [state.pid] : []));
    await host.stop();
    for (const pid of pids) if (isRunning(pid)) process.kill(pid);
    await rm(folder, { recursive: true, force: true });
  });

  it('connects the configured server and reports its state', () => {
    const [state] = host.states();
    assert.equal(state?.name, 'everything');
    assert.equal(state?.status, 'connected');
    assert.ok(state?.pid && isRunning(state.pid), 'the stdio server runs');
    assert.deepEqual(reported.map((s) => [s.name, s.status]), [['everything', 'connected']]);
  });

  it('lists the prompts of connected servers and renders one with its arguments', async () => {
    const prompts = await host.listPrompts();
    const args = prompts.find((prompt) => prompt.name === 'args-prompt');
    assert.equal(args?.server, 'everything');
    assert.deepEqual(args?.arguments.map((a) => [a.name, a.required]), [['city', true], ['state', false]]);
    const rendered = await host.getPrompt('everything', 'args-prompt', { city: 'Paris', state: 'Texas' });
    assert.deepEqual(rendered.messages, [{ role: 'user', text: "What's weather in Paris, Texas?" }]);
  });

  it('declares sampling, so the server offers its sampling tool, and answers through the given handler', async () => {
    await until('the sampling tool', () => registry.get('everything__trigger-sampling-request'));
    const ports = { workspace: stubWorkspace(folder), commands: stubCommandRunner(), approver: recordingApprover(), asker: scriptedAsker(), logger: silentLogger, signal: new AbortController().signal, emit: () => {} };
    const result = await registry.execute('everything__trigger-sampling-request', { prompt: 'say hi', maxTokens: 20 }, createToolContext(ports, 'call-1', 'everything__trigger-sampling-request'));
    assert.equal(result.isError ?? false, false, result.content);
    assert.match(result.content, /sampled by the host/);
    assert.equal(samplingRequests.length, 1);
    assert.equal(samplingRequests[0]?.server, 'everything');
    assert.match(samplingRequests[0]?.messages[0]?.text ?? '', /say hi/);
  });

  it('restarts a server as a new process', async () => {
    const before = host.states()[0]!.pid!;
    await host.restart('everything');
    const after = host.states()[0];
    assert.equal(after?.status, 'connected');
    assert.ok(after?.pid && after.pid !== before, 'a new process');
    await until('the old process to end', () => !isRunning(before));
  });

  it('stops every server when the workspace is not trusted, and offers no prompts', async () => {
    const pid = host.states()[0]!.pid!;
    trusted = false;
    await host.refresh();
    assert.deepEqual(host.states(), []);
    assert.deepEqual(reported, []);
    assert.equal(registry.get('everything__echo'), undefined, 'its tools left the registry');
    assert.deepEqual(await host.listPrompts(), []);
    await assert.rejects(host.getPrompt('everything', 'simple-prompt', {}), /not running/);
    await until('the server process to end', () => !isRunning(pid));
  });
});
