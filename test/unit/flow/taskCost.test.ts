import assert from 'node:assert/strict';
import { resumeTask } from '../../../src/agent/flow/resumeTask';
import { runTask } from '../../../src/agent/flow/runTask';
import { spentByRuns } from '../../../src/agent/flow/taskBudget';
import type { AgentEvent, CostFigures, Usage } from '../../../src/shared/events';
import { call, finish, flowModel, harness, type Harness } from './flowHarness';

const PRICES = { 'scripted-model': { input: 1, cachedInput: 0.1, output: 4 } };
const CALL: Usage = { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 };
/** 1000 + 100 effective tokens; $ (1000 x 1 + 100 x 4) / 1e6. */
const CALL_FIGURES: CostFigures = { effectiveTokens: 1100, costUsd: 0.0014 };

function lastTask(h: Harness): CostFigures | undefined {
  return h.of('usage').at(-1)?.task;
}

function close(actual: CostFigures | undefined, expected: CostFigures, what: string): void {
  assert.ok(actual, `${what}: figures present`);
  assert.equal(actual.effectiveTokens, expected.effectiveTokens, `${what}: effective tokens`);
  assert.ok(Math.abs((actual.costUsd ?? NaN) - (expected.costUsd ?? NaN)) < 1e-9, `${what}: cost ${actual.costUsd} ≈ ${expected.costUsd}`);
}

async function followUp(history: readonly AgentEvent[], answers: number, extra: { limits?: Harness['options']['limits'] } = {}): Promise<Harness> {
  const model = flowModel({ direct: [...Array.from({ length: answers - 1 }, () => call('list_files', { path: '.' }, CALL)), finish('Done again.', CALL)] });
  const h = harness(model, { task: 'unused', prices: PRICES, ...extra });
  const { task: _t, planMode: _p, review: _r, ...rest } = h.options;
  const result = await resumeTask({ ...rest, history, resumedFrom: 'run-1', instruction: 'And once more?' });
  assert.equal(result.outcome, 'finished', result.reason);
  return h;
}

describe('task cost across follow-ups', () => {
  it('a follow-up carries the task’s figures: its usage events add to what the task spent before', async () => {
    const h1 = harness(flowModel({ direct: [call('list_files', { path: '.' }, CALL), finish('Listed.', CALL)] }), { task: 'List files', planMode: 'never', prices: PRICES });
    assert.equal((await runTask(h1.options)).outcome, 'finished');
    close(lastTask(h1), { effectiveTokens: 2200, costUsd: 0.0028 }, 'first run');

    const h2 = await followUp(h1.events, 1);
    const usage = h2.of('usage');
    close(usage.at(-1)?.cost, CALL_FIGURES, 'the follow-up’s own figures (what its budget counts)');
    close(usage.at(-1)?.task, { effectiveTokens: 3300, costUsd: 0.0042 }, 'the task’s figures after the follow-up');

    // A second follow-up over the whole history (both runs, as VS Code stores them in one thread).
    const h3 = await followUp([...h1.events, ...h2.events], 1);
    close(lastTask(h3), { effectiveTokens: 4400, costUsd: 0.0056 }, 'after two follow-ups');
  });

  it('a follow-up on a finished plan counts the plan’s run too', async () => {
    const plan = { goal: 'Two notes', thought: '', steps: [{ title: 'A', description: 'a', role: 'reporter' }, { title: 'B', description: 'b', role: 'reporter' }] };
    const h1 = harness(flowModel({
      planner: [call('create_plan', plan, CALL)],
      'step:A': [finish('A done.', CALL)],
      'step:B': [finish('B done.', CALL)],
      updater: () => call('keep_plan', {}, CALL),
      report: [call('write_report', { summary: 'ok', findings: [], verification: '', left: [] }, CALL)],
    }), { task: 'Write two notes', planMode: 'always', prices: PRICES });
    assert.equal((await runTask(h1.options)).outcome, 'finished');
    const before = lastTask(h1)!;
    const h2 = await followUp(h1.events, 1);
    close(lastTask(h2), { effectiveTokens: before.effectiveTokens + 1100, costUsd: before.costUsd! + 0.0014 }, 'follow-up on a finished plan');
  });

  it('a follow-up gets the token budget afresh (a task stopped by its budget stays resumable)', async () => {
    const h1 = harness(flowModel({ direct: [call('list_files', { path: '.' }, CALL), finish('Listed.', CALL)] }), { task: 'List files', planMode: 'never', prices: PRICES });
    await runTask(h1.options);
    // The task already spent 2200; a 3000 budget still lets a follow-up of 2200 finish.
    const h2 = await followUp(h1.events, 2, { limits: { taskTokenBudget: 3000 } });
    close(lastTask(h2), { effectiveTokens: 4400, costUsd: 0.0056 }, 'figures still add up');
  });
});

describe('spentByRuns: what a stored task spent in all', () => {
  const started = (task: string): AgentEvent => ({ type: 'run_started', task, workspace: '/w', model: 'm' });
  const usage = (effective: number, extra: { cost?: number; task?: CostFigures } = {}): AgentEvent => ({
    type: 'usage', usage: CALL, total: CALL,
    cost: { effectiveTokens: effective, ...(extra.cost !== undefined ? { costUsd: extra.cost } : {}) },
    ...(extra.task ? { task: extra.task } : {}),
  });
  const rows: Array<{ name: string; events: AgentEvent[]; expected: CostFigures | undefined }> = [
    { name: 'no usage at all', events: [started('t')], expected: undefined },
    { name: 'one run: its last figures', events: [started('t'), usage(10, { cost: 1 }), usage(30, { cost: 2 })], expected: { effectiveTokens: 30, costUsd: 2 } },
    { name: 'older histories (no task figures): summed run by run', events: [started('t'), usage(30, { cost: 2 }), started('f'), usage(5, { cost: 1 })], expected: { effectiveTokens: 35, costUsd: 3 } },
    { name: 'task figures already hold the earlier runs', events: [started('t'), usage(30, { cost: 2, task: { effectiveTokens: 30, costUsd: 2 } }), started('f'), usage(5, { cost: 1, task: { effectiveTokens: 35, costUsd: 3 } })], expected: { effectiveTokens: 35, costUsd: 3 } },
    { name: 'an old run, then a new follow-up carrying the task', events: [started('t'), usage(30), started('f'), usage(5, { task: { effectiveTokens: 35 } }), started('g'), usage(7)], expected: { effectiveTokens: 42 } },
    { name: 'a run without usage adds nothing', events: [started('t'), usage(30, { cost: 2 }), started('f')], expected: { effectiveTokens: 30, costUsd: 2 } },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(spentByRuns(row.events), row.expected));
  }
});
