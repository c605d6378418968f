import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent, EventEnvelope } from '../../../src/shared/events';
import { groupThreads, HistoryStore, type ThreadRun } from '../../../src/node/historyStore';

const env = (runId: string, seq: number, event: AgentEvent, ts = 1000 + seq): EventEnvelope => ({ v: 1, seq, runId, ts, event });

describe('HistoryStore (JSON lines of envelopes)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'stepwise-history-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends one envelope per line, in order, and reads them back', async () => {
    const store = new HistoryStore(path.join(dir, 'history'));
    for (let seq = 0; seq < 50; seq++) store.append(env('run-a', seq, { type: 'text_delta', text: `t${seq}` }));
    await store.flush();
    const lines = readFileSync(store.fileOf('run-a'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 50);
    assert.deepEqual((await store.read('run-a')).map((e) => e.seq), [...Array(50).keys()]);
  });

  it('lists runs with their task and outcome, skipping broken lines', async () => {
    const store = new HistoryStore(dir);
    store.append(env('run-a', 0, { type: 'run_started', task: 'First task', workspace: '/ws', model: 'm' }));
    store.append(env('run-a', 1, { type: 'run_finished', outcome: 'finished', turns: 1 }));
    store.append(env('run-b', 0, { type: 'run_started', task: 'Second task', workspace: '/ws', model: 'm' }));
    await store.flush();
    appendFileSync(store.fileOf('run-b'), '{not json\n');
    const list = await store.list();
    const byId = Object.fromEntries(list.map((e) => [e.runId, e]));
    assert.equal(byId['run-a']?.task, 'First task');
    assert.equal(byId['run-a']?.outcome, 'finished');
    assert.equal(byId['run-b']?.task, 'Second task');
    assert.equal(byId['run-b']?.outcome, undefined);
  });

  it('keeps a follow-up in its task: one file, one entry (task of the first run, outcome of the last), also after a reload', async () => {
    const first = new HistoryStore(dir);
    first.append(env('run-a', 0, { type: 'run_started', task: 'Plan the greeting', workspace: '/ws', model: 'm' }));
    first.append(env('run-a', 1, { type: 'plan_created', goal: 'g', thought: 't', steps: [] }));
    first.append(env('run-a', 2, { type: 'run_finished', outcome: 'finished', turns: 1 }));
    await first.flush();
    assert.equal(await first.nextSeq('run-a'), 3, 'a follow-up continues after the last stored seq');
    assert.equal(await first.nextSeq('run-unknown'), 0);
    // The follow-up continues the same run's file and seq.
    first.append(env('run-a', 3, { type: 'run_started', task: 'And in French?', workspace: '/ws', model: 'm', resumedFrom: 'run-a' }));
    first.append(env('run-a', 4, { type: 'run_finished', outcome: 'failed', turns: 1 }));
    await first.flush();
    const reloaded = new HistoryStore(dir);
    assert.deepEqual(await reloaded.list(50, { threads: true }), [{ runId: 'run-a', task: 'Plan the greeting', ts: 1000, outcome: 'failed' }]);
    assert.deepEqual((await reloaded.read('run-a')).map((e) => e.event.type), ['run_started', 'plan_created', 'run_finished', 'run_started', 'run_finished']);
  });

  it('folds follow-ups stored as runs of their own (older histories) into the entry of their root', async () => {
    const store = new HistoryStore(dir);
    store.append(env('root', 0, { type: 'run_started', task: 'Root task', workspace: '/ws', model: 'm' }, 10));
    store.append(env('root', 1, { type: 'run_finished', outcome: 'finished', turns: 1 }, 11));
    store.append(env('child', 0, { type: 'run_started', task: 'Follow-up', workspace: '/ws', model: 'm', resumedFrom: 'root' }, 20));
    store.append(env('child', 1, { type: 'run_finished', outcome: 'cancelled', turns: 1 }, 21));
    store.append(env('other', 0, { type: 'run_started', task: 'Other task', workspace: '/ws', model: 'm' }, 30));
    await store.flush();
    const list = await store.list(50, { threads: true });
    // One entry named by the root's task, pointing at the latest run (resuming it follows resumedFrom back).
    assert.deepEqual(list.map((e) => [e.runId, e.task, e.outcome]).sort(), [['child', 'Root task', 'cancelled'], ['other', 'Other task', undefined]]);
    assert.equal((await store.list()).length, 3, 'without threads (the CLI) every stored run is listed');
  });

  const run = (runId: string, ts: number, extra: Partial<ThreadRun> = {}): ThreadRun => ({ runId, task: runId, ts, ...extra });
  const cases: Array<{ name: string; runs: ThreadRun[]; expected: Array<[string, string | undefined]> }> = [
    { name: 'no follow-ups', runs: [run('b', 2), run('a', 1, { outcome: 'finished' })], expected: [['b', undefined], ['a', 'finished']] },
    { name: 'a chain of two follow-ups, newest first', runs: [run('c', 3, { resumedFrom: 'b', outcome: 'failed' }), run('b', 2, { resumedFrom: 'a' }), run('a', 1, { outcome: 'finished' })], expected: [['c', 'failed']] },
    { name: 'a follow-up whose root is not listed stands alone', runs: [run('x', 5, { resumedFrom: 'gone', outcome: 'finished' })], expected: [['x', 'finished']] },
    { name: 'a cycle does not hang', runs: [run('p', 1, { resumedFrom: 'q' }), run('q', 2, { resumedFrom: 'p', outcome: 'finished' })], expected: [['p', undefined], ['q', 'finished']] },
  ];
  for (const c of cases) {
    it(`groupThreads: ${c.name}`, () => {
      assert.deepEqual(groupThreads(c.runs).map((e) => [e.runId, e.outcome]), c.expected);
    });
  }

  it('refuses run ids that could leave the folder', () => {
    const store = new HistoryStore(dir);
    assert.throws(() => store.fileOf('../evil'), /invalid run id/);
    assert.equal(path.dirname(store.fileOf('ok-id_1')), dir);
  });

  it('keeps side files (flow state, parent run)', async () => {
    const store = new HistoryStore(dir);
    await store.writeSidecar('run-a', 'meta', { resumedFrom: 'run-0' });
    assert.deepEqual(await store.readSidecar('run-a', 'meta'), { resumedFrom: 'run-0' });
    assert.equal(await store.readSidecar('run-x', 'state'), undefined);
  });
});
