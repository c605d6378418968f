import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INDEX_FILE, parseIndexLine } from '../../../src/node/historyIndex';
import { HistoryStore } from '../../../src/node/historyStore';
import type { AgentEvent } from '../../../src/shared/events';

// The work history list and search do is counted (run files parsed, run files scanned), never timed.
describe('History index: list reads the index, search stops at the limit (real files)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'stepwise-history-index-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const RUNS = 120;
  const eventsOf = (i: number): AgentEvent[] => [
    { type: 'run_started', task: `Task number ${i} about ${i % 2 ? 'odd' : 'even'} things`, workspace: `/ws/${i % 3}`, model: 'm' },
    { type: 'tool_output', callId: 'c', stream: 'stdout', chunk: 'x'.repeat(500) },
    {
      type: 'usage', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 }, total: { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
      task: { effectiveTokens: 12, costUsd: 0.5 },
    },
    { type: 'run_finished', outcome: i % 5 ? 'finished' : 'failed', summary: `done ${i}`, turns: 1 },
  ];
  async function fill(store: HistoryStore, count = RUNS): Promise<void> {
    for (let i = 0; i < count; i++) eventsOf(i).forEach((event, seq) => store.append({ v: 1, seq, runId: `run-${i}`, ts: 1000 + i, event }));
    await store.flush();
  }

  it('lists a full history from the index alone: no run file is parsed', async () => {
    await fill(new HistoryStore(dir));
    const fresh = new HistoryStore(dir);
    const entries = await fresh.list(50);
    assert.equal(entries.length, 50);
    assert.equal(entries[0]!.runId, `run-${RUNS - 1}`, 'the run written last comes first');
    assert.deepEqual(entries[0], { runId: `run-${RUNS - 1}`, task: `Task number ${RUNS - 1} about odd things`, ts: 1000 + RUNS - 1, outcome: 'finished' });
    assert.equal(fresh.work.parsed, 0);
    const indexed = (await fresh.index.load()).runs.get('run-10')!;
    assert.deepEqual([indexed.workspace, indexed.outcome, indexed.costUsd, indexed.effectiveTokens], ['/ws/1', 'failed', 0.5, 12]);
  });

  it('reads runs written before the index once, then never again', async () => {
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 10; i++) {
      const lines = eventsOf(i).map((event, seq) => JSON.stringify({ v: 1, seq, runId: `old-${i}`, ts: 1000 + i, event }));
      writeFileSync(path.join(dir, `old-${i}.jsonl`), lines.join('\n') + '\n');
    }
    writeFileSync(path.join(dir, 'no-start.jsonl'), JSON.stringify({ v: 1, seq: 0, runId: 'no-start', ts: 1, event: { type: 'text_delta', text: 'x' } }) + '\n');
    const first = new HistoryStore(dir);
    assert.equal((await first.list()).length, 10);
    assert.equal(first.work.parsed, 11);
    const second = new HistoryStore(dir);
    assert.equal((await second.list()).length, 10);
    assert.equal(second.work.parsed, 0, 'the file without a start is remembered too');
  });

  it('search: a word no run has parses no file; a word every run has reads only up to the limit', async () => {
    await fill(new HistoryStore(dir));
    const none = new HistoryStore(dir);
    assert.deepEqual(await none.search('zebra', 20), []);
    assert.equal(none.work.parsed, 0);
    assert.equal(none.work.scanned, RUNS);
    const many = new HistoryStore(dir);
    assert.equal((await many.search('things', 5)).length, 5);
    assert.equal(many.work.scanned, 5);
    assert.equal(many.work.parsed, 5);
    const exact = new HistoryStore(dir);
    assert.deepEqual((await exact.search('even 42', 50)).map((e) => e.runId), ['run-42']);
  });

  const matchCases: Array<{ name: string; task: string; query: string; found: boolean }> = [
    { name: 'a quoted word (JSON escapes it) is still found', task: 'say "hello" twice', query: '"hello"', found: true },
    { name: 'every word must be there', task: 'first second', query: 'first third', found: false },
    { name: 'upper case in the file, lower in the query', task: 'Deploy The SERVICE', query: 'service deploy', found: true },
    { name: 'a word only in tool output is not found', task: 'plain', query: 'xxxxx', found: false },
    { name: 'non-ASCII words', task: '修复登录页面', query: '登录', found: true },
  ];
  for (const c of matchCases) {
    it(`search: ${c.name}`, async () => {
      const store = new HistoryStore(dir);
      const events: AgentEvent[] = [{ type: 'run_started', task: c.task, workspace: '/w', model: 'm' }, { type: 'tool_output', callId: 'c', stream: 'stdout', chunk: 'xxxxxxxx' }];
      events.forEach((event, seq) => store.append({ v: 1, seq, runId: 'r', ts: 1, event }));
      await store.flush();
      assert.equal((await new HistoryStore(dir).search(c.query)).length, c.found ? 1 : 0);
    });
  }

  it('a deleted run leaves the list, and a long index is compacted to what it says', async () => {
    const store = new HistoryStore(dir);
    await fill(store, 40);
    for (let i = 0; i < 39; i++) await store.delete(`run-${i}`);
    const lines = () => readFileSync(path.join(dir, INDEX_FILE), 'utf8').trim().split('\n').length;
    assert.ok(lines() > 100);
    assert.deepEqual((await store.list()).map((e) => e.runId), ['run-39']);
    assert.equal(lines(), 2, 'one start and one end line for the one run left');
    assert.deepEqual((await new HistoryStore(dir).list()).map((e) => e.runId), ['run-39']);
  });
});

