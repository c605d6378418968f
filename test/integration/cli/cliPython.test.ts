import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { call, finish, flowScript, offeredTools, requestsOf, type FlowScript } from '../flow/flowFake';
import { runCliProcess, type CliRun } from './cliProcess';

// python_execute through the built CLI: a real Python process (Debian's, which has pandas and
// matplotlib after `npm run setup`; PATH's python3 may be a pyenv shim without them), real files.

const PYTHON = process.env.STEPWISE_TEST_PYTHON ?? '/usr/bin/python3';
const py = (code: string, timeout_seconds?: number): FakeTurn => call('python_execute', { code, ...(timeout_seconds ? { timeout_seconds } : {}) });
const pythonResults = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result' && e.name === 'python_execute');

/** True while `pid` is a live (not zombie) process. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

describe('stepwise run (CLI): python_execute and the data analyst', function () {
  this.timeout(90_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-python-cli-'));
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function run(task: string, script: FakeTurn[] | FlowScript, extra: string[]): Promise<CliRun> {
    fake = await startFakeOpenAI(Array.isArray(script) ? script : flowScript(script));
    return runCliProcess(['run', task, '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', ...extra], { STEPWISE_PYTHON: PYTHON });
  }

  it('keeps a variable between calls, a timeout interrupts a loop without losing it, and the session ends with the task', async () => {
    const r = await run('Use Python to count to 42.', [
      py('import os\nx = 41\nprint("pid", os.getpid())'),
      py('x + 1'),
      py('while True:\n    x = x + 0', 1),
      py('print("still", x)'),
      finish('Counted.'),
    ], ['--no-plan', '--auto-approve', 'read,command']);
    assert.equal(r.code, 0, r.stderr);
    const out = pythonResults(r);
    assert.equal(out.length, 4, JSON.stringify(out));
    const pid = Number(/pid (\d+)/.exec(out[0]!.content)?.[1]);
    assert.ok(pid > 0, out[0]!.content);
    assert.match(out[1]!.content, /^ok\n42$/);
    assert.match(out[2]!.content, /^timed out after 1s: interrupted \(KeyboardInterrupt\); the session and its variables are kept/);
    assert.match(out[2]!.content, /KeyboardInterrupt/);
    assert.equal(out[2]!.isError, true);
    assert.match(out[3]!.content, /^ok\nstill 41$/, 'the variable survived the interrupt');
    assert.ok(r.events.some((e) => e.type === 'tool_output' && e.callId === out[1]!.callId && e.chunk.includes('42')), 'output streams as tool_output');
    assert.equal(alive(pid), false, 'the Python process ended with the task');
    assert.ok(offeredTools(fake!.chatRequests()[0]!).includes('python_execute'), 'a data task run directly is offered python_execute');
  });

  it('without approval the code does not run; a task that is not data work is not offered the tool', async () => {
    const code = 'open("ran.txt", "w").write("ran")';
    const refused = await run('Analyse the data in data.csv.', [py(code), finish('Could not.')], ['--no-plan', '--auto-approve', 'read']);
    assert.equal(refused.code, 0, refused.stderr);
    const [result] = pythonResults(refused);
    assert.match(result!.content, /No terminal to ask/);
    assert.match(result!.content, /did not run/);
    assert.equal(existsSync(path.join(ws, 'ran.txt')), false, 'the code never ran');
    await fake!.close();

    const plain = await run('Fix the typo in README.md.', [finish('Nothing to fix.')], ['--no-plan', '--auto-approve', 'read,command']);
    assert.equal(plain.code, 0, plain.stderr);
    const tools = offeredTools(fake!.chatRequests()[0]!);
    assert.ok(tools.includes('run_command') && !tools.includes('python_execute'), tools.join(', '));
  });

  it('the session gets the one child environment (no key by name or value) and what it prints is redacted before the model sees it', async () => {
    const key = 'sk-test-python-KEY-0123456789abcdef0123';
    await writeFile(path.join(ws, 'secret.txt'), `token=${key}\n`);
    fake = await startFakeOpenAI([
      py('import os\nopen("py-env.txt", "w").write("\\n".join(k + "=" + v for k, v in os.environ.items()))'),
      py('print(open("secret.txt").read())'),
      finish('Done.'),
    ]);
    const r = await runCliProcess(['run', 'Use Python to read secret.txt.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--no-plan', '--auto-approve', 'read,command'],
      { STEPWISE_PYTHON: PYTHON, OPENAI_API_KEY: key, INNOCENT: `x${key}` });
    assert.equal(r.code, 0, r.stderr);
    const env = await readFile(path.join(ws, 'py-env.txt'), 'utf8');
    assert.match(env, /^PATH=/m, 'the environment was dumped');
    assert.ok(!env.includes(key), 'the Python process has no key, by name or by value');
    const printed = pythonResults(r)[1]!;
    assert.ok(!printed.content.includes(key), printed.content);
    for (const request of fake.chatRequests()) assert.ok(!request.rawBody.includes(key), 'no model request carries the key');
  });

  it('a planned data task: the planner offers the analyst, whose chart PNG the saved report embeds', async () => {
    await writeFile(path.join(ws, 'sales.csv'), 'region,month,sales\nnorth,1,120\nsouth,1,80\nnorth,2,150\neast,2,95\nsouth,2,60\n');
    const analysis = [
      'import pandas as pd, matplotlib.pyplot as plt',
      'df = pd.read_csv("sales.csv")',
      'totals = df.groupby("region")["sales"].sum().sort_values(ascending=False)',
      'totals.plot.bar(title="Sales by region")',
      'plt.ylabel("sales")',
      'save_chart("sales-by-region")',
      'show_table(totals.reset_index(), n=10)',
    ].join('\n');
    const plan = { goal: 'Sales by region', thought: 'One analysis step.', steps: [{ title: 'Analyse sales', description: 'Total sales by region from sales.csv, with a bar chart.', role: 'analyst' }] };
    const r = await run('Analyse sales.csv: total sales by region, with a chart.', {
      planner: [call('create_plan', plan)],
      'step:Analyse sales': [py(analysis), finish('North leads with 270; chart saved.')],
      updater: () => call('keep_plan', {}),
      report: [call('write_report', { summary: 'North sells most.', findings: ['north 270, south 140, east 95'], verification: '', left: [] })],
    }, ['--plan', '--auto-approve', 'read,edit,command']);
    assert.equal(r.code, 0, r.stderr);
    const planner = requestsOf(fake!.requests, 'planner')[0]!;
    assert.match(JSON.stringify(planner.body?.messages), /- analyst: analyses data files/);
    const step = requestsOf(fake!.requests, 'step:Analyse sales')[0]!;
    assert.ok(offeredTools(step).includes('python_execute'));
    assert.match(JSON.stringify(step.body?.messages), /top 10 rows/, 'the analyst prompt carries the data rules');
    const [result] = pythonResults(r);
    assert.match(result!.content, /\| region \| sales \|\n\|---\|---\|\n\| north \| 270 \|/, result!.content);
    const chart = /Charts saved: (\S+\.png)/.exec(result!.content)?.[1] ?? '';
    assert.ok(chart.startsWith('.stepwise/reports/charts/'), result!.content);
    assert.equal(readFileSync(path.join(ws, chart)).subarray(1, 4).toString(), 'PNG');
    const report = r.events.find((e): e is AgentEventOf<'report'> => e.type === 'report');
    assert.ok(report?.path, 'the report was saved');
    const saved = await readFile(path.join(ws, report.path), 'utf8');
    const link = path.posix.relative(path.posix.dirname(report.path), chart);
    assert.ok(saved.includes(`](${link})`), `the report embeds ${link}:\n${saved}`);
    assert.match(saved, /## Tables\n\n\| region \| sales \|\n\|---\|---\|\n\| north \| 270 \|\n\| south \| 140 \|\n\| east \| 95 \|\n\n## Findings/, 'the table show_table printed is in the report (and so in the panel, which renders it)');
    assert.match(report.markdown, /\| north \| 270 \|/);
    assert.match(saved, new RegExp(`!\\[[^\\]]*\\]\\(${link.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)`));
  });
});
