import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { runCliProcess, type CliRun } from '../cli/cliProcess';
import { call, finish, flowScript, requestsOf, requestText, type FlowScript } from '../flow/flowFake';

// "Done" backed by evidence, end to end through the built CLI: a plan whose step never ran ends
// incomplete (exit 3); a configured check that keeps failing ends unverified (exit 3) after three
// rounds, its output fed back each time; no report claims the tests passed.

const LYING_REPORT = call('write_report', {
  summary: 'Everything is done and all tests passed.',
  findings: ['The suite is green.'],
  verification: 'npm test passed.',
  left: [],
});

describe('stepwise run (CLI): completion backed by evidence', function () {
  this.timeout(120_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-evidence-'));
    await mkdir(path.join(ws, 'src'));
    await writeFile(path.join(ws, 'src/sum.js'), 'module.exports = (a, b) => a + b + 1;\n');
    await writeFile(path.join(ws, 'package.json'), JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'node test.js' } }));
    await writeFile(path.join(ws, 'test.js'), "const sum = require('./src/sum');\nif (sum(1, 2) !== 3) { console.error(`FAIL: expected 3, got ${sum(1, 2)}`); process.exit(1); }\nconsole.log('ok');\n");
  });

  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  const of = <T extends AgentEvent['type']>(r: CliRun, type: T) => r.events.filter((e): e is AgentEventOf<T> => e.type === type);
  const ending = (r: CliRun) => of(r, 'run_finished').at(-1)!;

  async function run(script: FlowScript, extra: string[] = []): Promise<CliRun> {
    fake = await startFakeOpenAI(flowScript(script));
    const home = path.join(ws, '..', `${path.basename(ws)}-home`);
    try {
      return await runCliProcess(
        ['run', 'fix sum()', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--plan', '--auto-approve', 'read,edit,command', ...extra],
        { STEPWISE_HOME: home },
      );
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }

  it('ends incomplete (exit 3) when a step is blocked, naming it in the final card and the report, whose pass claims get a note beside them', async () => {
    const r = await run({
      planner: [
        call('create_plan', {
          goal: 'Fix sum and deploy',
          thought: 'fix, then deploy',
          steps: [
            { title: 'Fix sum', description: 'Remove the + 1.', role: 'coder' },
            { title: 'Deploy', description: 'Deploy the package.', role: 'coder' },
          ],
        }),
      ],
      'step:Fix sum': [call('write_file', { path: 'src/sum.js', content: 'module.exports = (a, b) => a + b;\n' }), finish('Fixed sum.')],
      updater: [
        call('update_plan', {
          reason: 'no deploy credentials',
          steps: [{ id: '2', title: 'Deploy', description: 'Deploy the package.', role: 'coder', status: 'blocked' }],
        }),
      ],
      report: [LYING_REPORT],
    });
    assert.equal(r.code, 3, r.stderr);
    const end = ending(r);
    assert.equal(end.outcome, 'incomplete');
    assert.match(end.reason ?? "", /Steps not done: 2\. "Deploy" \(blocked\)/);
    const report = of(r, 'report')[0]!.markdown;
    assert.match(report, /> incomplete: not every step ran: Steps not done: 2\. "Deploy" \(blocked\)/);
    assert.match(report, /## How it was verified\n\nNot verified\./);
    // The model's words are kept as written (issue 21); the claim the records contradict gets a note beside it.
    assert.match(report, /## Summary\n\nEverything is done and all tests passed\.\n\n> Note: the text above says the tests or checks pass; no check ran after the last change\./);
    assert.match(report, /- The suite is green\.\n\n> Note: /);
  });

  it('--verify "npm test" failing three times ends unverified (exit 3), the failing output in the model\'s context each round, and the report lists the exit code', async () => {
    const edit = (n: number) => call('write_file', { path: 'src/sum.js', content: `module.exports = (a, b) => a + b + ${n};\n` });
    const r = await run(
      {
        planner: [call('create_plan', { goal: 'Fix sum', thought: 'one step', steps: [{ title: 'Fix sum', description: 'Make sum(1, 2) return 3.', role: 'coder' }] })],
        'step:Fix sum': [edit(2), finish('Fixed.'), edit(3), finish('Fixed now.'), edit(4), finish('Surely fixed.')],
        updater: [call('keep_plan', {})],
        report: [LYING_REPORT],
      },
      ['--verify', 'npm test'],
    );
    assert.equal(r.code, 3, r.stderr);
    const end = ending(r);
    assert.equal(end.outcome, 'unverified', JSON.stringify(end));
    assert.match(end.reason ?? '', /npm test/);

    // The step's agent saw the check's output after its first and second finish, then was let go.
    const stepRequests = requestsOf(fake!.chatRequests(), 'step:Fix sum');
    assert.equal(stepRequests.length, 6);
    assert.match(requestText(stepRequests[2]!), /round 1 of 3[\s\S]*\$ npm test\nexit code 1[\s\S]*FAIL: expected 3, got 5/);
    assert.match(requestText(stepRequests[4]!), /round 2 of 3[\s\S]*FAIL: expected 3, got 6/);
    // The configured check was named to the agent from the start.
    assert.match(requestText(stepRequests[0]!), /Checks: `npm test`/);
    // The third run of the check is Stepwise's too: three runs, all exit 1.
    const checkNotices = of(r, 'notice').filter((n) => /^Check `npm test`/.test(n.message));
    assert.deepEqual(checkNotices.map((n) => n.message), ['Check `npm test`: exit code 1.', 'Check `npm test`: exit code 1.', 'Check `npm test`: exit code 1.']);

    const report = of(r, 'report')[0]!.markdown;
    assert.match(report, /> unverified: the checks did not pass/);
    assert.match(report, /## How it was verified\n\n- `npm test` → exit 1\n/);
    // The prose stays as the model wrote it; the note beside it says what the records show.
    assert.match(report, /Everything is done and all tests passed\.\n\n> Note: the text above says the tests or checks pass; `npm test` exited 1 after the last change\./);
  });
});