// The index is read by hand at the CLI's start (no zod): each row is a line as it may be found on
// disk (ours, torn, foreign, edited by hand) and whether the list takes it.
describe('parseIndexLine: what a line of the history index is taken for', () => {
  const rows: Array<[string, unknown, boolean]> = [
    ['a start', { kind: 'start', runId: 'r', task: 't', ts: 1, last: 2 }, true],
    ['a start with folder and parent', { kind: 'start', runId: 'r', task: 't', ts: 1, last: 2, workspace: '/w', resumedFrom: 'p' }, true],
    ['a start with an extra key (ignored)', { kind: 'start', runId: 'r', task: 't', ts: 1, last: 2, colour: 'red' }, true],
    ['a start without its task', { kind: 'start', runId: 'r', ts: 1, last: 2 }, false],
    ['a start whose task is a number', { kind: 'start', runId: 'r', task: 5, ts: 1, last: 2 }, false],
    ['a start whose time is a string', { kind: 'start', runId: 'r', task: 't', ts: '1', last: 2 }, false],
    ['a start whose time is NaN (null in JSON)', { kind: 'start', runId: 'r', task: 't', ts: null, last: 2 }, false],
    ['a start whose folder is not a string', { kind: 'start', runId: 'r', task: 't', ts: 1, last: 2, workspace: 7 }, false],
    ['a start whose parent is not a string', { kind: 'start', runId: 'r', task: 't', ts: 1, last: 2, resumedFrom: {} }, false],
    ['a finish', { kind: 'finish', runId: 'r', outcome: 'finished', last: 2 }, true],
    ['a finish with its cost', { kind: 'finish', runId: 'r', outcome: 'unverified', last: 2, costUsd: 0.5, effectiveTokens: 10 }, true],
    ['a finish with an unknown outcome', { kind: 'finish', runId: 'r', outcome: 'exploded', last: 2 }, false],
    ['a finish without an outcome', { kind: 'finish', runId: 'r', last: 2 }, false],
    ['a finish whose cost is a string', { kind: 'finish', runId: 'r', outcome: 'failed', last: 2, costUsd: '0.5' }, false],
    ['a finish whose tokens are a string', { kind: 'finish', runId: 'r', outcome: 'failed', last: 2, effectiveTokens: '10' }, false],
    ['a finish without its time', { kind: 'finish', runId: 'r', outcome: 'failed' }, false],
    ['a nostart', { kind: 'nostart', runId: 'r', last: 2 }, true],
    ['a nostart without its time', { kind: 'nostart', runId: 'r' }, false],
    ['a gone', { kind: 'gone', runId: 'r' }, true],
    ['a gone without a run id', { kind: 'gone' }, false],
    ['a run id that is a number', { kind: 'gone', runId: 5 }, false],
    ['an unknown kind', { kind: 'moved', runId: 'r' }, false],
    ['no kind', { runId: 'r', last: 1 }, false],
    ['null', null, false],
    ['a string', 'start', false],
    ['a number', 42, false],
    ['an array', [{ kind: 'gone', runId: 'r' }], false],
  ];
  for (const [name, value, taken] of rows) {
    it(`${name}: ${taken ? 'taken' : 'skipped'}`, () => assert.equal(parseIndexLine(value) !== undefined, taken));
  }

  it('a skipped line leaves the runs of the others as they were', async () => {
    mkdirSync(dir2, { recursive: true });
    const lines = [
      { kind: 'start', runId: 'a', task: 'kept', ts: 1, last: 1 },
      { kind: 'finish', runId: 'a', outcome: 'exploded', last: 5 },
      '{"kind":"start","runId":"b","task":"torn',
      { kind: 'finish', runId: 'a', outcome: 'failed', last: 3 },
    ].map((line) => (typeof line === 'string' ? line : JSON.stringify(line)));
    writeFileSync(path.join(dir2, INDEX_FILE), lines.join('\n') + '\n');
    const { runs, lines: count } = await new HistoryStore(dir2).index.load();
    assert.equal(count, 4);
    assert.deepEqual([...runs.values()], [{ runId: 'a', task: 'kept', ts: 1, last: 3, outcome: 'failed' }]);
  });
  let dir2: string;
  beforeEach(() => (dir2 = mkdtempSync(path.join(os.tmpdir(), 'stepwise-history-index-lines-'))));
  afterEach(() => rmSync(dir2, { recursive: true, force: true }));
});
