import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentEventOf } from '../../../src/shared/events';
import { CLI_PATH, runCliProcess, type CliRun } from './cliProcess';

// The headless CLI against a model server written by someone else: @copilotkit/aimock replays a
// scripted conversation over the real OpenAI streaming wire format. Each fixture answers one turn,
// chosen by the id of the tool result the CLI sends back (`toolCallId`) and, with
// AIMOCK_STRICT_TURN_INDEX=1, by the exact count of assistant messages in the request
// (`turnIndex`): a request that lost a message or a tool result finds no fixture and the run fails.

const REPO = path.resolve(__dirname, '../../..');
const AIMOCK_CLI = path.join(REPO, 'node_modules/@copilotkit/aimock/dist/cli.js');
const FIXTURES = path.join(REPO, 'test/fixtures/aimock');
const TASK = "Make greet() in src/greet.js trim the name and greet 'world' when it is empty, then check it.";
/** The tool call ids scripted in greet-conversation.json, in turn order. */
const CALLS = [
  { id: 'call_list_1', name: 'list_files' },
  { id: 'call_read_2', name: 'read_file' },
  { id: 'call_edit_3', name: 'edit_file' },
  { id: 'call_check_4', name: 'run_command' },
  { id: 'call_finish_5', name: 'finish' },
];
const SUMMARY = "greet() now trims the name and falls back to 'world'; node printed 'Hello, Ada!' and 'Hello, world!'.";
/** The fixture's search text is indented 0/2 where the file has 2/4; the result keeps the file's. */
const EXPECTED_GREET = `'use strict';

const greeter = {
  greet(name) {
    const who = String(name ?? '').trim() || 'world';
    return 'Hello, ' + who + '!';
  },
};

module.exports = greeter;
`;

/** The parts of an aimock journal entry this test reads. */
interface JournalEntry {
  method: string;
  path: string;
  body: { tools?: { type: string; function: { name: string } }[]; messages?: JournalMessage[] } | null;
  /** `fixture` is the fixture that answered (null when none matched). */
  response: { status: number; fixture: { response: { toolCalls?: { id?: string }[] } } | null };
}
interface JournalMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
}

interface Aimock {
  child: ChildProcess;
  /** Resolves with the origin aimock prints once it listens; rejects if it exits first. */
  ready: Promise<string>;
  output: () => string;
}

/** Starts aimock's CLI on a port the OS picks (the child is returned at once, so it can always be stopped). */
function startAimock(fixtureFile: string): Aimock {
  const child = spawn(process.execPath, [AIMOCK_CLI, '-h', '127.0.0.1', '-p', '0', '-f', fixtureFile, '--log-level', 'info'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', AIMOCK_STRICT_TURN_INDEX: '1' },
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening) resolve(listening[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`aimock exited (${code ?? signal}) before listening:\n${output}`)));
  });
  return { child, ready, output: () => output };
}

