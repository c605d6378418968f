import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CheckpointStore } from '../../../src/agent/checkpoints/checkpointTypes';
import { runTask } from '../../../src/agent/flow/runTask';
import { openGitCheckpointStore } from '../../../src/node/checkpoints/gitCheckpointStore';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { call, finish, flowModel, harness } from '../flow/flowHarness';

// Snapshots are counted at a real git checkpoint store over a real folder: a tool call that follows
// calls that wrote nothing costs none; the trees recorded still show every change.
describe('checkpoints: no snapshot for a call when nothing ran or was written since the last one (real git store)', () => {
  let base: string;
  beforeEach(async () => (base = await mkdtemp(path.join(os.tmpdir(), 'stepwise-cp-work-'))));
  afterEach(async () => rm(base, { recursive: true, force: true }));

  it('failed edits and the first write reuse the start snapshot; the write after a write takes one', async () => {
    const ws = path.join(base, 'ws');
    await new NodeWorkspace(base).writeFile('ws/notes.txt', 'hello\n');
    const opened = await openGitCheckpointStore({ home: path.join(base, 'home'), workspace: ws, taskId: 'task-1' });
    assert.ok(opened.store, opened.offReason);
    const real = opened.store;
    let snapshots = 0;
    const counted: CheckpointStore = { ...bind(real), snapshot: (signal) => ((snapshots += 1), real.snapshot(signal)) };
    const model = flowModel({
      direct: [
        call('edit_file', { path: 'notes.txt', edits: [{ search: 'not there', replace: 'x' }] }),
        call('edit_file', { path: 'missing.txt', edits: [{ search: 'a', replace: 'b' }] }),
        call('write_file', { path: 'a.txt', content: 'one\n' }),
        call('write_file', { path: 'b.txt', content: 'two\n' }),
        call('read_file', { path: 'a.txt' }),
        finish('Wrote a.txt and b.txt.'),
      ],
    });
    const h = harness(model, { task: 'Write two files', planMode: 'never', verify: { mode: 'off', commands: [] } });
    h.options.workspace = new NodeWorkspace(ws);
    h.options.checkpoints = { store: counted };
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);

    // task start, the call after the first write, finish and end: 4 (one per checkpoint would be 8).
    assert.equal(snapshots, 4);
    const list = await real.list();
    const tools = list.filter((c) => c.kind === 'tool');
    assert.equal(tools.length, 4, 'every call that may write still has its checkpoint');
    const start = list.find((c) => c.kind === 'task_start')!;
    assert.deepEqual(tools.slice(0, 3).map((c) => c.tree), [start.tree, start.tree, start.tree]);
    assert.notEqual(tools[3]!.tree, start.tree);
    assert.equal(Buffer.from((await real.readFile(tools[3]!.tree, 'a.txt'))!).toString(), 'one\n', 'the checkpoint before the second write holds the first');
    const end = list.at(-1)!;
    assert.equal(Buffer.from((await real.readFile(end.tree, 'b.txt'))!).toString(), 'two\n');
  });

  it('a command always makes the next call look again (it may have written anything)', async () => {
    const ws = path.join(base, 'ws');
    await new NodeWorkspace(base).writeFile('ws/notes.txt', 'hello\n');
    const opened = await openGitCheckpointStore({ home: path.join(base, 'home'), workspace: ws, taskId: 'task-2' });
    const real = opened.store!;
    let snapshots = 0;
    const counted: CheckpointStore = { ...bind(real), snapshot: (signal) => ((snapshots += 1), real.snapshot(signal)) };
    const model = flowModel({
      direct: [call('run_command', { command: 'echo hi' }), call('run_command', { command: 'echo again' }), finish('Ran them.')],
    });
    const h = harness(model, { task: 'Run things', planMode: 'never', verify: { mode: 'off', commands: [] }, commands: [{ output: [{ stream: 'stdout', chunk: 'hi\n' }] }, { output: [{ stream: 'stdout', chunk: 'again\n' }] }] });
    h.options.workspace = new NodeWorkspace(ws);
    h.options.checkpoints = { store: counted };
    await runTask(h.options);
    // start; the first command reuses it; the second looks again; finish; end.
    assert.equal(snapshots, 4);
  });

  it('the first snapshot runs in the background: the model is asked before it ends, and the first write waits for it', async () => {
    const ws = path.join(base, 'ws');
    await new NodeWorkspace(base).writeFile('ws/notes.txt', 'hello\n');
    const opened = await openGitCheckpointStore({ home: path.join(base, 'home'), workspace: ws, taskId: 'task-3' });
    const real = opened.store!;
    const model = flowModel({ direct: [call('write_file', { path: 'notes.txt', content: 'changed\n' }), finish('Changed it.')] });
    let askedBeforeFirstSnapshot: boolean | undefined;
    const counted: CheckpointStore = {
      ...bind(real),
      snapshot: async (signal) => {
        if (askedBeforeFirstSnapshot === undefined) {
          // Hold the first snapshot until the model has been asked (at most 100 turns of the event loop).
          for (let i = 0; i < 100 && model.calls === 0; i++) await new Promise((resolve) => setImmediate(resolve));
          askedBeforeFirstSnapshot = model.calls > 0;
        }
        return real.snapshot(signal);
      },
    };
    const h = harness(model, { task: 'Change notes', planMode: 'never', verify: { mode: 'off', commands: [] } });
    h.options.workspace = new NodeWorkspace(ws);
    h.options.checkpoints = { store: counted };
    await runTask(h.options);
    assert.equal(askedBeforeFirstSnapshot, true);
    const [start, beforeWrite] = await real.list();
    assert.deepEqual([start!.kind, beforeWrite!.kind], ['task_start', 'tool']);
    assert.equal(Buffer.from((await real.readFile(start!.tree, 'notes.txt'))!).toString(), 'hello\n', 'the start checkpoint holds the file as it was before the write');
  });
});

function bind(store: CheckpointStore): CheckpointStore {
  return {
    snapshot: (s) => store.snapshot(s), record: (c) => store.record(c), list: () => store.list(), changes: (a, b) => store.changes(a, b),
    readFile: (t, p) => store.readFile(t, p), apply: (t, p, s) => store.apply(t, p, s),
  };
}
