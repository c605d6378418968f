import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { historyCommand } from '../../../src/cli/historyCommand';
import { historyAction } from '../../../src/cli/historyActions';
import type { CliIo } from '../../../src/cli/cliIo';
import type { AgentEvent } from '../../../src/shared/events';

describe('stepwise history list|export|delete|prune (real files under STEPWISE_HOME)', () => {
  let home: string;
  let out: string[];
  let err: string[];
  const io = (...argv: string[]): CliIo => ({
    argv: ['history', ...argv], env: { STEPWISE_HOME: home }, cwd: home, color: false, signal: new AbortController().signal,
    stdout: (text) => out.push(text), stderr: (text) => err.push(text),
  });
  const save = (runId: string, events: AgentEvent[], ageDays = 0) => {
    const file = path.join(home, 'history', `${runId}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, events.map((event, seq) => JSON.stringify({ v: 1, seq, runId, ts: Date.UTC(2026, 0, 1), event })).join('\n') + '\n');
    const when = new Date(Date.now() - ageDays * 86_400_000);
    utimesSync(file, when, when);
  };

  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-cli-history-'));
    out = [];
    err = [];
    save('run-a', [{ type: 'run_started', task: 'Fix the login form', workspace: '/w', model: 'm' }, { type: 'run_finished', outcome: 'finished', summary: 'Tokens expire now.', turns: 1 }]);
    save('run-b', [{ type: 'run_started', task: 'Write notes', workspace: '/w', model: 'm' }], 45);
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const cases: { argv: string[]; code: number; stdout?: RegExp; stderr?: RegExp }[] = [
    { argv: ['list'], code: 0, stdout: /run-a .*Fix the login form[\s\S]*run-b .*Write notes/ },
    { argv: ['list', 'expire'], code: 0, stdout: /^run-a / },
    { argv: ['list', 'nothing-here'], code: 0, stdout: /No stored task matches/ },
    { argv: ['export', 'run-a'], code: 0, stdout: /# Stepwise task[\s\S]*Tokens expire now\./ },
    { argv: ['export', 'run-a', '--format', 'json'], code: 0, stdout: /"run_started"/ },
    { argv: ['export', 'run-a', '--format', 'pdf'], code: 2, stderr: /markdown or json/ },
    { argv: ['export', 'no-such'], code: 2, stderr: /not a stored task id/ },
    { argv: ['export', '../etc'], code: 2, stderr: /not a stored task id/ },
    { argv: ['delete', 'run-a'], code: 2, stderr: /add --yes/ },
    { argv: ['frobnicate'], code: 2, stderr: /unknown history action/ },
  ];
  for (const c of cases) {
    it(`${c.argv.join(' ')} -> exit ${c.code}`, async () => {
      assert.equal(await historyCommand(io(...c.argv), historyAction), c.code);
      if (c.stdout) assert.match(out.join(''), c.stdout);
      if (c.stderr) assert.match(err.join(''), c.stderr);
    });
  }

  it('delete --yes removes the task; prune removes what is older than 30 days', async () => {
    assert.equal(await historyCommand(io('delete', 'run-a', '--yes'), historyAction), 0);
    assert.equal(existsSync(path.join(home, 'history', 'run-a.jsonl')), false);
    assert.equal(await historyCommand(io('prune'), historyAction), 0);
    assert.match(out.join(''), /Removed 1 task\(s\): run-b/);
    assert.equal(existsSync(path.join(home, 'history', 'run-b.jsonl')), false);
  });

  it('export --out writes the file', async () => {
    assert.equal(await historyCommand(io('export', 'run-a', '--out', 'task.md'), historyAction), 0);
    assert.match(readFileSync(path.join(home, 'task.md'), 'utf8'), /Fix the login form/);
  });
});
