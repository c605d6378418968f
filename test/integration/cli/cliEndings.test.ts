import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentEventOf } from '../../../src/shared/events';
import { ENDING_CASES, type EndingCase, type EndingFact } from '../../support/endingCases';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { isRunning } from '../../support/processes';
import { call, finish, flowScript, type FlowScript } from '../flow/flowFake';
import { startCli, type CliRun } from './cliProcess';
import { runCliOnTerminal } from './cliTerminal';

// Acceptance item 1 of issue 21: every route × fact of the shared table (test/support/endingCases.ts)
// through the built CLI (`node dist/cli.js`) against the fake model server: one expected outcome
// and exit code each. The same facts end the same way whatever the route.

/** Answers in order, whatever the conversation holds (a follow-up's history carries earlier turns). */
function seq(...turns: FakeTurn[]): (request: unknown, turn: number) => FakeTurn {
  let n = 0;
  return () => turns[Math.min(n++, turns.length - 1)]!;
}

const HANG: FakeTurn = { text: 'Thinking about it slowly', chunkChars: 3, hangAfterChunks: 3, hangMs: 30_000 };
const UNAUTHORIZED: FakeTurn = { status: 401, body: { error: { message: 'bad key', type: 'invalid_request_error' } } };
const BIG = { prompt_tokens: 890, completion_tokens: 10, total_tokens: 900 };
const FAILING_CHECK = 'node -e "process.exit(2)"';
const ONE_STEP = { goal: 'Fix it', thought: 'One step.', steps: [{ title: 'Fix', description: 'Fix it.', role: 'coder' }] };
const TWO_STEPS = {
  goal: 'Two notes', thought: 'Two steps.',
  steps: [{ title: 'Note A', description: 'Write a.md.', role: 'coder' }, { title: 'Note B', description: 'Write b.md.', role: 'coder' }],
};
const REPORT = call('write_report', { summary: 'All tests pass.', findings: [], verification: '', left: [] });

/** How one fact is produced: the agent's answers (by a direct agent or a plan step), extra CLI arguments, a Stop. */
interface FactScript {
  agent: () => (request: unknown, turn: number) => FakeTurn;
  args?: string[];
  interrupt?: boolean;
}

/** The user's answer at the terminal's plan review that skips the first step. */
const SKIP_FIRST: Array<[string, string]> = [['Run this plan?', 'skip 1']];
const REVIEW_ON_TERMINAL = ['--plan', '--review', 'ask'];

const FACTS: Partial<Record<EndingFact, FactScript>> = {
  'budget reached': { agent: () => seq({ ...call('list_files', { path: '.' }), usage: BIG }, finish('x')), args: ['--token-budget', '500'] },
  'turn limit': { agent: () => (() => { let n = 0; return () => call('read_file', { path: `missing-${n++}.md` }); })(), args: ['--max-steps', '2'] },
  'verify fails': { agent: () => seq(call('write_file', { path: 'a.txt', content: 'a\n' }), finish('Done.')), args: ['--verify', FAILING_CHECK] },
  "the agent's own test run fails after the last change": {
    agent: () => seq(call('write_file', { path: 'a.txt', content: 'a\n' }), call('run_command', { command: 'npm test' }), finish('All tests pass.')),
  },
  'user stop': { agent: () => seq(HANG), interrupt: true },
  'provider failure': { agent: () => seq(UNAUTHORIZED) },
};

