import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { call, finish, flowScript, requestsOf } from '../flow/flowFake';
import { CLI_PATH, TEST_STEPWISE_HOME } from './cliProcess';

// Acceptance item 2 of issue 27: a real MCP client (the official SDK's client side) starts the
// built `stepwise mcp`, lists its tools and runs a task that edits the folder.

type TextContent = { type: string; text?: string };

function resultText(result: object): string {
  return (((result as { content?: unknown }).content ?? []) as TextContent[]).map((c) => c.text ?? '').join('\n');
}

describe('stepwise mcp (built CLI) driven by the official MCP client', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  let client: Client | undefined;
  let pid: number | null | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-mcp-server-'));
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    // The server ends when its stdin closes; make sure by its pid.
    if (pid) try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    pid = undefined;
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function connect(serverArgs: string[]): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp', '--model', 'fake-model', '--base-url', fake!.url, ...serverArgs],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_API_KEY: 'sk-test-key', STEPWISE_HOME: TEST_STEPWISE_HOME, NO_COLOR: '1' },
      stderr: 'pipe',
    });
    client = new Client({ name: 'stepwise-test', version: '1.0.0' });
    await client.connect(transport);
    pid = transport.pid;
    return client;
  }

  it('lists run_task and runs a task that edits the folder, with progress and the final summary', async () => {
    fake = await startFakeOpenAI(flowScript({ direct: [call('write_file', { path: 'hello.txt', content: 'hello from mcp\n' }), finish('Wrote hello.txt.')] }));
    const mcp = await connect(['--auto-approve', 'read,edit']);
    const tools = await mcp.listTools();
    const tool = tools.tools.find((t) => t.name === 'run_task');
    assert.ok(tool, tools.tools.map((t) => t.name).join(', '));
    assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), ['autoApprove', 'folder', 'plan', 'task']);
    const progress: string[] = [];
    const result = await mcp.callTool({ name: 'run_task', arguments: { task: 'Write hello.txt', folder: ws, plan: 'never' } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ''),
      timeout: 50_000,
    });
    const text = resultText(result);
    assert.equal(result.isError, false, text);
    assert.match(text, /Outcome: finished/);
    assert.match(text, /Wrote hello\.txt\./);
    assert.match(text, /Task id: [0-9a-f-]{36}/);
    assert.equal(await readFile(path.join(ws, 'hello.txt'), 'utf8'), 'hello from mcp\n');
    assert.ok(progress.some((m) => m === 'Tool: write_file'), progress.join(' | '));
    // The task ran through the CLI's own run: the model saw the CLI's direct agent and its tools.
    assert.equal(requestsOf(fake.requests, 'direct').length, 2);
  });

  it('lists the stored task and its checkpoints, and restores the folder to before the edit', async () => {
    fake = await startFakeOpenAI(flowScript({ direct: [call('write_file', { path: 'hello.txt', content: 'hello\n' }), finish('Wrote hello.txt.')] }));
    const mcp = await connect(['--auto-approve', 'read,edit']);
    assert.deepEqual((await mcp.listTools()).tools.map((t) => t.name).sort(), ['list_checkpoints', 'list_tasks', 'restore_task', 'run_task']);
    const ran = resultText(await mcp.callTool({ name: 'run_task', arguments: { task: 'Write hello.txt for the restore test', folder: ws, plan: 'never' } }));
    const taskId = /Task id: (\S+)/.exec(ran)![1]!;
    const listed = resultText(await mcp.callTool({ name: 'list_tasks', arguments: { words: 'restore test' } }));
    assert.ok(listed.split('\n').some((line) => (JSON.parse(line) as { runId: string }).runId === taskId), listed);
    const checkpoints = await mcp.callTool({ name: 'list_checkpoints', arguments: { taskId, folder: ws } });
    assert.equal(checkpoints.isError, false, resultText(checkpoints));
    const list = JSON.parse(resultText(checkpoints)) as { id: string }[];
    assert.ok(list.length >= 1, resultText(checkpoints));
    const restored = await mcp.callTool({ name: 'restore_task', arguments: { taskId, folder: ws, checkpoint: list[0]!.id, part: 'files' } });
    assert.equal(restored.isError, false, resultText(restored));
    assert.equal(await stat(path.join(ws, 'hello.txt')).catch(() => undefined), undefined, 'the edit was undone');
    const unknown = await mcp.callTool({ name: 'restore_task', arguments: { taskId: 'no-such-task', folder: ws, checkpoint: 'x' } });
    assert.equal(unknown.isError, true);
  });

  it('auto-approves no more than the server was started with: an edit asked for is denied', async () => {
    fake = await startFakeOpenAI(flowScript({ direct: [call('write_file', { path: 'hello.txt', content: 'x\n' }), finish('Could not write.')] }));
    const mcp = await connect(['--auto-approve', 'read']);
    const result = await mcp.callTool({ name: 'run_task', arguments: { task: 'Write hello.txt', folder: ws, plan: 'never', autoApprove: ['read', 'edit'] } }, undefined, { timeout: 50_000 });
    assert.match(resultText(result), /Outcome: /);
    assert.equal(await stat(path.join(ws, 'hello.txt')).catch(() => undefined), undefined, 'the edit must not land');
    const denied = requestsOf(fake.requests, 'direct')[1]!.body!.messages!.find((m) => m.role === 'tool');
    assert.match(String(denied?.content), /denied/);
  });

  it("a client's cancellation stops the running task (it is stored as cancelled) and the next task runs", async () => {
    const hang = { text: 'Thinking slowly', chunkChars: 3, hangAfterChunks: 3, hangMs: 30_000 };
    let n = 0;
    fake = await startFakeOpenAI(() => (n++ === 0 ? hang : finish('Second done.')));
    const mcp = await connect(['--auto-approve', 'read']);
    const controller = new AbortController();
    const first = mcp.callTool({ name: 'run_task', arguments: { task: 'The cancelled one', folder: ws, plan: 'never' } }, undefined, { signal: controller.signal });
    while (fake.requests.length < 1) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    await assert.rejects(first);
    // Tasks run one at a time: the second starts once the cancelled one has ended.
    const second = await mcp.callTool({ name: 'run_task', arguments: { task: 'The second one', folder: ws, plan: 'never' } }, undefined, { timeout: 50_000 });
    assert.match(resultText(second), /Outcome: finished/);
    const listed = resultText(await mcp.callTool({ name: 'list_tasks', arguments: { words: 'cancelled one' } }));
    const entry = listed.split('\n').map((line) => JSON.parse(line) as { task: string; outcome?: string }).find((e) => e.task.includes('The cancelled one'));
    assert.equal(entry?.outcome, 'cancelled', listed);
  });

  it('answers a task in a folder that does not exist with an error result, and keeps serving', async () => {
    fake = await startFakeOpenAI(flowScript({ direct: [finish('Nothing to do.')] }));
    const mcp = await connect([]);
    const bad = await mcp.callTool({ name: 'run_task', arguments: { task: 'x', folder: path.join(ws, 'missing') } });
    assert.equal(bad.isError, true);
    assert.match(resultText(bad), /did not start: .*not a folder/);
    const good = await mcp.callTool({ name: 'run_task', arguments: { task: 'Say done', folder: ws, plan: 'never' } });
    assert.match(resultText(good), /Outcome: finished/);
  });
});
