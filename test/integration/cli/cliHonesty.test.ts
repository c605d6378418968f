import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { CLI_PATH } from './cliProcess';

// What the built CLI prints for a person (no --json): the task's cost after a follow-up (the sum
// over the task and its follow-ups), and a refused key in plain words with the next action.

const USAGE = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };

describe('the CLI’s last lines tell the truth (built CLI, fake model server)', function () {
  this.timeout(60_000);
  let ws: string;
  let home: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-honest-'));
    home = await mkdtemp(path.join(tmpdir(), 'stepwise-honest-home-'));
    await writeFile(path.join(ws, 'README.md'), '# demo\n');
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  /** Runs the CLI against a fresh fake with `turns`; resolves with its exit code and output (the fake answers meanwhile). */
  async function cli(args: string[], turns: FakeTurn[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    await fake?.close();
    fake = await startFakeOpenAI(turns);
    const child = spawn(process.execPath, [CLI_PATH, ...args, '--workspace', ws, '--model', 'gpt-4.1-mini', '--base-url', fake.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_API_KEY: 'sk-test-key', NO_COLOR: '1', STEPWISE_HOME: home },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stdout, stderr };
  }

  it('a follow-up (stepwise resume) ends with the task’s cost so far, this run’s share beside it', async () => {
    const first = await cli(['run', 'What is this project?', '--no-plan'], [{ text: 'A demo.', usage: USAGE }]);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    // gpt-4.1-mini: (1000 x 0.4 + 100 x 1.6) / 1e6 = $0.00056 a call.
    assert.match(first.stdout, /^Cost: 1,100 effective tokens · \$0\.0006$/m);
    const taskId = /"runId":"([^"]+)"/.exec((await cli(['tasks', '--json'], [])).stdout)?.[1];
    assert.ok(taskId, 'the task is listed');

    const second = await cli(['resume', taskId, 'And its licence?'], [{ text: 'MIT.', usage: USAGE }]);
    assert.equal(second.code, 0, second.stderr + second.stdout);
    assert.match(second.stdout, /^Cost: 2,200 effective tokens · \$0\.0011 \(task so far; this run 1,100 effective tokens · \$0\.0006\)$/m);
  });

  it('a refused key is said in plain words with what to do next, never as a code', async () => {
    const r = await cli(['run', 'What is this project?', '--no-plan'], [{ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } }]);
    assert.equal(r.code, 1, r.stderr + r.stdout);
    assert.match(r.stdout, /^✗ The endpoint refused the API key: /m);
    assert.match(r.stdout, /^✗ Failed after \d+ turn\(s\) \(ran \d+\.\d s\)$/m, 'the time it ran (it waited for no one)');
    assert.match(r.stdout, /^Next: Set the key \(OPENAI_API_KEY or STEPWISE_API_KEY\)/m);
    assert.doesNotMatch(r.stdout, /\bauth\b/);
  });
});
