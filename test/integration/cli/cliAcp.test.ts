import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeScript, type FakeTurn } from '../../support/fakeOpenAIServer';
import { call, finish, flowScript } from '../flow/flowFake';
import { CLI_PATH, TEST_STEPWISE_HOME } from './cliProcess';

// Acceptance item 3 of issue 27: a real ACP client (the SDK's client side) drives a planned task
// through the built `stepwise acp` on stdio: plan entries arrive, a permission request is answered,
// the edit lands, the prompt ends `end_turn`; `session/cancel` stops a running task.

const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_API_KEY: 'sk-test-key', STEPWISE_HOME: TEST_STEPWISE_HOME, NO_COLOR: '1' };
const ONE_STEP = { goal: 'A note', thought: 'One step.', steps: [{ title: 'Write the note', description: 'Write note.md.', role: 'coder' }] };
const REPORT = call('write_report', { summary: 'The note is written.', findings: [], verification: '', left: [] });

/** Answers in order, whatever the conversation holds. */
function seq(...turns: FakeTurn[]): () => FakeTurn {
  let n = 0;
  return () => turns[Math.min(n++, turns.length - 1)]!;
}

/** What the client saw: every update, every permission request; `answer` picks the option. */
interface Seen {
  updates: acp.SessionUpdate[];
  permissions: acp.RequestPermissionRequest[];
}

