import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type RecordedMessage } from '../../support/fakeOpenAIServer';
import { runCliProcess } from './cliProcess';
import { FORMAT_CASES, type ExpectedCall } from './toolFormatCases';

// Issue 10, acceptance 1: a model that writes its tool calls as text in its own native format,
// through the built CLI and a real HTTP server, in both tool protocols. Every example's calls are
// run in order with their (unicode) arguments; a malformed call gets a correction note and the run
// goes on; the run finishes only through `finish`.

/** Tool calls announced in each turn, by turn number. */
function callsByTurn(events: AgentEvent[]): Map<number, Array<AgentEventOf<'tool_call'>>> {
  const turns = new Map<number, Array<AgentEventOf<'tool_call'>>>();
  let turn = 0;
  for (const event of events) {
    if (event.type === 'turn_started') turns.set((turn = event.turn), []);
    if (event.type === 'tool_call') turns.get(turn)!.push(event);
  }
  return turns;
}

/** Each written file's expected content: its write, then every `edit_file` on it applied in order (the nested-JSON calls). */
function expectedFiles(calls: ExpectedCall[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const call of calls) {
    const args = call.args as { path: string; content?: string; edits?: Array<{ search: string; replace: string }> };
    if (call.name === 'write_file') files.set(args.path, args.content ?? '');
    if (call.name === 'edit_file') for (const e of args.edits ?? []) files.set(args.path, (files.get(args.path) ?? '').replace(e.search, () => e.replace));
  }
  return files;
}

const userText = (messages: RecordedMessage[] | undefined) =>
  (messages ?? []).filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

describe('stepwise run (CLI): tool calls written in native formats', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-formats-'));
  });

  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  for (const protocol of ['text', 'native'] as const) {
    for (const testCase of FORMAT_CASES) {
      it(`${protocol} protocol: ${testCase.format}`, async () => {
        const turns = [...testCase.examples.map((e) => ({ text: e.text })), { text: testCase.malformed }, { text: testCase.finish }];
        fake = await startFakeOpenAI(turns.map((turn) => ({ ...turn, chunkChars: 5 })));
        const r = await runCliProcess([
          'run', 'Write the notes.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url,
          '--no-plan', '--json', '--tool-protocol', protocol, '--auto-approve', 'edit',
        ]);
        const byTurn = callsByTurn(r.events);
        testCase.examples.forEach((example, index) => {
          const ran = byTurn.get(index + 1) ?? [];
          assert.deepEqual(
            ran.map((call) => ({ name: call.name, args: call.args })),
            example.calls,
            `turn ${index + 1} ran its calls:\n${example.text}\n${r.stderr}`,
          );
        });
        const results = r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result');
        assert.ok(results.length >= testCase.examples.flatMap((e) => e.calls).length);
        for (const [file, content] of expectedFiles(testCase.examples.flatMap((e) => e.calls))) {
          assert.equal(await readFile(path.join(ws, file), 'utf8'), content, `${file} written (and edited)`);
        }
        // The malformed turn ran nothing, did not end the run, and the next request says why.
        const malformedTurn = testCase.examples.length + 1;
        assert.deepEqual(byTurn.get(malformedTurn), [], 'nothing ran for the malformed call');
        const afterMalformed = fake.chatRequests()[malformedTurn]!.body!;
        assert.match(userText(afterMalformed.messages), /could not be read|not an available tool/, 'a correction note follows the malformed call');
        // The run ends only through finish, called in the same format.
        assert.deepEqual((byTurn.get(malformedTurn + 1) ?? []).map((c) => c.name), ['finish']);
        const last = r.events[r.events.length - 1];
        assert.equal(last?.type, 'run_finished');
        assert.equal(last?.type === 'run_finished' ? last.outcome : undefined, 'finished');
        assert.equal(r.code, 0, r.stderr);
        assert.equal(fake.chatRequests().length, turns.length);
        if (protocol === 'native') assert.ok(fake.chatRequests()[0]!.body!.tools?.length, 'native tools were offered');
        else assert.equal(fake.chatRequests()[0]!.body!.tools, undefined);
        // The markup is not the answer the user sees.
        const shown = r.events.filter((e) => e.type === 'assistant_message').map((e) => (e.type === 'assistant_message' ? e.text : '')).join('\n');
        for (const example of testCase.examples) {
          for (const call of example.calls) assert.ok(!shown.includes(String(call.args.path)), `markup shown as the answer:\n${shown}`);
        }
      });
    }
  }
});
