import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventEnvelope, type AgentEvent } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeScript } from '../../support/fakeOpenAIServer';
import { call, finish, flowScript } from '../flow/flowFake';
import { CLI_PATH, runCliProcess, TEST_STEPWISE_HOME } from './cliProcess';

// Acceptance item 4 of issue 27: the built `stepwise serve` — a client posts a task, receives the
// same events as `--json`, approves an edit; a request without the token (or from a rebound name
// or a foreign page) is refused. Real HTTP on loopback, real files, the fake model server.

const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_API_KEY: 'sk-test-key', STEPWISE_HOME: TEST_STEPWISE_HOME, NO_COLOR: '1' };

interface Served {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  exited: Promise<number | null>;
}

/** Starts `node dist/cli.js serve …` and reads the one JSON line it prints (url and token). */
function startServe(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: ENV });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const { url, token } = JSON.parse(out.slice(0, nl)) as { url: string; token: string };
      resolve({ child, url, port: Number(new URL(url).port), token, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening: ${stderr}`)));
  });
}

/** Runs the built CLI to its end with raw output (no envelopes to parse). */
function runRaw(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI_PATH, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: ENV });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

interface Reply {
  status: number;
  body: unknown;
}

/** One request to the server, with exactly the headers given (Host too). */
function request(s: Served, method: string, pathname: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: s.port, method, path: pathname, headers: { host: `127.0.0.1:${s.port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const auth = (s: Served) => ({ authorization: `Bearer ${s.token}`, 'content-type': 'application/json' });

/** Follows a task's SSE stream to its `end` event, calling `onEvent` for each envelope's event. */
function follow(s: Served, id: string, onEvent: (event: AgentEvent) => void, lastEventId?: number): Promise<{ envelopes: EventEnvelope[]; end: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${s.token}`, ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }) };
    const req = http.get({ host: '127.0.0.1', port: s.port, path: `/tasks/${id}/events`, headers }, (res) => {
      assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
      const envelopes: EventEnvelope[] = [];
      let pending = '';
      res.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        let cut;
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '))?.slice(6);
          if (!data) continue;
          if (block.startsWith('event: end')) return resolve({ envelopes, end: JSON.parse(data) as Record<string, unknown> });
          const envelope = EventEnvelope.parse(JSON.parse(data));
          envelopes.push(envelope);
          onEvent(envelope.event);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('stepwise serve (built CLI) over real HTTP', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  let served: Served | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-serve-'));
  });
  afterEach(async () => {
    if (served) {
      served.child.kill('SIGTERM');
      await served.exited;
    }
    served = undefined;
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  const editScript = (): FakeScript => flowScript({ direct: [call('write_file', { path: 'hello.txt', content: 'hello over http\n' }, 'Writing it.'), finish('Wrote hello.txt.')] });

  it('refuses requests without the token, with a wrong token, from another Host name or a foreign Origin', async () => {
    fake = await startFakeOpenAI(editScript());
    served = await startServe(['--model', 'fake-model', '--base-url', fake.url, '--workspace', ws]);
    const s = served;
    const task = { task: 'x' };
    const cases: [string, Record<string, string>, number][] = [
      ['no token', { 'content-type': 'application/json' }, 401],
      ['a wrong token', { authorization: 'Bearer nope' }, 401],
      ['the token with one character changed', { authorization: `Bearer ${s.token.slice(0, -1)}${s.token.endsWith('A') ? 'B' : 'A'}` }, 401],
      ['a token in the wrong scheme', { authorization: `Basic ${s.token}` }, 401],
      ['a rebound host name', { ...auth(s), host: `evil.example:${s.port}` }, 403],
      ['the right name on another port', { ...auth(s), host: `127.0.0.1:${s.port + 1}` }, 403],
      ['a foreign page', { ...auth(s), origin: 'http://evil.example' }, 403],
      ['a null origin', { ...auth(s), origin: 'null' }, 403],
    ];
    for (const [what, headers, status] of cases) {
      const reply = await request(s, 'POST', '/tasks', headers, task);
      assert.equal(reply.status, status, what);
    }
    assert.deepEqual((await request(s, 'GET', '/tasks', auth(s))).body, [], 'no task was started by a refused request');
    assert.equal(fake.requests.length, 0);
    assert.equal((await request(s, 'GET', '/tasks', { ...auth(s), host: `localhost:${s.port}`, origin: `http://localhost:${s.port}` })).status, 200);
  });

  it('runs a posted task: the same events as --json, an edit approved over HTTP lands', async () => {
    fake = await startFakeOpenAI(editScript());
    served = await startServe(['--model', 'fake-model', '--base-url', fake.url, '--workspace', ws]);
    const s = served;
    const started = await request(s, 'POST', '/tasks', auth(s), { task: 'Write hello.txt', plan: 'never' });
    assert.equal(started.status, 201);
    const id = (started.body as { id: string }).id;
    const approvals: Promise<Reply>[] = [];
    const { envelopes, end } = await follow(s, id, (event) => {
      if (event.type === 'approval_requested') approvals.push(request(s, 'POST', `/tasks/${id}/approvals/${event.callId}`, auth(s), { approved: true }));
    });
    assert.equal(approvals.length, 1, 'the edit was asked once');
    assert.equal((await approvals[0]!).status, 200);
    assert.equal(await readFile(path.join(ws, 'hello.txt'), 'utf8'), 'hello over http\n');
    assert.equal(end.outcome, 'finished');
    assert.equal(end.summary, 'Wrote hello.txt.');
    assert.deepEqual(envelopes.map((e) => e.seq), envelopes.map((_, i) => i));
    // A late or reconnecting listener gets every envelope again, or those after its Last-Event-ID.
    assert.deepEqual((await follow(s, id, () => undefined)).envelopes, envelopes);
    assert.deepEqual((await follow(s, id, () => undefined, 3)).envelopes, envelopes.slice(4));
    const answered = envelopes.find((e) => e.event.type === 'approval_answered')!.event;
    assert.ok(answered.type === 'approval_answered' && answered.approved && !answered.auto, 'a person approved it');

    // The same task through `stepwise run --json` (edits auto-approved there): the same envelopes, event for event.
    await rm(path.join(ws, 'hello.txt'));
    await fake.close();
    fake = await startFakeOpenAI(editScript());
    const cli = await runCliProcess(['run', 'Write hello.txt', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read,edit']);
    assert.equal(cli.code, 0, cli.stderr);
    const shape = (e: AgentEvent) => (e.type === 'tool_result' ? `${e.type}:${e.name}:${e.isError}` : e.type === 'text_delta' ? `${e.type}:${e.text}` : e.type);
    // The task's first checkpoint is taken while the model is first asked: where its event lands among
    // the first turn's events is timing. The order is compared without checkpoints, and they are counted.
    const ordered = (events: AgentEvent[]) => events.filter((e) => e.type !== 'checkpoint').map(shape);
    const checkpoints = (events: AgentEvent[]) => events.filter((e) => e.type === 'checkpoint').length;
    const run = envelopes.map((e) => e.event);
    assert.deepEqual(ordered(run), ordered(cli.events));
    assert.equal(checkpoints(run), checkpoints(cli.events));
  });

  it('answers a question over HTTP, and stops a running task', async () => {
    fake = await startFakeOpenAI(flowScript({
      direct: [call('ask_user', { question: 'Which name?', options: ['a.txt', 'b.txt'] }), call('write_file', { path: 'b.txt', content: 'b\n' }), finish('Wrote b.txt.')],
    }));
    served = await startServe(['--model', 'fake-model', '--base-url', fake.url, '--workspace', ws, '--auto-approve', 'read,edit']);
    const s = served;
    const id = ((await request(s, 'POST', '/tasks', auth(s), { task: 'Ask, then write', plan: 'never' })).body as { id: string }).id;
    assert.equal((await request(s, 'POST', '/tasks', auth(s), { task: 'a second one' })).status, 409, 'one task at a time');
    const { end } = await follow(s, id, (event) => {
      if (event.type === 'question_asked') void request(s, 'POST', `/tasks/${id}/answers/${event.callId}`, auth(s), { answer: 'b.txt' });
    });
    assert.equal(end.outcome, 'finished');
    assert.equal(await readFile(path.join(ws, 'b.txt'), 'utf8'), 'b\n');
    const tool = fake.requests.at(-2)!.body!.messages!.find((m) => m.role === 'tool');
    assert.match(String(tool?.content), /b\.txt/);

    // A task waiting for its approval is stopped: it ends cancelled.
    await fake.close();
    fake = await startFakeOpenAI(flowScript({ direct: [call('run_command', { command: 'echo hi' }), finish('x')] }));
    const s2 = served;
    s2.child.kill('SIGTERM');
    await s2.exited;
    served = await startServe(['--model', 'fake-model', '--base-url', fake.url, '--workspace', ws]);
    const s3 = served;
    const id2 = ((await request(s3, 'POST', '/tasks', auth(s3), { task: 'Run echo', plan: 'never' })).body as { id: string }).id;
    const stopped = await follow(s3, id2, (event) => {
      if (event.type === 'approval_requested') void request(s3, 'POST', `/tasks/${id2}/stop`, auth(s3));
    });
    assert.equal(stopped.end.outcome, 'cancelled');
  });

  const startErrors: [string[], number, RegExp][] = [
    [['serve', '--port', 'x', '--model', 'm'], 2, /--port needs a port number/],
    [['acp'], 2, /No model/],
    [['mcp', '--model', 'm', '--nonsense'], 2, /Unknown option '--nonsense'/],
    [['serve', '--model', 'm', '--workspace', '/no/such/folder'], 2, /--workspace is not a folder/],
    [['mcp', '--help'], 0, /stepwise mcp \[run options\]/],
  ];
  for (const [args, code, said] of startErrors) {
    it(`stepwise ${args.join(' ')} → exit ${code}`, async () => {
      const r = await runRaw(args);
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stdout + r.stderr, said);
    });
  }
});
