import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { isRunning } from '../../support/processes';
import { CLI_PATH, runCliProcess, TEST_STEPWISE_HOME } from '../cli/cliProcess';
import { call, finish, flowScript, type FlowScript } from './flowFake';

// Per-step token budgets through the built CLI and a real HTTP server speaking the OpenAI
// streaming format: the model's reported usage is what the step spends. The JSON events carry the
// estimate, the step's spending and why it ended; the console prints the same numbers.

/** A turn that reports `tokens` effective tokens (no cached prompt tokens). */
const costing = (turn: FakeTurn, tokens: number): FakeTurn => ({ ...turn, usage: { prompt_tokens: tokens - 10, completion_tokens: 10, total_tokens: tokens } });

const SCRIPT: FlowScript = {
  coordinator: [call('route', { mode: 'plan', reason: 'survey, then notes' })],
  planner: [call('create_plan', {
    goal: 'Describe the project',
    thought: 'Survey it, then write notes.',
    steps: [
      { title: 'Survey', description: 'List the files and say what each is for.', role: 'researcher', estimate: '12000' },
      { title: 'Write notes', description: 'Write NOTES.md from the survey.', role: 'reporter' },
    ],
  })],
  // 5,000 a call: 5,000, 10,000 (the wrap-up note), 15,000 (past 12,000: the step is stopped).
  'step:Survey': [
    costing(call('list_files', { path: '.' }), 5000),
    costing(call('list_files', { path: 'src' }), 5000),
    costing(call('read_file', { path: 'src/math.js' }), 5000),
    finish('never reached'),
  ],
  'step:Survey src': [costing(call('read_file', { path: 'src/math.js' }), 3000), costing(finish('src/math.js exports add().'), 1500)],
  'step:Write notes': [call('write_file', { path: 'NOTES.md', content: 'add() adds.\n' }), finish('Wrote NOTES.md.')],
  // After the failed step the updater is offered retry / skip / stop / split: it splits the work left.
  recovery: [call('split_step', {
    reason: 'the survey was too big for one step',
    steps: [{ title: 'Survey src', description: 'Read src/ and say what each file is for.', role: 'researcher', estimate: 'small' }],
  })],
  updater: () => call('keep_plan', {}),
  report: [call('write_report', { summary: 'Described the project.', findings: [], verification: '', left: [] })],
};

describe('stepwise run (CLI): per-step token budgets', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  const pids: number[] = [];

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-budget-'));
    await mkdir(path.join(ws, 'src'));
    await writeFile(path.join(ws, 'src/math.js'), 'function add(a, b) {\n  return a + b;\n}\nmodule.exports = { add };\n');
  });

  afterEach(async () => {
    for (const pid of pids.splice(0)) {
      try {
        if (isRunning(pid)) process.kill(pid, 'SIGKILL');
      } catch {}
    }
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  const args = (url: string) => ['run', 'Describe the project in NOTES.md', '--workspace', ws, '--model', 'fake-model', '--base-url', url, '--auto-approve', 'read,edit'];

  /** The console run: the CLI without --json, its output as the user reads it. */
  function consoleRun(url: string): Promise<{ stdout: string; stderr: string; code: number | null }> {
    return new Promise((resolve) => {
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_API_KEY: 'sk-test-key', NO_COLOR: '1', STEPWISE_HOME: TEST_STEPWISE_HOME };
      const child = spawn(process.execPath, [CLI_PATH, ...args(url)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      pids.push(child.pid!);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ stdout, stderr, code }));
    });
  }

  it('emits the estimate, the step\'s spending and the budget stop as events, and prints the same numbers', async () => {
    fake = await startFakeOpenAI(flowScript(SCRIPT));
    const r = await runCliProcess([...args(fake.url), '--json']);
    assert.equal(r.code, 0, r.stderr + r.events.filter((e) => e.type === 'run_finished' || e.type === 'error' || e.type === 'step_finished').map((e) => JSON.stringify(e)).join('\n'));
    const of = <T extends AgentEvent['type']>(type: T) => r.events.filter((e): e is AgentEventOf<T> => e.type === type);

    assert.deepEqual(of('plan_created')[0]!.steps.map((s) => [s.title, s.estimate]), [['Survey', 12_000], ['Write notes', undefined]]);
    assert.deepEqual(of('step_usage').map((e) => [e.stepId, e.spent, e.budget, e.level]), [
      ['1', 0, 12_000, 'ok'],
      ['1', 5000, 12_000, 'ok'],
      ['1', 10_000, 12_000, 'low'],
      ['1', 15_000, 12_000, 'over'],
      ['3', 0, 40_000, 'ok'],
      ['3', 3000, 40_000, 'ok'],
      ['3', 4500, 40_000, 'ok'],
    ]);
    assert.deepEqual(of('step_finished').map((e) => [e.stepId, e.status, e.budgetReached]), [['1', 'failed', true], ['3', 'completed', undefined], ['2', 'completed', undefined]]);
    const split = of('plan_updated').at(-1)!;
    assert.deepEqual(split.steps.map((s) => [s.id, s.status, s.estimate]), [['1', 'skipped', 12_000], ['3', 'pending', 40_000], ['2', 'pending', undefined]]);
    // Every step_usage is an envelope with its own seq: a view replaying from any seq gets the same figures.
    const seqs = r.envelopes.filter((e) => e.event.type === 'step_usage').map((e) => e.seq);
    assert.equal(new Set(seqs).size, seqs.length);
    assert.equal(await readFile(path.join(ws, 'NOTES.md'), 'utf8'), 'add() adds.\n');
    await fake.close();

    // The same task again, printed for a person: a fresh start, so the notes are written again.
    await rm(path.join(ws, 'NOTES.md'));
    await rm(path.join(ws, '.stepwise'), { recursive: true, force: true });
    fake = await startFakeOpenAI(flowScript(SCRIPT));
    const out = await consoleRun(fake.url);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.split('\n');
    const pick = (pattern: RegExp) => lines.filter((line) => pattern.test(line));
    assert.deepEqual(pick(/^\s+[○●✗–◐] \d+\. /).slice(0, 2), ['  ○ 1. [researcher] Survey  ≈12k tokens', '  ○ 2. [reporter] Write notes']);
    assert.ok(lines.includes('  ○ 3. [researcher] Survey src  ≈40k tokens'), out.stdout);
    assert.deepEqual(pick(/step budget:/), ['  step budget: 12k tokens', '  step budget: 40k tokens']);
    assert.deepEqual(pick(/^[●✗] step \d/).map((line) => line.replace(/\): .*/, ')').replace(/: .*/, '')), [
      '✗ step 1 failed (15k / 12k tokens, token budget used up)',
      '● step 3 completed (4.5k / 40k tokens)',
      '● step 2 completed',
    ]);
  });
});