/** The flow script of the run under test: the fact's answers for the direct agent, or for the plan's step(s). */
function scriptFor(c: EndingCase): { script: FlowScript; args: string[]; interrupt: boolean; terminal?: Array<[string, string]> } {
  if (c.fact === 'a step skipped by the user') {
    // Planned: the user skips step 1 at the terminal's review. Step retry: the seed run's user
    // skipped step 2 and step 1 failed; retrying step 1 leaves the user's skip in place.
    const planned = c.route === 'planned';
    return {
      script: {
        planner: [call('create_plan', TWO_STEPS)],
        'step:Note A': seq(call('write_file', { path: 'a.md', content: 'a\n' }), finish('Wrote a.md.')),
        'step:Note B': seq(call('write_file', { path: 'b.md', content: 'b\n' }), finish('Wrote b.md.')),
        updater: seq(call('keep_plan', {})),
        report: seq(REPORT),
      },
      args: planned ? REVIEW_ON_TERMINAL : [],
      interrupt: false,
      ...(planned ? { terminal: SKIP_FIRST } : {}),
    };
  }
  if (c.fact === 'a step skipped by the updater') {
    return {
      script: {
        planner: [call('create_plan', TWO_STEPS)],
        'step:Note A': seq(call('read_file', { path: 'a.md' })),
        'step:Note B': seq(finish('Wrote nothing; b needs no note.')),
        recovery: seq(call('skip_step', { reason: 'a is optional' })),
        updater: seq(call('keep_plan', {})),
        report: seq(REPORT),
      },
      args: ['--plan', '--max-steps', '1'],
      interrupt: false,
    };
  }
  const fact = FACTS[c.fact]!;
  if (c.route !== 'planned' && c.route !== 'step retry') return { script: { direct: fact.agent() }, args: fact.args ?? [], interrupt: fact.interrupt ?? false };
  return {
    script: {
      planner: [call('create_plan', ONE_STEP)],
      'step:Fix': fact.agent(),
      updater: seq(call('keep_plan', {})),
      recovery: seq(call('stop_task', { reason: 'the step cannot go on' })),
      report: seq(REPORT),
    },
    args: ['--plan', ...(fact.args ?? [])],
    interrupt: fact.interrupt ?? false,
  };
}

/** The earlier task a follow-up or a resume continues: a finished one-step plan, or a direct task stopped at its turn limit. */
const SEEDS: Partial<Record<EndingCase['route'], { script: FlowScript; args: string[]; terminal?: Array<[string, string]> }>> = {
  'follow-up': {
    script: { planner: [call('create_plan', ONE_STEP)], 'step:Fix': seq(finish('Looked; nothing to fix.')), updater: seq(call('keep_plan', {})), report: seq(REPORT) },
    args: ['--plan'],
  },
  resume: { script: { direct: seq(call('read_file', { path: 'README.md' })) }, args: ['--no-plan', '--max-steps', '1'] },
};

/** A step retry's earlier task: a plan whose first step failed (its provider refused the key), so `--retry-step 1` can run it again. */
function retrySeed(c: EndingCase): { script: FlowScript; args: string[]; terminal?: Array<[string, string]> } {
  const steps = c.fact === 'a step skipped by the updater' || c.fact === 'a step skipped by the user' ? TWO_STEPS : ONE_STEP;
  const first = steps.steps[0]!.title;
  const userSkips = c.fact === 'a step skipped by the user';
  return {
    script: { planner: [call('create_plan', steps)], [`step:${first}`]: seq(UNAUTHORIZED), updater: seq(call('keep_plan', {})), recovery: seq(call('stop_task', { reason: 'no key' })), report: seq(REPORT) },
    args: userSkips ? REVIEW_ON_TERMINAL : ['--plan'],
    ...(userSkips ? { terminal: [['Run this plan?', 'skip 2']] as Array<[string, string]> } : {}),
  };
}

