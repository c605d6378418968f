import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isRunning } from '../../support/processes';
import type { AgentEvent, AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { startCli, type CliProcess, type CliRun } from '../cli/cliProcess';
import { call, finish, flowScript, offeredTools, requestsOf, requestText, systemPrompt, turnOf, type FlowScript } from './flowFake';

// The planning flow end to end through the built CLI: a real HTTP server speaking the OpenAI
// streaming format answers each part of the flow (coordinator, planner, step agents, updater,
// report) from its own script; files and processes are real.

const MATH_JS = 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n';
const VALIDATED_MATH_JS =
  "function add(a, b) {\n  if (typeof a !== 'number' || typeof b !== 'number') throw new TypeError('add() needs two numbers');\n  return a + b;\n}\n\nmodule.exports = { add };\n";
const VALIDATE_EDIT = {
  path: 'src/math.js',
  edits: [
    {
      search: 'function add(a, b) {\n  return a + b;',
      replace: "function add(a, b) {\n  if (typeof a !== 'number' || typeof b !== 'number') throw new TypeError('add() needs two numbers');\n  return a + b;",
    },
  ],
};
// Passes only once add() validates its arguments: the check proves the edit landed on disk.
const ADD_TEST_JS = [
  "const assert = require('node:assert');",
  "const { add } = require('../src/math.js');",
  'assert.strictEqual(add(2, 3), 5);',
  "assert.throws(() => add('2', 3), TypeError);",
  "console.log('all checks passed');",
  '',
].join('\n');


const of = <T extends AgentEvent['type']>(r: CliRun, type: T) => r.events.filter((e): e is AgentEventOf<T> => e.type === type);
const last = (r: CliRun) => r.events[r.events.length - 1];

describe('stepwise run (CLI): the planning flow', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  const pids: number[] = [];

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-flow-'));
    await mkdir(path.join(ws, 'src'));
    await writeFile(path.join(ws, 'src/math.js'), MATH_JS);
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

  async function start(task: string, script: FlowScript, extra: string[] = []): Promise<CliProcess> {
    fake = await startFakeOpenAI(flowScript(script));
    const cli = startCli(['run', task, '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', ...extra]);
    pids.push(cli.child.pid!);
    return cli;
  }

  async function run(task: string, script: FlowScript, extra: string[] = []): Promise<CliRun> {
    return (await start(task, script, extra)).done;
  }

  const reqs = () => fake!.chatRequests();

  it('answers a simple question without a plan: the coordinator routes direct and the answer is the summary', async () => {
    const answer = 'add(a, b) in src/math.js returns the sum a + b; it does not check its arguments.';
    const r = await run('what does add() do?', {
      coordinator: [call('route', { mode: 'direct', reason: 'a question about one function' })],
      direct: [call('read_file', { path: 'src/math.js' }), { text: answer }],
    });

    assert.equal(r.code, 0, r.stderr);
    const end = last(r);
    assert.ok(end?.type === 'run_finished' && end.outcome === 'finished', JSON.stringify(end));
    assert.equal(end.summary, answer);
    assert.deepEqual(of(r, 'plan_created'), []);
    assert.deepEqual(of(r, 'step_started'), []);
    assert.deepEqual(of(r, 'report'), []);
    assert.ok(!existsSync(path.join(ws, '.stepwise/reports')), 'no report for a direct answer');
    // One coordinator call asked the question; the answering agent really read the file.
    assert.equal(requestsOf(reqs(), 'coordinator').length, 1);
    assert.ok(requestText(requestsOf(reqs(), 'coordinator')[0]!).includes('what does add() do?'), 'the coordinator saw the task');
    assert.match(of(r, 'tool_result')[0]!.content, /return a \+ b/);
    assert.deepEqual(requestsOf(reqs(), 'planner'), []);
  });

  it('plans across roles, inserts a step after step 1, changes files and saves a report linking them', async () => {
    const r = await run(
      'Add argument validation to add() in src/math.js and check it with a test.',
      {
        coordinator: [call('route', { mode: 'plan', reason: 'investigate, change, then verify' })],
        planner: [
          call('create_plan', {
            goal: 'Validate the arguments of add()',
            thought: 'Read the code, change it, run a check.',
            steps: [
              { title: 'Read add()', description: 'Read src/math.js and say what add() does and whether tests exist.', role: 'researcher' },
              { title: 'Validate the arguments', description: 'Make add() throw a TypeError unless both arguments are numbers.', role: 'coder' },
              { title: 'Run the check', description: 'Run node test/add.test.js and report the result.', role: 'coder' },
            ],
          }),
        ],
        'step:Read add()': [
          call('read_file', { path: 'src/math.js' }),
          finish('add() in src/math.js returns a + b without any check; the project has no tests.'),
        ],
        'step:Write a test': [call('write_file', { path: 'test/add.test.js', content: ADD_TEST_JS }), finish('Wrote test/add.test.js.')],
        'step:Validate the arguments': [call('edit_file', VALIDATE_EDIT), finish('add() now throws a TypeError for non-numbers.')],
        'step:Run the check': [call('run_command', { command: 'node test/add.test.js' }), finish('node test/add.test.js: all checks passed.')],
        updater: (request) =>
          /Step 1 "Read add\(\)" finished/.test(requestText(request))
            ? call('update_plan', {
                reason: 'there are no tests; write one before changing add()',
                steps: [
                  { title: 'Write a test', description: 'Write test/add.test.js checking add(2, 3) and that add("2", 3) throws a TypeError.', role: 'coder' },
                  { id: '2', title: 'Validate the arguments', description: 'Make add() throw a TypeError unless both arguments are numbers.', role: 'coder' },
                  { id: '3', title: 'Run the check', description: 'Run node test/add.test.js and report the result.', role: 'coder' },
                ],
              })
            : call('keep_plan', {}),
        report: [
          call('write_report', {
            summary: 'add() now validates its arguments; a new test checks it.',
            findings: ['add() had no argument checks and no tests.'],
            verification: 'node test/add.test.js passed.',
            left: [],
          }),
        ],
      },
      ['--auto-approve', 'read,edit,command'],
    );

    assert.equal(r.code, 0, r.stderr);
    assert.ok(last(r)?.type === 'run_finished' && (last(r) as AgentEventOf<'run_finished'>).outcome === 'finished');

    const created = of(r, 'plan_created');
    assert.equal(created.length, 1);
    assert.deepEqual(created[0]!.steps.map((s) => s.role), ['researcher', 'coder', 'coder']);

    // The updater inserted a step right after step 1, with its reason, and the new step ran.
    const updated = of(r, 'plan_updated');
    assert.equal(updated.length, 1);
    assert.equal(updated[0]!.reason, 'plan updated: there are no tests; write one before changing add()');
    assert.deepEqual(updated[0]!.steps.map((s) => [s.title, s.status]), [
      ['Read add()', 'completed'],
      ['Write a test', 'pending'],
      ['Validate the arguments', 'pending'],
      ['Run the check', 'pending'],
    ]);
    const newId = updated[0]!.steps[1]!.id;
    assert.deepEqual(of(r, 'step_started').map((e) => e.stepId), ['1', newId, '2', '3']);
    assert.deepEqual(of(r, 'step_finished').map((e) => e.status), ['completed', 'completed', 'completed', 'completed']);

    // The researcher could only read; the coder could edit and run.
    const research = requestsOf(reqs(), 'step:Read add()')[0]!;
    assert.ok(!offeredTools(research).includes('write_file') && !offeredTools(research).includes('run_command'));
    assert.ok(offeredTools(requestsOf(reqs(), 'step:Run the check')[0]!).includes('run_command'));

    // Files changed on disk and the check really passed against them.
    assert.equal(await readFile(path.join(ws, 'src/math.js'), 'utf8'), VALIDATED_MATH_JS);
    assert.equal(await readFile(path.join(ws, 'test/add.test.js'), 'utf8'), ADD_TEST_JS);
    const check = of(r, 'tool_result').find((e) => e.name === 'run_command')!;
    assert.match(check.content, /^exit code 0\nall checks passed/);

    // The report is saved where the event says and links the changed files relative to itself.
    const reports = of(r, 'report');
    assert.equal(reports.length, 1);
    const reportPath = reports[0]!.path!;
    assert.match(reportPath, /^\.stepwise\/reports\/\d{8}-\d{6}-validate-the-arguments-of-add\.md$/);
    const markdown = await readFile(path.join(ws, reportPath), 'utf8');
    assert.equal(markdown, reports[0]!.markdown);
    const links = [...markdown.matchAll(/\[([^\]]+)\]\(([^)]+)\)/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(links, [
      ['test/add.test.js', '../../test/add.test.js'],
      ['src/math.js', '../../src/math.js'],
    ]);
    for (const [file, href] of links) {
      assert.equal(path.resolve(path.dirname(path.join(ws, reportPath)), href!), path.join(ws, file!), `${href} points at ${file}`);
    }
    assert.match(markdown, /## Summary\n\nadd\(\) now validates its arguments; a new test checks it\./);
    // The section lists what ran after the last change, with its exit code (not the model's prose).
    assert.match(markdown, /## How it was verified\n\n- `node test\/add\.test\.js` → exit 0\n/);
  });

  it('sends invalid planner answers back with the reason, then runs the valid plan', async () => {
    const r = await run(
      'Add argument validation to add() in src/math.js.',
      {
        planner: [
          // Turn 0: arguments cut off mid-JSON; turn 1: valid JSON with a role no one has; turn 2: a good plan.
          call('create_plan', '{"goal": "Validate add()", "thought": "x", "steps": [{"title": "Edit"'),
          call('create_plan', { goal: 'Validate add()', thought: 'x', steps: [{ title: 'Edit add()', description: 'Add the check.', role: 'designer' }] }),
          call('create_plan', {
            goal: 'Validate add()',
            thought: 'One edit, one read-back.',
            steps: [
              { title: 'Edit add()', description: 'Make add() throw a TypeError unless both arguments are numbers.', role: 'coder' },
              { title: 'Read it back', description: 'Read src/math.js and confirm the check is there.', role: 'researcher' },
            ],
          }),
        ],
        'step:Edit add()': [call('edit_file', VALIDATE_EDIT), finish('Added the type check to add().')],
        'step:Read it back': [call('read_file', { path: 'src/math.js' }), finish('src/math.js line 2 throws a TypeError for non-numbers.')],
        updater: () => call('keep_plan', {}),
        report: [call('write_report', { summary: 'add() validates its arguments.', findings: [], verification: 'Read back.', left: [] })],
      },
      ['--plan', '--auto-approve', 'read,edit'],
    );

    assert.equal(r.code, 0, r.stderr);
    const planner = requestsOf(reqs(), 'planner');
    assert.deepEqual(planner.map(turnOf), [0, 1, 2]);
    // Each retry carries the model's bad call and the reason as that call's tool result.
    const feedback = (i: number) =>
      planner[i]!.body!.messages!.filter((m) => m.role === 'tool').map((m) => String(m.content)).at(-1) ?? '';
    assert.match(feedback(1), /The arguments of `create_plan` are not valid JSON/);
    assert.match(feedback(1), /Answer again with exactly one call of `create_plan`/);
    assert.match(feedback(2), /Invalid arguments for `create_plan`: .*steps\.0\.role/);
    assert.ok(!of(r, 'notice').some((n) => /Planning failed/.test(n.message)), 'the plan was not given up');

    const created = of(r, 'plan_created');
    assert.equal(created.length, 1);
    assert.deepEqual(created[0]!.steps.map((s) => [s.title, s.role]), [['Edit add()', 'coder'], ['Read it back', 'researcher']]);
    assert.deepEqual(of(r, 'step_finished').map((e) => [e.stepId, e.status]), [['1', 'completed'], ['2', 'completed']]);
    assert.equal(await readFile(path.join(ws, 'src/math.js'), 'utf8'), VALIDATED_MATH_JS);
  });

  it('re-plans a failed step: the updater retries it differently and the task succeeds', async () => {
    await writeFile(path.join(ws, 'src/math.js'), MATH_JS.replace('a + b', 'a - b'));
    await writeFile(path.join(ws, 'check.js'), "const { add } = require('./src/math.js');\nif (add(2, 3) !== 5) { console.error('add(2, 3) is ' + add(2, 3)); process.exit(1); }\nconsole.log('check ok');\n");
    const fixEdit = { path: 'src/math.js', edits: [{ search: 'return a - b;', replace: 'return a + b;' }] };
    const r = await run(
      'Make node check.js pass.',
      {
        planner: [
          call('create_plan', {
            goal: 'Make the check pass',
            thought: 'Run it until it passes, then note the change.',
            steps: [
              { title: 'Run the check', description: 'Run node check.js until it passes.', role: 'coder' },
              { title: 'Note the change', description: 'Write CHANGES.md with one line on what changed.', role: 'reporter' },
            ],
          }),
        ],
        // The first attempt keeps rerunning the failing command until the loop gives up (stuck).
        'step:Run the check': () => call('run_command', { command: 'node check.js' }),
        'step:Fix add() and rerun the check': [
          call('edit_file', fixEdit),
          call('run_command', { command: 'node check.js' }),
          finish('add() subtracted; it now adds and node check.js prints check ok.'),
        ],
        'step:Note the change': [call('write_file', { path: 'CHANGES.md', content: '- add() adds instead of subtracting.\n' }), finish('Wrote CHANGES.md.')],
        recovery: [
          call('retry_step', {
            reason: 'rerunning the check cannot fix it; fix add() first',
            title: 'Fix add() and rerun the check',
            description: 'Read the failure, fix add() in src/math.js, then run node check.js.',
          }),
        ],
        updater: () => call('keep_plan', {}),
        report: [call('write_report', { summary: 'The check passes.', findings: ['add() subtracted.'], verification: 'node check.js', left: [] })],
      },
      ['--plan', '--auto-approve', 'read,edit,command'],
    );

    assert.equal(r.code, 0, r.stderr);
    const finished = of(r, 'step_finished');
    assert.deepEqual(finished.map((e) => [e.stepId, e.status]), [['1', 'failed'], ['1', 'completed'], ['2', 'completed']]);
    assert.match(finished[0]!.summary, /^Failed \(stuck\)/);
    // The failing command really ran and failed before the loop gave up.
    const firstRun = of(r, 'tool_result').find((e) => e.name === 'run_command')!;
    assert.match(firstRun.content, /^exit code 1\n.*add\(2, 3\) is -1/s);

    // The updater was asked what to do about the failure and saw why it failed.
    const recovery = requestsOf(reqs(), 'recovery');
    assert.equal(recovery.length, 1);
    assert.deepEqual(offeredTools(recovery[0]!), ['retry_step', 'skip_step', 'stop_task']);
    assert.match(requestText(recovery[0]!), /Step 1 "Run the check" failed\nDescription: Run node check.js until it passes.\nWhat happened: Failed \(stuck\)/);
    const retry = of(r, 'plan_updated').find((e) => e.reason.includes('retry'));
    assert.equal(
      retry?.reason,
      'plan updated: retry "Fix add() and rerun the check" differently: rerunning the check cannot fix it; fix add() first',
    );
    assert.ok(requestsOf(reqs(), 'step:Fix add() and rerun the check').length > 0, 'the revised step ran');

    assert.equal(await readFile(path.join(ws, 'src/math.js'), 'utf8'), MATH_JS);
    assert.match(of(r, 'tool_result').filter((e) => e.name === 'run_command').at(-1)!.content, /^exit code 0\ncheck ok/);
    assert.equal(await readFile(path.join(ws, 'CHANGES.md'), 'utf8'), '- add() adds instead of subtracting.\n');
    const end = last(r);
    assert.ok(end?.type === 'run_finished' && end.outcome === 'finished', JSON.stringify(end));
    const report = of(r, 'report')[0]!;
    assert.ok(!/^> (?!Note:)/m.test(report.markdown), 'a finished task has no failure banner');
    // "The check passes." is kept as written; CHANGES.md changed after the last check, so a note stands beside it.
    assert.ok(report.markdown.includes('The check passes.\n\n> Note: the text above says the tests or checks pass; no check ran after the last change.\n'), report.markdown);
  });

  it('Stop during a step kills the step’s process tree and exits 130 without a report', async () => {
    const command = 'sleep 300 & echo $! >> pids.txt; sleep 300 & echo $! >> pids.txt; echo $$ >> pids.txt; echo started; wait';
    const cli = await start(
      'Start the dev servers and then document them.',
      {
        planner: [
          call('create_plan', {
            goal: 'Start the servers',
            thought: 'Start, then document.',
            steps: [
              { title: 'Start the servers', description: 'Run the servers.', role: 'coder' },
              { title: 'Document them', description: 'Write SERVERS.md.', role: 'reporter' },
            ],
          }),
        ],
        'step:Start the servers': [call('run_command', { command, timeout_seconds: 600 })],
        updater: () => call('keep_plan', {}),
      },
      ['--plan', '--auto-approve', 'read,edit,command'],
    );
    await cli.waitForEvent((e) => e.type === 'tool_output' && e.chunk.includes('started'));
    const tree = (await readFile(path.join(ws, 'pids.txt'), 'utf8')).trim().split('\n').map(Number);
    pids.push(...tree);
    assert.equal(tree.length, 3);
    assert.ok(tree.every(isRunning), 'the tree is running before Ctrl-C');
    cli.child.kill('SIGINT');
    const r = await cli.done;

    assert.equal(r.code, 130, r.stderr);
    assert.deepEqual(tree.filter(isRunning), [], 'no process of the tree outlives the CLI');
    const end = last(r);
    assert.ok(end?.type === 'run_finished' && end.outcome === 'cancelled', JSON.stringify(end));
    assert.deepEqual(of(r, 'step_finished').map((e) => [e.stepId, e.status, e.summary]), [['1', 'stopped', 'Stopped by the user.']], 'the user stopped the step: not a failure');
    // Stop means stop: no further step, no updater, no report.
    assert.deepEqual(of(r, 'step_started').map((e) => e.stepId), ['1']);
    assert.deepEqual(requestsOf(reqs(), 'updater'), []);
    assert.deepEqual(of(r, 'report'), []);
    assert.ok(!existsSync(path.join(ws, '.stepwise/reports')));
  });

  it('a Chinese task gets Chinese instructions for every part and a report with Chinese headings', async () => {
    const task = '给 add 函数加上参数校验并写一份报告';
    const r = await run(
      task,
      {
        coordinator: [call('route', { mode: 'plan', reason: '需要修改代码并写报告' })],
        planner: [
          call('create_plan', {
            goal: '为 add 函数加上参数校验',
            thought: '先阅读代码，再修改。',
            steps: [
              { title: '阅读 add 函数', description: '阅读 src/math.js，说明 add 的行为。', role: 'researcher' },
              { title: '添加参数校验', description: '当参数不是数字时抛出 TypeError。', role: 'coder' },
            ],
          }),
        ],
        'step:阅读 add 函数': [call('read_file', { path: 'src/math.js' }), finish('src/math.js 中的 add 直接返回 a + b，没有任何校验。')],
        'step:添加参数校验': [call('edit_file', VALIDATE_EDIT), finish('add 现在在参数不是数字时抛出 TypeError。')],
        updater: () => call('keep_plan', {}),
        report: [call('write_report', { summary: 'add 函数已加上参数校验。', findings: ['原来的 add 没有校验参数。'], verification: '', left: ['补充单元测试。'] })],
      },
      ['--auto-approve', 'read,edit'],
    );

    assert.equal(r.code, 0, r.stderr);
    const zh = 'in Simplified Chinese';
    const prompts = {
      planner: requestsOf(reqs(), 'planner'),
      steps: [...requestsOf(reqs(), 'step:阅读 add 函数'), ...requestsOf(reqs(), 'step:添加参数校验')],
      updater: requestsOf(reqs(), 'updater'),
      report: requestsOf(reqs(), 'report'),
    };
    for (const [part, requests] of Object.entries(prompts)) {
      assert.ok(requests.length > 0, `${part} was called`);
      for (const request of requests) assert.ok(systemPrompt(request).includes(zh), `${part} is told to write in Simplified Chinese`);
    }
    assert.equal(of(r, 'plan_created')[0]!.goal, '为 add 函数加上参数校验');

    const report = of(r, 'report')[0]!;
    assert.match(report.path!, /^\.stepwise\/reports\/\d{8}-\d{6}-为-add-函数加上参数校验\.md$/);
    const markdown = await readFile(path.join(ws, report.path!), 'utf8');
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    assert.deepEqual(headings, ['# 报告: 为 add 函数加上参数校验', '## 摘要', '## 步骤', '## 修改的文件', '## 发现', '## 验证方式', '## 剩余工作']);
    assert.match(markdown, /1\. \*\*阅读 add 函数\*\* \(已完成\)/);
    assert.match(markdown, /## 验证方式\n\n未验证。/);
    assert.match(markdown, /- \[src\/math\.js\]\(\.\.\/\.\.\/src\/math\.js\)/);
  });

  it('a step sees only the task, the plan with statuses, earlier summaries and its own step', async () => {
    const marker = `MARKER-${randomUUID()}`;
    await writeFile(path.join(ws, 'build.log'), `build ok\n${marker}\n`);
    const task = 'Check the build log, look at add() and write docs/status.md.';
    const r = await run(
      task,
      {
        planner: [
          call('create_plan', {
            goal: 'Document the status',
            thought: 'Log, code, doc.',
            steps: [
              { title: 'Read the build log', description: 'Print build.log with cat and say whether the build passed.', role: 'coder' },
              { title: 'Look at add()', description: 'Read src/math.js and describe add().', role: 'researcher' },
              { title: 'Write the status', description: 'Write docs/status.md with two lines: build and add().', role: 'reporter' },
            ],
          }),
        ],
        'step:Read the build log': [call('run_command', { command: 'cat build.log' }), finish('build.log says the build passed.')],
        'step:Look at add()': [call('read_file', { path: 'src/math.js' }), finish('add() returns a + b.')],
        'step:Write the status': [
          call('write_file', { path: 'docs/status.md', content: '- build: passed\n- add(): returns a + b\n' }),
          finish('Wrote docs/status.md.'),
        ],
        updater: () => call('keep_plan', {}),
        report: [call('write_report', { summary: 'Status written.', findings: [], verification: '', left: [] })],
      },
      ['--plan', '--auto-approve', 'read,edit,command'],
    );

    assert.equal(r.code, 0, r.stderr);
    assert.ok(of(r, 'tool_output').some((e) => e.chunk.includes(marker)), 'step 1 printed the marker');
    // Step 1's own next turn saw it (so its absence later means something).
    assert.ok(requestText(requestsOf(reqs(), 'step:Read the build log').at(-1)!).includes(marker));

    const step3 = requestsOf(reqs(), 'step:Write the status');
    assert.equal(step3.length, 2);
    for (const request of step3) {
      const text = requestText(request);
      assert.ok(!text.includes(marker), 'step 1 tool output leaked into step 3');
      assert.ok(!text.includes('cat build.log'), 'step 1 tool calls leaked into step 3');
      assert.ok(!text.includes('function add(a, b)'), 'step 2 tool output leaked into step 3');
      assert.ok(text.includes(task), 'the task');
      assert.match(text, /1\. \[completed\] \(coder\) Read the build log \{id: 1\}\n {3}Summary: build\.log says the build passed\./);
      assert.match(text, /2\. \[completed\] \(researcher\) Look at add\(\) \{id: 2\}\n {3}Summary: add\(\) returns a \+ b\./);
      assert.match(text, /3\. \[in_progress\] \(reporter\) Write the status \{id: 3\} {2}<- current step/);
      assert.ok(text.includes('# Your step (3 of 3): Write the status\nWrite docs/status.md with two lines: build and add().'));
      assert.ok(!text.includes('Print build.log with cat'), 'other steps appear by title only');
    }
    // Its first request is exactly: system prompt, the pinned task and plan, the step.
    assert.deepEqual(step3[0]!.body!.messages!.map((m) => m.role), ['system', 'user', 'user']);
    for (const request of [...requestsOf(reqs(), 'step:Look at add()'), ...requestsOf(reqs(), 'updater'), ...requestsOf(reqs(), 'report')]) {
      assert.ok(!requestText(request).includes(marker), `the marker leaked into a ${request.body?.tools?.[0]?.function.name ?? ''} request`);
    }
    assert.equal(await readFile(path.join(ws, 'docs/status.md'), 'utf8'), '- build: passed\n- add(): returns a + b\n');
  });
});