/** Ends a child by its PID (SIGTERM, SIGKILL if it lingers) and waits for it to exit. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const kill = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
  }, 5_000);
  await exited;
  clearTimeout(kill);
}

async function listTree(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) out.push(...(await listTree(path.join(dir, entry.name), `${rel}/`)));
    else out.push(rel);
  }
  return out.sort();
}

const ofType = <T extends AgentEvent['type']>(run: CliRun, type: T) =>
  run.events.filter((e): e is AgentEventOf<T> => e.type === type);

describe('stepwise run (CLI) against @copilotkit/aimock', function () {
  this.timeout(60_000);
  let root: string | undefined;
  let workspace: string;
  let aimock: Aimock | undefined;
  let run: CliRun;
  let chat: JournalEntry[];
  /** What to print when an assertion fails: the CLI's problems, its stderr and aimock's log. */
  let diagnostics: string;

  before(async () => {
    assert.ok(existsSync(CLI_PATH), `${CLI_PATH} is missing: build it first with \`node scripts/build.mjs\``);
    root = await mkdtemp(path.join(tmpdir(), 'stepwise-aimock-'));
    workspace = path.join(root, 'workspace');
    await cp(path.join(FIXTURES, 'greet-project'), workspace, { recursive: true });
    const fixtureFile = path.join(root, 'fixtures.json');
    await copyFile(path.join(FIXTURES, 'greet-conversation.json'), fixtureFile);
    aimock = startAimock(fixtureFile);
    const origin = await aimock.ready;

    run = await runCliProcess([
      'run', TASK,
      '--workspace', workspace,
      '--model', 'aimock-model',
      '--base-url', `${origin}/v1`,
      '--no-plan',
      '--auto-approve', 'read,edit,command',
      '--json',
    ]);

    const response = await fetch(`${origin}/__aimock/journal`);
    assert.equal(response.status, 200, 'aimock journal answers');
    const journal = (await response.json()) as JournalEntry[];
    chat = journal.filter((entry) => entry.method === 'POST' && entry.path === '/v1/chat/completions');
    const problems = run.events.filter((e) => e.type === 'error' || e.type === 'notice' || e.type === 'run_finished');
    diagnostics =
      `\n--- CLI error/notice/run_finished events ---\n${problems.map((e) => JSON.stringify(e)).join('\n')}` +
      `\n--- CLI stderr ---\n${run.stderr}\n--- aimock log ---\n${aimock.output()}`;
  });

  after(async () => {
    if (aimock) await stopChild(aimock.child);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('exits 0 with run_started first and run_finished (finished, with the summary) last', () => {
    assert.equal(run.code, 0, `exit code${diagnostics}`);
    assert.equal(run.events[0]?.type, 'run_started');
    const started = run.events[0] as AgentEventOf<'run_started'>;
    assert.equal(started.task, TASK);
    const last = run.events[run.events.length - 1];
    assert.ok(last?.type === 'run_finished', `last event is ${last?.type}${diagnostics}`);
    assert.equal(last.outcome, 'finished');
    assert.equal(last.summary, SUMMARY);
    assert.equal(ofType(run, 'run_started').length, 1);
    assert.equal(ofType(run, 'run_finished').length, 1);
    assert.equal(new Set(run.envelopes.map((e) => e.runId)).size, 1, 'one runId');
    assert.deepEqual(run.envelopes.map((e) => e.seq), run.envelopes.map((_, i) => i), 'seq counts up from 0');
    assert.deepEqual(ofType(run, 'error'), [], 'no error events');
  });

  it("counts the tokens aimock reports: one usage event per request, totals adding up", () => {
    const usage = ofType(run, 'usage');
    assert.equal(usage.length, CALLS.length, diagnostics);
    const sum = usage.reduce((acc, e) => acc + e.usage.totalTokens, 0);
    assert.ok(sum > 0);
    assert.equal(usage[usage.length - 1]!.total.totalTokens, sum);
  });

  it("calls the scripted tools in order with aimock's call ids, none failing", () => {
    assert.deepEqual(
      ofType(run, 'tool_call').map((e) => ({ id: e.callId, name: e.name })),
      CALLS,
      diagnostics,
    );
    const results = ofType(run, 'tool_result');
    assert.deepEqual(results.map((e) => ({ id: e.callId, name: e.name })), CALLS);
    assert.deepEqual(results.map((e) => e.isError), CALLS.map(() => false), results.map((e) => e.content).join('\n---\n'));
    const listing = results[0]!.content;
    assert.match(listing, /^src\/greet\.js$/m);
    assert.match(listing, /^package\.json$/m);
    assert.match(results[1]!.content, /return 'Hello, ' \+ name \+ '!';/);
    // The text before the first tool call reached the stream as the assistant's message.
    assert.equal(ofType(run, 'assistant_message')[0]?.text, "I'll start by looking at the project.");
  });

  it("edits the file with the model's drifted indentation, keeping the file's own", async () => {
    const edit = ofType(run, 'tool_result').find((e) => e.name === 'edit_file');
    assert.ok(edit, diagnostics);
    assert.match(edit.content, /matched ignoring whitespace/, 'the tolerant matcher, not an exact match, found the place');
    assert.equal(await readFile(path.join(workspace, 'src/greet.js'), 'utf8'), EXPECTED_GREET);
    assert.deepEqual(await listTree(workspace), ['package.json', 'src/greet.js'], 'no stray files in the workspace');
  });

  it('runs the check command against the edited file and shows its output', () => {
    const check = ofType(run, 'tool_result').find((e) => e.name === 'run_command');
    assert.ok(check, diagnostics);
    assert.match(check.content, /^exit code 0\n/);
    // Before the edit this printed "Hello,   Ada  !" and "Hello, !".
    assert.match(check.content, /^Hello, Ada!\nHello, world!$/m);
    const streamed = ofType(run, 'tool_output').filter((e) => e.callId === 'call_check_4' && e.stream === 'stdout').map((e) => e.chunk).join('');
    assert.equal(streamed, 'Hello, Ada!\nHello, world!\n');
  });

  it("aimock's journal shows every request carried the tools and the previous turn's result under its call id", () => {
    assert.equal(chat.length, CALLS.length, `one request per scripted turn${diagnostics}`);
    for (const [turn, entry] of chat.entries()) {
      assert.equal(entry.response.status, 200, `turn ${turn} served${diagnostics}`);
      assert.equal(entry.response.fixture?.response.toolCalls?.[0]?.id, CALLS[turn]!.id, `turn ${turn} answered by its own fixture`);
      const toolNames = (entry.body?.tools ?? []).map((t) => t.function.name);
      for (const { name } of CALLS) assert.ok(toolNames.includes(name), `turn ${turn} offers ${name}: ${toolNames.join(', ')}`);
      assert.ok(entry.body?.tools?.every((t) => t.type === 'function'));

      const messages = entry.body?.messages ?? [];
      assert.equal(messages.filter((m) => m.role === 'assistant').length, turn, `turn ${turn}: assistant messages so far`);
      assert.ok(messages.some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes(TASK)), 'the task is sent');
      const toolMessages = messages.filter((m) => m.role === 'tool');
      assert.deepEqual(toolMessages.map((m) => m.tool_call_id), CALLS.slice(0, turn).map((c) => c.id), `turn ${turn}: tool results`);
      if (turn === 0) continue;
      // The previous answer comes back as an assistant message with the call, followed by its result.
      const previous = CALLS[turn - 1]!;
      const last = messages[messages.length - 1]!;
      const assistant = messages[messages.length - 2]!;
      assert.equal(last.role, 'tool');
      assert.equal(last.tool_call_id, previous.id);
      assert.equal(assistant.role, 'assistant');
      assert.deepEqual(assistant.tool_calls?.map((c) => ({ id: c.id, name: c.function.name })), [previous]);
    }
    const checkResult = chat[4]!.body!.messages!.at(-1)!;
    assert.match(String(checkResult.content), /Hello, Ada!\nHello, world!/, 'the model saw the command output');
  });
});
