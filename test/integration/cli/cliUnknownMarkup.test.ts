import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer, type RecordedMessage } from '../../support/fakeOpenAIServer';
import { runCliProcess } from './cliProcess';

// Issue 23, acceptance 3: an answer holding tool-call markup that no parser reads is never
// `finished`. Through the built CLI and a real HTTP server, in both tool protocols: the model gets
// a correction naming what it wrote, twice; the third such answer fails the task (exit code 1)
// with a reason naming the format problem. Nothing is run for any of them.

interface MarkupCase {
  label: string;
  /** Three answers in a row that no parser reads. */
  answers: [string, string, string];
  /** What the correction note and the failure reason must name. */
  named: RegExp;
}

const CASES: MarkupCase[] = [
  {
    label: 'special tokens of a format Stepwise does not parse',
    answers: [
      '<|tool_call_start|>read_file a.txt<|tool_call_end|>',
      'Retrying.<|tool_call_start|>read_file: a.txt<|tool_call_end|>',
      '<|tool_call_start|>read_file --path a.txt<|tool_call_end|>',
    ],
    named: /special token <\|tool_call_start\|>/,
  },
  {
    label: 'a <tool_name> tag of an offered tool that no parser accepts',
    answers: ['<read_file path="a.txt" />', 'Reading it: <read_file path="a.txt"/>', '<read_file path="a.txt"></read_file>'],
    named: /XML tag named after the tool read_file/,
  },
  {
    label: 'a JSON object naming an offered tool, in prose',
    answers: [
      'I will call {"tool": "read_file", "file": "a.txt"} now.',
      'Calling {"tool": "read_file", "file": "a.txt"} again.',
      'Here: {"tool_name": "read_file", "file": "a.txt"}.',
    ],
    named: /JSON object naming the tool read_file/,
  },
  {
    label: 'an Anthropic-style invoke block written as text',
    answers: [
      '<function_calls>\n<invoke name="read_file">\n<parameter name="path">a.txt</parameter>\n</invoke>\n</function_calls>',
      '<function_calls>\n<invoke name="read_file">\n<parameter name="path">a.txt</parameter>\n</invoke>\n</function_calls>',
      '<function_calls>\n<invoke name="read_file">\n<parameter name="path">a.txt</parameter>\n</invoke>\n</function_calls>',
    ],
    named: /tool-call tag <function_calls/,
  },
];

const userText = (messages: RecordedMessage[] | undefined) =>
  (messages ?? []).filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

describe('stepwise run (CLI): unknown tool-call markup is never an answer', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-markup-'));
  });

  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  for (const protocol of ['text', 'native'] as const) {
    for (const testCase of CASES) {
      it(`${protocol} protocol: ${testCase.label}: two corrections, then a clear failure (exit 1)`, async () => {
        fake = await startFakeOpenAI(testCase.answers.map((text) => ({ text, chunkChars: 7 })));
        const r = await runCliProcess([
          'run', 'Read a.txt.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url,
          '--no-plan', '--json', '--tool-protocol', protocol,
        ]);
        assert.equal(r.events.filter((e) => e.type === 'tool_call').length, 0, 'nothing ran');
        const requests = fake.chatRequests();
        assert.equal(requests.length, 3, 'the model was asked twice more, then the task stopped');
        for (const turn of [1, 2]) {
          const said = userText(requests[turn]!.body!.messages);
          assert.match(said, testCase.named, `correction ${turn} names what was written`);
          assert.match(said, /not a tool call Stepwise can read|could not be read/);
        }
        const last = r.events[r.events.length - 1];
        assert.equal(last?.type, 'run_finished');
        assert.equal(last?.type === 'run_finished' ? last.outcome : undefined, 'failed', r.stderr);
        const reason = last?.type === 'run_finished' ? (last.reason ?? '') : '';
        assert.match(reason, /tool calls could not be read after 2 corrections/);
        assert.match(reason, testCase.named);
        assert.equal(r.code, 1, r.stderr);
      });
    }
  }

  it('native protocol: a corrected model that then calls properly finishes (the correction is not a dead end)', async () => {
    fake = await startFakeOpenAI([
      { text: '<|tool_call_start|>read_file a.txt<|tool_call_end|>' },
      { toolCalls: [{ name: 'list_files', arguments: '{"path": "."}' }] },
      { toolCalls: [{ name: 'finish', arguments: '{"summary": "done"}' }] },
    ]);
    const r = await runCliProcess(['run', 'Look around.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--tool-protocol', 'native']);
    assert.deepEqual(r.events.filter((e) => e.type === 'tool_call').map((e) => (e.type === 'tool_call' ? e.name : '')), ['list_files', 'finish']);
    const last = r.events[r.events.length - 1];
    assert.equal(last?.type === 'run_finished' ? last.outcome : undefined, 'finished');
    assert.equal(r.code, 0, r.stderr);
  });
});
