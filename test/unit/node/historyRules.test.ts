import assert from 'node:assert/strict';
import { historyLimit, historyPruneFromEnv, matchesQuery, searchableText, selectRunsToPrune, type StoredRun } from '../../../src/node/historyRules';
import type { AgentEvent, EventEnvelope } from '../../../src/shared/events';

const DAY = 24 * 3600_000;
const MB = 1024 * 1024;
const NOW = Date.UTC(2026, 10, 26);

function run(runId: string, ageDays: number, mb: number): StoredRun {
  return { runId, lastWritten: NOW - ageDays * DAY, bytes: mb * MB };
}

function envelopes(...events: AgentEvent[]): EventEnvelope[] {
  return events.map((event, seq) => ({ v: 1, seq, runId: 'r1', ts: NOW, event }));
}

describe('history pruning: which runs go', () => {
  const runs = [run('old', 40, 1), run('month', 29, 1), run('big', 2, 150), run('new', 0, 60)];
  const cases: { name: string; maxAgeDays: number; maxSizeMb: number; keep?: string[]; expected: string[] }[] = [
    { name: 'age only: older than 30 days', maxAgeDays: 30, maxSizeMb: 0, expected: ['old'] },
    { name: 'nothing when both limits are 0 (keep everything)', maxAgeDays: 0, maxSizeMb: 0, expected: [] },
    { name: 'size only: oldest first until it fits (212 MB > 200)', maxAgeDays: 0, maxSizeMb: 200, expected: ['old', 'month', 'big'] },
    { name: 'size after age: what age removed counts no more', maxAgeDays: 30, maxSizeMb: 210, expected: ['old', 'month'] },
    { name: 'everything fits: nothing goes', maxAgeDays: 365, maxSizeMb: 1000, expected: [] },
    { name: 'a kept (running) run is never chosen, even when old', maxAgeDays: 1, maxSizeMb: 0, keep: ['old'], expected: ['month', 'big'] },
    { name: 'a kept run still counts toward the size; the next oldest goes instead', maxAgeDays: 0, maxSizeMb: 100, keep: ['big'], expected: ['old', 'month', 'new'] },
    { name: 'a kept run larger than the limit: all others go, it stays', maxAgeDays: 0, maxSizeMb: 10, keep: ['big'], expected: ['old', 'month', 'new'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(selectRunsToPrune(runs, { maxAgeDays: c.maxAgeDays, maxSizeMb: c.maxSizeMb }, NOW, new Set(c.keep ?? [])), c.expected);
    });
  }

  it('orders by last write, not by the order given', () => {
    assert.deepEqual(selectRunsToPrune([run('b', 5, 3), run('a', 9, 3), run('c', 1, 3)], { maxAgeDays: 0, maxSizeMb: 5 }, NOW), ['a', 'b']);
  });
});

describe('history limits from settings and environment', () => {
  const cases: [unknown, number][] = [[30, 30], [0, 0], ['7', 7], [-1, 99], ['abc', 99], [Number.NaN, 99], [undefined, 99], ['', 99], [Infinity, 99], [0.5, 0.5]];
  for (const [value, expected] of cases) it(`${String(value)} -> ${expected}`, () => assert.equal(historyLimit(value, 99), expected));

  it('reads STEPWISE_HISTORY_MAX_AGE_DAYS / _MAX_SIZE_MB with defaults of 30 days and 200 MB', () => {
    assert.deepEqual(historyPruneFromEnv({}), { maxAgeDays: 30, maxSizeMb: 200 });
    assert.deepEqual(historyPruneFromEnv({ STEPWISE_HISTORY_MAX_AGE_DAYS: '0', STEPWISE_HISTORY_MAX_SIZE_MB: '5' }), { maxAgeDays: 0, maxSizeMb: 5 });
  });
});

describe('history search: what a run is found by', () => {
  const stored = envelopes(
    { type: 'run_started', task: 'Fix the Login form', workspace: '/w', model: 'm' },
    { type: 'plan_created', goal: 'working login', thought: '', steps: [{ id: '1', title: 'Read auth.ts', description: 'secret-description', role: 'coder', status: 'pending' }] },
    { type: 'tool_output', callId: 'c', stream: 'stdout', chunk: 'noisy-tool-output' },
    { type: 'step_finished', stepId: '1', status: 'completed', summary: 'Found the validator bug' },
    { type: 'report', markdown: '# Report\nPasswords are checked now' },
    { type: 'run_finished', outcome: 'unverified', summary: 'done mostly', turns: 3 },
  );
  const text = searchableText(stored);
  const cases: [string, boolean][] = [
    ['', true],
    ['   ', true],
    ['login', true],
    ['LOGIN form', true],
    ['auth.ts', true],
    ['validator', true],
    ['passwords', true],
    ['unverified', true],
    ['login missing', false],
    ['noisy-tool-output', false],
    ['secret-description', false],
  ];
  for (const [query, expected] of cases) it(`${JSON.stringify(query)} -> ${expected}`, () => assert.equal(matchesQuery(text, query), expected));
});
