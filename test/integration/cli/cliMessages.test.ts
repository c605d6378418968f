import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../../support/fakeOpenAIServer';
import { call, finish, flowScript, requestsOf, requestText } from '../flow/flowFake';
import { startCli, type CliRun } from './cliProcess';

// Messages sent while a task runs, through the built CLI's `--input stream-json`: JSON lines on a
// real stdin pipe, delivered at the next turn boundary (a direct run) or to the plan updater (a
// planned task). The first command waits for a file the test writes after sending the message, so
// the message is sent while a tool call is running.

const MESSAGE = 'also update the changelog';
const line = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text } }) + '\n';
const WAIT_FOR_GO = 'while [ ! -f go ]; do sleep 0.05; done; echo went';
const runCommand = (command: string): FakeTurn => call('run_command', { command });
const carries = (request: RecordedRequest) => requestText(request).includes(MESSAGE);

describe('stepwise run (CLI): messages while the task runs (--input stream-json)', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-messages-'));
  });

  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  /** Starts the task, sends the message once the first command runs, then lets that command end. */
  async function runWithMessage(extra: string[]): Promise<CliRun> {
    const cli = startCli(['run', 'Fix the typo in README.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake!.url, '--json', '--auto-approve', 'read,edit,command', '--input', 'stream-json', ...extra], {}, 'pipe');
    await cli.waitForEvent((e) => e.type === 'tool_call' && e.name === 'run_command');
    cli.child.stdin!.write('not json\n');
    cli.child.stdin!.write(line(MESSAGE));
    await writeFile(path.join(ws, 'go'), '');
    const r = await cli.done;
    return r;
  }

  it('a direct run: the message reaches the next model request at a turn boundary, never inside a tool call, and the timeline shows where', async () => {
    // The model works (short commands) until a request carries the message, then finishes.
    fake = await startFakeOpenAI((request, index) => (index === 0 ? runCommand(WAIT_FOR_GO) : carries(request) ? finish('changelog updated too') : runCommand('sleep 0.1')));
    const r = await runWithMessage(['--no-plan']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /skipped a line \(not JSON\)/);

    const delivered = r.events.filter((e): e is AgentEventOf<'user_message'> => e.type === 'user_message');
    assert.deepEqual(delivered.map((e) => [e.text, e.delivered]), [[MESSAGE, 'turn']]);
    // The running command was not cut: its result is whole and came before the delivery.
    const at = r.events.indexOf(delivered[0]!);
    const waited = r.events.find((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result' && e.name === 'run_command');
    assert.ok(waited && r.events.indexOf(waited) < at && /went/.test(waited.content) && !waited.stopped);
    // Delivered at a turn boundary: right after turn_started, before the model was asked.
    assert.equal(r.events[at - 1]?.type, 'turn_started');

    const requests = fake.chatRequests();
    const first = requests.findIndex(carries);
    assert.ok(first > 0, 'a request carries the message');
    // The request right after the delivery is the first to carry it, once, as a user message after the tool results.
    const turnsBefore = r.events.slice(0, at).filter((e) => e.type === 'turn_started').length;
    assert.equal(first, turnsBefore - 1);
    const messages = requests[first]!.body!.messages!;
    const users = messages.filter((m) => m.role === 'user' && String(m.content).includes(MESSAGE));
    assert.equal(users.length, 1);
    assert.equal(messages[messages.length - 1], users[0], 'the message is the last thing the model reads');
    assert.equal(messages[messages.length - 2]?.role, 'tool');
  });

  it('without a task argument the first stdin message is the task; stdin that ends first is a usage error', async () => {
    fake = await startFakeOpenAI((request) => (carries(request) ? finish('done both') : finish('done')));
    const args = ['run', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--no-plan', '--input', 'stream-json'];
    const cli = startCli(args, {}, 'pipe');
    cli.child.stdin!.write(line('Fix the typo in README.'));
    const r = await cli.done;
    assert.equal(r.code, 0, r.stderr);
    const started = r.events.find((e): e is AgentEventOf<'run_started'> => e.type === 'run_started');
    assert.equal(started?.task, 'Fix the typo in README.');
    assert.match(requestText(fake.chatRequests()[0]!), /Fix the typo in README\./);

    const empty = startCli(args, {}, 'pipe');
    empty.child.stdin!.end();
    const e = await empty.done;
    assert.equal(e.code, 2);
    assert.match(e.stderr, /stdin ended before a first message/);
  });

  it('a planned task: the message goes to the plan updater, whose plan change quotes it ("you asked: …"), and the new step runs', async () => {
    fake = await startFakeOpenAI(
      flowScript({
        planner: [call('create_plan', { goal: 'Fix the typo', thought: 'one step', steps: [{ title: 'Fix the typo', description: 'Fix it.', role: 'coder' }] })],
        'step:Fix the typo': [runCommand(WAIT_FOR_GO), finish('Fixed the typo.')],
        'step:Update the changelog': [call('write_file', { path: 'CHANGELOG.md', content: '- Fixed a typo\n' }), finish('Updated CHANGELOG.md.')],
        updater: (request) =>
          carries(request)
            ? call('update_plan', { reason: 'added a changelog step', steps: [{ title: 'Update the changelog', description: 'Add a line to CHANGELOG.md.', role: 'coder' }] })
            : call('keep_plan', {}),
        report: [call('write_report', { summary: 'Fixed the typo and updated the changelog.', findings: [], verification: 'none', left: [] })],
      }),
    );
    const r = await runWithMessage(['--plan']);
    assert.equal(r.code, 0, r.stderr);

    const delivered = r.events.filter((e): e is AgentEventOf<'user_message'> => e.type === 'user_message');
    assert.deepEqual(delivered.map((e) => [e.text, e.delivered]), [[MESSAGE, 'plan']]);
    const updated = r.events.filter((e): e is AgentEventOf<'plan_updated'> => e.type === 'plan_updated');
    assert.equal(updated.length, 1);
    assert.equal(updated[0]!.reason, `plan updated: you asked: "${MESSAGE}" — added a changelog step`);
    assert.equal(updated[0]!.change?.why, `you asked: "${MESSAGE}" — added a changelog step`);
    assert.deepEqual(updated[0]!.steps.map((s) => s.title), ['Fix the typo', 'Update the changelog']);
    // The updater was told in its prompt; the step agents never saw the message.
    assert.ok(requestsOf(fake.chatRequests(), 'updater').some(carries));
    assert.ok(!requestsOf(fake.chatRequests(), 'step:Fix the typo').some(carries));
    const finished = r.events.filter((e): e is AgentEventOf<'step_finished'> => e.type === 'step_finished');
    assert.deepEqual(finished.map((e) => e.status), ['completed', 'completed']);
  });
});