describe('stepwise acp (built CLI) driven by the ACP SDK client', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-acp-'));
  });
  /** Ends the agent process by its pid (SIGTERM) and waits for it. */
  async function stopChild(): Promise<void> {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('close', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    child = undefined;
  }

  afterEach(async () => {
    await stopChild();
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  /** Starts the agent and runs `op` with a connected client; the client's handlers record what they see. */
  async function withAgent<T>(script: FakeScript, args: string[], answer: (r: acp.RequestPermissionRequest) => string, op: (cx: acp.ClientContext, seen: Seen) => Promise<T>): Promise<T> {
    await stopChild();
    fake ??= await startFakeOpenAI(script);
    child = spawn(process.execPath, [CLI_PATH, 'acp', '--model', 'fake-model', '--base-url', fake.url, ...args], { stdio: ['pipe', 'pipe', 'inherit'], env: ENV });
    const seen: Seen = { updates: [], permissions: [] };
    const app = acp.client({ name: 'stepwise-test' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        seen.updates.push(params.update);
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        seen.permissions.push(params);
        const optionId = answer(params);
        // 'never': a client that does not answer (the person walked away).
        if (optionId === 'never') return new Promise<acp.RequestPermissionResponse>(() => undefined);
        return { outcome: { outcome: 'selected', optionId } };
      });
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
    return app.connectWith(stream, (cx) => op(cx, seen));
  }

  it('runs a planned task: plan entries, a permission answered, the edit lands, end_turn', async () => {
    const script = flowScript({
      planner: [call('create_plan', ONE_STEP)],
      'step:Write the note': seq(call('write_file', { path: 'note.md', content: '# Note\n' }, 'Writing the note.'), finish('Wrote note.md.')),
      updater: seq(call('keep_plan', {})),
      report: seq(REPORT),
    });
    const { response, seen, sessionId } = await withAgent(script, ['--plan'], () => 'allow', async (cx, seen) => {
      const init = await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
      assert.equal(init.agentCapabilities?.loadSession, true);
      const session = await cx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const response = await cx.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Write a note' }] });
      return { response, seen, sessionId: session.sessionId };
    });
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(await readFile(path.join(ws, 'note.md'), 'utf8'), '# Note\n');

    const plans = seen.updates.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'plan' }> => u.sessionUpdate === 'plan');
    assert.deepEqual(plans[0]!.entries.map((e) => [e.content, e.status]), [['Write the note', 'pending']]);
    assert.ok(plans.some((p) => p.entries[0]!.status === 'in_progress'), 'the step shows as running');
    assert.deepEqual(plans.at(-1)!.entries.map((e) => e.status), ['completed']);

    assert.equal(seen.permissions.length, 1, 'the edit was asked');
    const asked = seen.permissions[0]!;
    assert.equal(asked.sessionId, sessionId);
    assert.equal(asked.toolCall.kind, 'edit');
    assert.deepEqual(asked.options.map((o) => o.kind), ['allow_once', 'reject_once']);
    const diff = asked.toolCall.content?.find((c) => c.type === 'diff');
    assert.ok(diff && diff.type === 'diff' && diff.path === path.join(ws, 'note.md') && diff.newText === '# Note\n', JSON.stringify(asked.toolCall));

    const call_ = seen.updates.find((u) => u.sessionUpdate === 'tool_call' && u.title.startsWith('write_file'));
    assert.ok(call_ && call_.sessionUpdate === 'tool_call' && call_.kind === 'edit' && call_.status === 'pending');
    const done = seen.updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call_.toolCallId && u.status === 'completed');
    assert.ok(done, 'the tool call completed');
    const said = seen.updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : '')).join('');
    assert.match(said, /Writing the note\./);
    assert.match(said, /The note is written\.|Wrote note\.md\./);
  });

  it('a rejected permission keeps the file unwritten', async () => {
    const script = flowScript({ direct: [call('write_file', { path: 'note.md', content: 'x\n' }), finish('Could not write.')] });
    const response = await withAgent(script, ['--no-plan'], () => 'reject', async (cx) => {
      await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const session = await cx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      return cx.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Write a note' }] });
    });
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(await stat(path.join(ws, 'note.md')).catch(() => undefined), undefined);
  });

  it('session/cancel stops a running task: the prompt ends cancelled', async () => {
    const hang: FakeTurn = { text: 'Thinking about it slowly', chunkChars: 3, hangAfterChunks: 3, hangMs: 30_000 };
    const script = flowScript({ direct: seq(hang) });
    const response = await withAgent(script, ['--no-plan'], () => 'allow', async (cx, seen) => {
      await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const session = await cx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const prompt = cx.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Think' }] });
      while (!seen.updates.some((u) => u.sessionUpdate === 'agent_message_chunk')) await new Promise((r) => setTimeout(r, 20));
      await cx.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId });
      return prompt;
    });
    assert.equal(response.stopReason, 'cancelled');
  });

  it('session/cancel stops a task waiting for a permission the client never answers', async () => {
    const script = flowScript({ direct: [call('write_file', { path: 'note.md', content: 'x\n' }), finish('x')] });
    const response = await withAgent(script, ['--no-plan'], () => 'never', async (cx, seen) => {
      await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const session = await cx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const prompt = cx.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Write' }] });
      while (!seen.permissions.length) await new Promise((r) => setTimeout(r, 20));
      await cx.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId });
      return prompt;
    });
    assert.equal(response.stopReason, 'cancelled');
    assert.equal(await stat(path.join(ws, 'note.md')).catch(() => undefined), undefined);
  });

  it("uses the client's MCP servers, continues the session on a second prompt, and loads it in a new agent process", async () => {
    const everything = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    const script = flowScript({ direct: seq(call('everything__get-sum', { a: 2, b: 40 }), finish('The sum is 42.'), finish('It was 2 + 40.'), finish('Still 42.')) });
    const mcpServers: acp.McpServer[] = [{ name: 'everything', command: process.execPath, args: [everything, 'stdio'], env: [] }];
    const first = await withAgent(script, ['--no-plan', '--auto-approve', 'read,mcp'], () => 'allow', async (cx, seen) => {
      await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const session = await cx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers });
      const one = await cx.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Add 2 and 40' }] });
      const two = await cx.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Which numbers?' }] });
      return { sessionId: session.sessionId, stops: [one.stopReason, two.stopReason], updates: [...seen.updates] };
    });
    assert.deepEqual(first.stops, ['end_turn', 'end_turn']);
    const sum = first.updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed' && JSON.stringify(u.content).includes('42'));
    assert.ok(sum, 'the MCP tool of the session answered');
    // The second prompt continued the task: the model saw the first prompt and its tool result.
    const followUp = JSON.stringify(fake!.requests.at(-1)!.body!.messages);
    assert.match(followUp, /Add 2 and 40/);
    assert.match(followUp, /Which numbers\?/);

    const loaded = await withAgent(script, ['--no-plan'], () => 'allow', async (cx, seen) => {
      const init = await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      assert.equal(init.agentCapabilities?.loadSession, true);
      await cx.request(acp.methods.agent.session.load, { sessionId: first.sessionId, cwd: ws, mcpServers: [] });
      const replayed = [...seen.updates];
      const three = await cx.request(acp.methods.agent.session.prompt, { sessionId: first.sessionId, prompt: [{ type: 'text', text: 'And now?' }] });
      return { replayed, stop: three.stopReason };
    });
    const users = loaded.replayed.filter((u) => u.sessionUpdate === 'user_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : ''));
    assert.deepEqual(users, ['Add 2 and 40', 'Which numbers?']);
    assert.match(JSON.stringify(loaded.replayed), /The sum is 42\./);
    const replayedText = loaded.replayed.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : '')).join('');
    assert.equal(replayedText.split('The sum is 42.').length - 1, 1, `each answer once: ${replayedText}`);
    assert.equal(loaded.stop, 'end_turn');
    assert.match(JSON.stringify(fake!.requests.at(-1)!.body!.messages), /Which numbers\?[\s\S]*And now\?/);
  });

  it('session/load of an unknown id is refused as not found', async () => {
    const error = await withAgent(flowScript({}), [], () => 'allow', async (cx) => {
      await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      return cx.request(acp.methods.agent.session.load, { sessionId: 'no-such-task', cwd: ws, mcpServers: [] }).then(() => undefined, (e: unknown) => e);
    });
    assert.ok(error instanceof Error, 'rejected');
    assert.equal((error as { code?: number }).code, -32002);
  });
});