describe('one ending for every route (built CLI): route × fact → outcome and exit code', function () {
  this.timeout(120_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  const pids: number[] = [];

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-endings-'));
    await writeFile(path.join(ws, 'README.md'), '# demo\n');
    await writeFile(path.join(ws, 'package.json'), JSON.stringify({ name: 'demo', private: true, scripts: { test: 'node test.js' } }));
    await writeFile(path.join(ws, 'test.js'), "console.log('1 failing'); process.exit(1);\n");
  });
  afterEach(async () => {
    for (const pid of pids.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function run(args: string[], script: FlowScript, interrupt = false, terminal?: Array<[string, string]>): Promise<CliRun> {
    await fake?.close();
    fake = await startFakeOpenAI(flowScript(script));
    const full = [...args, '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--auto-approve', 'read,edit,command'];
    if (terminal) return runCliOnTerminal(full, terminal, (pid) => pids.push(pid));
    const cli = startCli(full);
    pids.push(cli.child.pid!);
    if (interrupt) {
      await cli.waitForEvent((e) => e.type === 'text_delta');
      cli.child.kill('SIGINT');
    }
    return cli.done;
  }

  for (const c of ENDING_CASES) {
    const title = `${c.route} × ${c.fact} → ${c.outcome}, exit ${c.exit}`;
    it(title, async () => {
      const { script, args, interrupt, terminal } = scriptFor(c);
      let command = ['run', 'Fix it and run the tests', ...(c.route === 'direct' ? ['--no-plan'] : []), ...args];
      const seed = c.route === 'step retry' ? retrySeed(c) : SEEDS[c.route];
      if (seed) {
        const first = await run(['run', 'Fix it', ...seed.args], seed.script, false, seed.terminal);
        assert.ok(first.events.some((e) => e.type === 'run_finished'), first.stderr);
        const id = first.envelopes[0]!.runId;
        if (c.route === 'step retry') assert.ok(first.events.some((e) => e.type === 'step_finished' && e.status === 'failed'), 'the seed left a failed step to retry');
        command = c.route === 'follow-up' ? ['resume', id, 'Now fix it and run the tests', ...args]
          : c.route === 'step retry' ? ['resume', id, '--retry-step', '1', ...args.filter((a) => a !== '--plan')]
            : ['resume', id, ...args];
      }
      const r = await run(command, script, interrupt, terminal);
      const finished = r.events.filter((e): e is AgentEventOf<'run_finished'> => e.type === 'run_finished');
      assert.equal(finished.length, 1, `${JSON.stringify(finished)}\n${r.stderr}`);
      const end = finished[0]!;
      assert.equal(end.outcome, c.outcome, `${end.reason}\n${r.stderr}`);
      assert.equal(r.code, c.exit, r.stderr);
      assert.equal(r.events.at(-1)?.type, 'run_finished');
      assertFacts(c, end, r.events);
    });
  }
});

/** The facts behind the outcome are on the event the card and the CLI line render. */
function assertFacts(c: EndingCase, end: AgentEventOf<'run_finished'>, events: AgentEvent[]): void {
  if (c.fact === "the agent's own test run fails after the last change") {
    assert.deepEqual(end.failedChecks, [{ command: 'npm test', exitCode: 1 }]);
    assert.match(end.reason ?? '', /`npm test` exited 1 after the last change/);
  }
  if (c.fact === 'verify fails') assert.deepEqual(end.failedChecks?.at(-1), { command: FAILING_CHECK, exitCode: 2 });
  if (c.fact === 'a step skipped by the updater') assert.match(end.reason ?? '', /"Note A" \(skipped by the plan updater\)/);
  if (c.fact === 'a step skipped by the user') {
    const skipped = c.route === 'planned' ? 'Note A' : 'Note B';
    assert.match(end.reason ?? '', new RegExp(`"${skipped}" \\(skipped by you\\)`));
    const ids = events.flatMap((e) => (e.type === 'plan_created' || e.type === 'plan_updated' ? e.steps : [])).filter((s) => s.title === skipped).map((s) => s.id);
    assert.ok(ids.length > 0 && !events.some((e) => e.type === 'step_started' && ids.includes(e.stepId)), `the skipped step "${skipped}" never ran`);
  }
  if (c.fact === 'user stop') assert.ok(!events.some((e) => e.type === 'step_finished' && e.status === 'failed'), 'a stopped step is not failed');
  assert.equal(typeof end.runningMs, 'number');
  assert.equal(typeof end.waitingMs, 'number');
}

