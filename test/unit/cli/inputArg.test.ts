import assert from 'node:assert/strict';
import { parseCliArgs, UsageError } from '../../../src/cli/cliArgs';

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
