import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HistoryStore } from '../../../src/node/historyStore';
import type { AgentEvent } from '../../../src/shared/events';

const DAY = 24 * 3600_000;

describe('HistoryStore: search, delete, prune (real files)', () => {
  let folder: string;
  let store: HistoryStore;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'stepwise-history-'));
    store = new HistoryStore(folder);
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  async function save(runId: string, task: string, ageDays: number, extra: AgentEvent[] = []): Promise<void> {
    const events: AgentEvent[] = [{ type: 'run_started', task, workspace: '/w', model: 'm' }, ...extra];
    events.forEach((event, seq) => store.append({ v: 1, seq, runId, ts: Date.now() - ageDays * DAY, event }));
    await store.writeSidecar(runId, 'state', { any: 'state' });
    await store.flush();
    const when = new Date(Date.now() - ageDays * DAY);
    for (const name of await readdir(folder)) if (name.startsWith(`${runId}.`)) await utimes(path.join(folder, name), when, when);
  }

  it('searches tasks, outcomes and reports; most recent first', async () => {
    await save('a', 'Fix login', 3, [{ type: 'run_finished', outcome: 'failed', turns: 1 }]);
    await save('b', 'Write docs', 2, [{ type: 'report', markdown: 'login page documented' }, { type: 'run_finished', outcome: 'finished', turns: 1 }]);
    await save('c', 'Refactor', 1);
    assert.deepEqual((await store.search('login')).map((e) => e.runId), ['b', 'a']);
    assert.deepEqual((await store.search('failed')).map((e) => e.runId), ['a']);
    assert.deepEqual((await store.search('')).map((e) => e.runId), ['c', 'b', 'a']);
    assert.deepEqual(await store.search('nothing-like-this'), []);
  });

  it('deletes a run with its side files and leaves the others', async () => {
    await save('a', 'one', 1);
    await save('b', 'two', 1);
    await store.writeSidecar('a', 'meta', { parent: 'x' });
    assert.equal(await store.delete('a'), true);
    assert.deepEqual((await readdir(folder)).sort(), ['b.jsonl', 'b.state.json', 'task-index.ndjson']);
    assert.equal(await store.delete('a'), false);
    assert.deepEqual(await store.read('a'), []);
    assert.throws(() => store.fileOf('../evil'));
    await assert.rejects(store.delete('../evil'));
  });

  it('prunes by age and never the kept (running) run', async () => {
    await save('old', 'old task', 40);
    await save('running', 'long task', 45);
    await save('new', 'new task', 1);
    assert.deepEqual(await store.prune({ maxAgeDays: 30, maxSizeMb: 0 }, Date.now(), new Set(['running'])), ['old']);
    assert.deepEqual((await store.list()).map((e) => e.runId).sort(), ['new', 'running']);
  });

  it('prunes by size, oldest first, counting side files', async () => {
    await save('a', 'x'.repeat(400_000), 3);
    await save('b', 'y'.repeat(400_000), 2);
    await save('c', 'z'.repeat(400_000), 1);
    const runs = await store.runs();
    assert.ok(runs.every((r) => r.bytes > 400_000), 'events and side files counted');
    assert.deepEqual(await store.prune({ maxAgeDays: 0, maxSizeMb: 1 }, Date.now()), ['a']);
    assert.deepEqual(await store.prune({ maxAgeDays: 0, maxSizeMb: 0 }, Date.now()), []);
    await writeFile(path.join(folder, 'notes.txt'), 'not a run');
    assert.deepEqual((await store.runs()).map((r) => r.runId).sort(), ['b', 'c']);
  });
});
