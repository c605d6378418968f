import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { HistoryStore } from '../src/node/historyStore';
import type { AgentEvent } from '../src/shared/events';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median wall time (ms) of `runs` runs of a command (a child process each, as a user's shell starts it). */
export function timeCommand(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
    times.push(performance.now() - t);
    if (r.status !== 0 && r.status !== 1) throw new Error(`${command} ${args.join(' ')}: exit ${r.status} ${String(r.stderr)}`);
  }
  return median(times);
}

/** A stored task as a real run leaves it: a start, a plan, tool calls with output, usage, an end (about 20 KB). */
function taskEvents(i: number): AgentEvent[] {
  const events: AgentEvent[] = [
    { type: 'run_started', task: `Refactor module ${i}: split the parser and add tests`, workspace: '/home/user/project', model: 'gpt-4o' },
    { type: 'plan_created', goal: `module ${i}`, thought: '', steps: [{ id: 's1', title: 'Read the parser', description: '', role: 'coder', status: 'pending' }, { id: 's2', title: 'Split it', description: '', role: 'coder', status: 'pending' }] },
  ];
  for (let c = 0; c < 20; c++) {
    events.push({ type: 'tool_output', callId: `c${c}`, stream: 'stdout', chunk: `line ${c} of output from npm test for module ${i}\n`.repeat(20) });
    events.push({ type: 'usage', usage: { promptTokens: 900, completionTokens: 80, totalTokens: 980 }, total: { promptTokens: 900 * (c + 1), completionTokens: 80 * (c + 1), totalTokens: 980 * (c + 1) } });
  }
  events.push({ type: 'run_finished', outcome: i % 7 ? 'finished' : 'failed', summary: `Module ${i} split into two files.`, turns: 20 });
  return events;
}

/**
 * `stepwise history list` and `history list WORD` (no match) through the built CLI on 1,000 stored
 * tasks written by the real store, each beside its anchor timed in the same run: `ls -t | head |
 * xargs head -n1` and `rg -l`. Also the CLI's start (`--help`) beside `node -e 0`.
 */
export async function benchHistory(tasks = 1000): Promise<Record<string, number | string>> {
  const home = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-history-'));
  const folder = path.join(home, 'history');
  try {
    const store = new HistoryStore(folder);
    for (let i = 0; i < tasks; i++) {
      taskEvents(i).forEach((event, seq) => store.append({ v: 1, seq, runId: `task-${String(i).padStart(5, '0')}`, ts: Date.now(), event }));
      if (i % 50 === 49) await store.flush();
    }
    await store.flush();
    const cli = path.join(__dirname, '..', 'dist', 'cli.js');
    const env = { ...process.env, STEPWISE_HOME: home };
    const rg = spawnSync('rg', ['--version']).status === 0;
    return {
      tasks,
      listMs: timeCommand(process.execPath, [cli, 'history', 'list'], { env }),
      listAnchorMs: timeCommand('sh', ['-c', 'ls -t | head | xargs head -n1'], { cwd: folder }),
      searchMs: timeCommand(process.execPath, [cli, 'history', 'list', 'zebrafinch'], { env }),
      searchAnchorMs: rg ? timeCommand('rg', ['-l', '-i', 'zebrafinch', folder]) : NaN,
      searchAnchor: rg ? 'rg -l' : 'rg not on PATH',
      helpMs: timeCommand(process.execPath, [cli, '--help'], { env }),
      nodeMs: timeCommand(process.execPath, ['-e', '0']),
    };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
