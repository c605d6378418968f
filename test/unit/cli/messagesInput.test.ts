// Messages while a task runs, on the CLI side: the --input argument, the console line, the history export.
import assert from 'node:assert/strict';
import { parseCliArgs, UsageError } from '../../../src/cli/cliArgs';
import { ConsoleRenderer } from '../../../src/cli/consoleRenderer';
import { historyMarkdown } from '../../../src/node/historyExport';
import { EVENT_VERSION, type AgentEvent, type EventEnvelope } from '../../../src/shared/events';

// `--input`: text (default) or stream-json; only stream-json lets `run` take its task from stdin.

describe('CLI --input', () => {
  const parse = (...argv: string[]) => parseCliArgs(argv, {}, '/ws')!;
  const cases: Array<[string[], { input: string; task: string } | RegExp]> = [
    [['run', 'Fix it'], { input: 'text', task: 'Fix it' }],
    [['run', 'Fix it', '--input', 'stream-json'], { input: 'stream-json', task: 'Fix it' }],
    [['run', '--input', 'stream-json'], { input: 'stream-json', task: '' }],
    [['run', '--input', 'text'], /Give the task as one quoted argument/],
    [['run'], /Give the task as one quoted argument/],
    [['run', 'x', '--input', 'jsonl'], /--input must be text or stream-json/],
    [['resume', 'id-1', '--input', 'stream-json'], { input: 'stream-json', task: '' }],
  ];
  for (const [argv, expected] of cases) {
    it(argv.join(' '), () => {
      if (expected instanceof RegExp) {
        assert.throws(() => parse(...argv), (error: unknown) => error instanceof UsageError && expected.test(error.message));
        return;
      }
      const options = parse(...argv);
      assert.deepEqual({ input: options.input, task: options.task }, expected);
    });
  }
});

describe('CLI console: messages sent while the task ran', () => {
  it('prints each where it was delivered', () => {
    let out = '';
    const renderer = new ConsoleRenderer({ write: (text) => (out += text), color: false });
    const envelope = (seq: number, event: AgentEvent) => ({ v: EVENT_VERSION, seq, runId: 'r', ts: 0, event }) as EventEnvelope;
    renderer.render(envelope(0, { type: 'user_message', text: 'also the changelog', delivered: 'turn' }));
    renderer.render(envelope(1, { type: 'user_message', text: 'skip the docs', delivered: 'plan' }));
    assert.match(out, /» you \(while it ran\): also the changelog\n» you \(while it ran, to the plan updater\): skip the docs/);
  });
});

describe('history export: messages sent while the task ran', () => {
  it('are in the markdown, fenced, with where each was delivered', () => {
    const events: AgentEvent[] = [
      { type: 'run_started', task: 'Fix the typo', workspace: '/w', model: 'm' },
      { type: 'user_message', text: 'also the changelog', delivered: 'turn' },
      { type: 'user_message', text: '# not a heading', delivered: 'plan' },
    ];
    const md = historyMarkdown(events.map((event, seq) => ({ v: EVENT_VERSION, seq, runId: 'r', ts: 0, event }) as EventEnvelope));
    assert.match(md, /Sent while it ran \(at a turn\):\n\n```text\nalso the changelog\n```/);
    assert.match(md, /Sent while it ran \(to the plan updater\):\n\n```text\n# not a heading\n```/);
  });
});
