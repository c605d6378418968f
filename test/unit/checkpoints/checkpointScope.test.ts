import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runTask } from '../../../src/agent/flow/runTask';
import { builtinTools } from '../../../src/agent/tools/builtins';
import { TaskGuards, WORKSPACE_WRITERS } from '../../../src/agent/flow/taskGuards';
import { TaskCheckpoints } from '../../../src/agent/checkpoints/taskCheckpoints';
import { EventStream } from '../../../src/agent/events/eventStream';
import { silentLogger } from '../../../src/agent/ports';
import { GitCheckpointStore, openGitCheckpointStore } from '../../../src/node/checkpoints/gitCheckpointStore';
import { ExecaCommandRunner } from '../../../src/node/execaCommandRunner';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { call, finish, fixedClock, flowModel, harness } from '../flow/flowHarness';

/** A workspace of `n` small files in a few folders, so a full look and a scoped one differ in work. */
async function tree(ws: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const file = path.join(ws, `src/pkg${i % 4}/mod${i % 5}/f${i}.ts`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `export const v${i} = ${i};\n`);
  }
}

async function openStore(base: string, ws: string, taskId = 'task-1', maxFileBytes?: number): Promise<GitCheckpointStore> {
  const opened = await openGitCheckpointStore({ home: path.join(base, 'home'), workspace: ws, taskId, ...(maxFileBytes ? { maxFileBytes } : {}) });
  assert.ok(opened.store instanceof GitCheckpointStore, opened.offReason);
  return opened.store;
}

/** The tree a fresh store (its own index, a full look) makes of the workspace now. */
async function fullTree(base: string, ws: string, maxFileBytes?: number): Promise<string> {
  const store = await openStore(path.join(base, `fresh-${Math.random().toString(36).slice(2)}`), ws, 'fresh', maxFileBytes);
  return (await store.snapshot()).tree;
}

// Counted at a real git store over real files: what a checkpoint after a write costs, and that the
// scoped look never gives a different tree from a full one.
describe('checkpoints after a write look at the written paths alone (real git store, real files)', () => {
  let base: string;
  beforeEach(async () => (base = await mkdtemp(path.join(os.tmpdir(), 'stepwise-cp-scope-'))));
  afterEach(async () => rm(base, { recursive: true, force: true }));

  it('a checkpoint after a one-file write stages one path with at most three git processes, none reading the index for a changed file; a command makes the next one look at everything and its file is captured', async () => {
    const ws = path.join(base, 'ws');
    await tree(ws, 60);
    const store = await openStore(base, ws);
    const model = flowModel({
      direct: [
        call('write_file', { path: 'src/pkg1/mod1/new.ts', content: 'one\n' }),
        call('edit_file', { path: 'src/pkg2/mod2/f2.ts', edits: [{ search: 'v2 = 2', replace: 'v2 = 22' }] }),
        call('write_file', { path: 'src/pkg3/mod3/f3.ts', content: 'three\n' }),
        call('run_command', { command: 'printf made > made-by-command.txt && rm src/pkg0/mod0/f0.ts' }),
        call('write_file', { path: 'last.txt', content: 'last\n' }),
        finish('Done.'),
      ],
    });
    const h = harness(model, { task: 'Change files', planMode: 'never', verify: { mode: 'off', commands: [] } });
    h.options.workspace = new NodeWorkspace(ws);
    h.options.commands = new ExecaCommandRunner({ killGraceMs: 500 });
    h.options.checkpoints = { store };
    const seen: { full: number; scoped: number; gitProcesses: number; indexReads: number; pathsStaged: number }[] = [];
    const snapshot = store.snapshot.bind(store);
    store.snapshot = async (signal, written) => {
      const before = { ...store.work };
      const out = await snapshot(signal, written);
      const after = store.work;
      seen.push({ full: after.full - before.full, scoped: after.scoped - before.scoped, gitProcesses: after.gitProcesses - before.gitProcesses, indexReads: after.indexReads - before.indexReads, pathsStaged: after.pathsStaged - before.pathsStaged });
      return out;
    };
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);

    const list = await store.list();
    assert.deepEqual(list.map((c) => c.tool ?? c.kind), ['task_start', 'write_file', 'edit_file', 'write_file', 'run_command', 'write_file', 'finish']);
    // Snapshots in order: start (full), the first write reuses it, then one per call after a write or the command, finish, end.
    const scopedOnes = seen.filter((s) => s.scoped === 1);
    assert.equal(scopedOnes.length, 3, 'the checkpoints after write_file, edit_file and write_file look at one path each');
    for (const s of scopedOnes) assert.ok(s.full === 0 && s.pathsStaged === 1 && s.gitProcesses <= 3, JSON.stringify(s));
    // The new file goes through the index (git add, write-tree); the two changed files are patched into the tree (cat-file, hash-object, mktree).
    assert.deepEqual(scopedOnes.map((s) => s.indexReads), [2, 0, 0]);
    const afterCommand = list.find((c) => c.tool === 'write_file' && c.seq! > list.find((d) => d.tool === 'run_command')!.seq!)!;
    const files = async (tree: string, rel: string) => (await store.readFile(tree, rel)) && Buffer.from((await store.readFile(tree, rel))!).toString();
    assert.equal(await files(afterCommand.tree, 'made-by-command.txt'), 'made', 'the file the command made is in the next checkpoint');
    assert.equal(await store.readFile(afterCommand.tree, 'src/pkg0/mod0/f0.ts'), undefined, 'the file the command deleted is gone from it');
    const runCommandCp = list.find((c) => c.tool === 'run_command')!;
    assert.equal(await files(runCommandCp.tree, 'src/pkg3/mod3/f3.ts'), 'three\n', 'the scoped checkpoint holds the write before it');
    assert.equal(await files(runCommandCp.tree, 'src/pkg2/mod2/f2.ts'), 'export const v2 = 22;\n');
    assert.equal(list.at(-1)!.tree, await fullTree(base, ws), 'the last checkpoint equals a full look at the workspace');
  });

  it('with a hook configured every checkpoint after a write looks at everything, and what the hook wrote is captured', async () => {
    const ws = path.join(base, 'ws');
    await tree(ws, 10);
    const store = await openStore(base, ws);
    const model = flowModel({
      direct: [call('write_file', { path: 'a.txt', content: 'a\n' }), call('write_file', { path: 'b.txt', content: 'b\n' }), finish('Done.')],
    });
    const h = harness(model, { task: 'Write', planMode: 'never', verify: { mode: 'off', commands: [] } });
    h.options.workspace = new NodeWorkspace(ws);
    h.options.commands = new ExecaCommandRunner({ killGraceMs: 500 });
    h.options.checkpoints = { store };
    h.options.hooks = [{ source: 'test', config: { PostToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'printf hooked >> by-hook.txt' }] }] } }];
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(store.work.scoped, 0, 'nothing is vouched for when hooks run commands');
    const second = (await store.list()).filter((c) => c.tool === 'write_file')[1]!;
    assert.equal(Buffer.from((await store.readFile(second.tree, 'by-hook.txt'))!).toString(), 'hooked', 'the hook after the first write is in the checkpoint before the second');
  });

  it('a write while a command runs in the background makes the next checkpoint look at everything (the command may end, having written, before it)', async () => {
    const ws = path.join(base, 'ws');
    await tree(ws, 10);
    const store = await openStore(base, ws);
    let running: string[] = ['bg-1'];
    const commands = Object.assign(new ExecaCommandRunner({ killGraceMs: 500 }), { backgroundCommands: () => running });
    const events = new EventStream('task-1', Date.now);
    const guards = new TaskGuards({ workspace: new NodeWorkspace(ws), commands, events, logger: silentLogger, clock: fixedClock, checkpoints: { store } });
    const signal = new AbortController().signal;
    await guards.checkpoints.take('task_start');
    await guards.beforeTool({ id: 'w1', name: 'write_file', arguments: '{}' }, 'edit', signal);
    await guards.workspace.writeFile('a.txt', 'a\n');
    running = [];
    await writeFile(path.join(ws, 'by-background.txt'), 'late\n');
    await guards.beforeTool({ id: 'w2', name: 'write_file', arguments: '{}' }, 'edit', signal);
    assert.deepEqual([store.work.full, store.work.scoped], [3, 0]);
    const last = (await store.list()).at(-1)!;
    assert.equal(Buffer.from((await store.readFile(last.tree, 'by-background.txt'))!).toString(), 'late\n');
    // With nothing in the background the next write is vouched for again.
    await guards.workspace.writeFile('b.txt', 'b\n');
    await guards.beforeTool({ id: 'w3', name: 'write_file', arguments: '{}' }, 'edit', signal);
    assert.deepEqual([store.work.full, store.work.scoped], [3, 1]);
  });

  it('a write reported while a snapshot runs is looked at by the next checkpoint (never reused away)', async () => {
    const ws = path.join(base, 'ws');
    await tree(ws, 10);
    const store = await openStore(base, ws);
    const asked: (readonly string[] | undefined)[] = [];
    const events = new EventStream('task-1', Date.now);
    const task = new TaskCheckpoints({ store }, events, silentLogger, fixedClock);
    const snapshot = store.snapshot.bind(store);
    let during: (() => Promise<void>) | undefined;
    store.snapshot = async (signal, written) => {
      asked.push(written);
      await during?.();
      during = undefined;
      return snapshot(signal, written);
    };
    await task.take('task_start');
    task.willWrite();
    // A call that wrote nothing (write_file with the content the file has): nothing to look at.
    await task.take('tool', { callId: 'c1' });
    task.willWrite();
    task.wrote('a.txt');
    await writeFile(path.join(ws, 'a.txt'), 'a\n');
    during = async () => {
      task.wrote('late.txt');
      await writeFile(path.join(ws, 'late.txt'), 'late\n');
    };
    await task.take('tool', { callId: 'c2' });
    // Even a failed edit's "changed nothing" does not hide the write made meanwhile.
    task.willWrite();
    task.changedNothing();
    await task.take('tool', { callId: 'c3' });
    assert.deepEqual(asked, [undefined, ['a.txt'], ['late.txt']]);
    assert.deepEqual(task.work, { snapshots: 3, scoped: 2, reused: 1 });
    const last = (await store.list()).at(-1)!;
    assert.equal(Buffer.from((await store.readFile(last.tree, 'late.txt'))!).toString(), 'late\n');
  });

  // git / index: processes the snapshot starts, and those reading the index (changed files: cat-file, hash-object, mktree; a new
  // plain file: cat-file, add, write-tree; otherwise the listing: ls-files, update-index when something is staged or dropped, write-tree);
  // no git: a full look.
  const cases: { name: string; setup?: (ws: string) => Promise<void>; write: Record<string, string | null>; git?: number; index?: number }[] = [
    { name: 'a plain new file', write: { 'src/pkg1/mod1/added.ts': 'x\n' }, git: 3, index: 2 },
    { name: 'two changed files', write: { 'src/pkg1/mod1/f1.ts': 'a\n', 'src/pkg2/mod2/f2.ts': 'b\n' }, git: 3, index: 0 },
    { name: 'an ignored file (not staged, as a full look would not)', setup: async (ws) => writeFile(path.join(ws, '.gitignore'), 'build/\n'), write: { 'build/out.js': 'x\n' }, git: 3, index: 2 },
    { name: 'an ignored file beside a plain one', setup: async (ws) => writeFile(path.join(ws, '.gitignore'), '*.log\n'), write: { 'run.log': 'x\n', 'src/pkg1/mod1/f1.ts': 'a\n' }, git: 3, index: 2 },
    { name: 'an executable file changed (its mode kept)', setup: async (ws) => chmod(path.join(ws, 'src/pkg1/mod1/f1.ts'), 0o755), write: { 'src/pkg1/mod1/f1.ts': 'run\n' }, git: 3, index: 0 },
    { name: 'a deleted file (the listing removes it)', write: { 'src/pkg1/mod1/f1.ts': null }, git: 3, index: 3 },
    { name: 'a secret file (never staged)', write: { 'config/.env': 'KEY=1\n' }, git: 3, index: 3 },
    { name: 'a file over the size cap (left out)', write: { 'big.bin': 'x'.repeat(3000) }, git: 3, index: 3 },
    {
      name: 'a file in a nested repository (left to its own .git)',
      setup: async (ws) => {
        await mkdir(path.join(ws, 'nested'), { recursive: true });
        execFileSync('git', ['init', '-q'], { cwd: path.join(ws, 'nested') });
      },
      write: { 'nested/inner.txt': 'x\n' },
      git: 2, // ls-files and write-tree: nothing to stage
      index: 2,
    },
    { name: 'a .gitignore (the rules change: full look)', write: { '.gitignore': 'src/pkg1/\n' } },
    { name: 'the root .stepwiseignore (full look)', write: { '.stepwiseignore': 'src/pkg2/\n' } },
    {
      name: 'a file through a linked folder (its target changed: full look)',
      setup: async (ws) => symlink(path.join(ws, 'src/pkg3'), path.join(ws, 'linked')),
      write: { 'linked/mod3/f3.ts': 'via link\n' },
    },
    { name: 'a path outside the workspace (full look)', write: { '../outside.txt': 'x\n' } },
  ];
  for (const c of cases) {
    it(`scoped snapshot, table: ${c.name}`, async () => {
      const ws = path.join(base, 'ws');
      await tree(ws, 20);
      await c.setup?.(ws);
      const store = await openStore(base, ws, 'task-1', 2048);
      await store.snapshot();
      for (const [rel, text] of Object.entries(c.write)) {
        if (text === null) await rm(path.join(ws, rel));
        else {
          await mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
          await writeFile(path.join(ws, rel), text);
        }
      }
      const before = { ...store.work };
      const snap = await store.snapshot(undefined, Object.keys(c.write));
      assert.deepEqual(
        { scoped: store.work.scoped - before.scoped, full: store.work.full - before.full },
        c.git === undefined ? { scoped: 0, full: 1 } : { scoped: 1, full: 0 },
      );
      // A full look of this store keeps files it already held that are now ignored, as it always did; a scoped one must equal a fresh full look.
      if (c.git === undefined) return;
      assert.deepEqual([store.work.gitProcesses - before.gitProcesses, store.work.indexReads - before.indexReads], [c.git, c.index]);
      assert.equal(snap.tree, await fullTree(base, ws, 2048));
    });
  }

  it('patched trees and the index stay one story: a second change in a folder costs two processes, and the index learns the patched files with the next paths', async () => {
    const ws = path.join(base, 'ws');
    await tree(ws, 20);
    const store = await openStore(base, ws);
    await store.snapshot();
    const step = async (change: Record<string, string>, written: string[] | undefined) => {
      for (const [rel, text] of Object.entries(change)) await writeFile(path.join(ws, rel), text);
      const before = { ...store.work };
      const snap = await store.snapshot(undefined, written);
      assert.equal(snap.tree, await fullTree(base, ws), `the tree after ${JSON.stringify(change)} is a full look's`);
      return [store.work.gitProcesses - before.gitProcesses, store.work.indexReads - before.indexReads];
    };
    assert.deepEqual(await step({ 'src/pkg1/mod1/f1.ts': 'one\n' }, ['src/pkg1/mod1/f1.ts']), [3, 0], 'cat-file, hash-object, mktree');
    assert.deepEqual(await step({ 'src/pkg1/mod1/f1.ts': 'two\n' }, ['src/pkg1/mod1/f1.ts']), [2, 0], 'the folders are known: hash-object, mktree');
    // A new file goes through the index, with the files patched before it (else write-tree would forget
    // them); its folder is known, so no cat-file.
    assert.deepEqual(await step({ 'src/pkg1/mod1/new.ts': 'new\n' }, ['src/pkg1/mod1/new.ts']), [2, 2], 'add, write-tree');
    assert.deepEqual(await step({ 'src/pkg2/mod2/f2.ts': 'x\n' }, ['src/pkg2/mod2/f2.ts']), [3, 0]);
    // A full look finds the patched file changed against the index and stages it.
    await step({ 'src/pkg3/mod3/f3.ts': 'y\n' }, undefined);
    assert.deepEqual(await step({ 'src/pkg2/mod2/f2.ts': 'z\n' }, ['src/pkg2/mod2/f2.ts']), [3, 0]);
  });

  it('the first snapshot of a process looks at everything even when told the written paths (the index may be older)', async () => {
    const ws = path.join(base, 'ws');
    await tree(ws, 10);
    await (await openStore(base, ws)).snapshot();
    await writeFile(path.join(ws, 'src/pkg1/mod1/f1.ts'), 'changed while no task ran\n');
    await writeFile(path.join(ws, 'told.txt'), 'told\n');
    const again = await openStore(base, ws, 'task-2');
    const snap = await again.snapshot(undefined, ['told.txt']);
    assert.deepEqual([again.work.full, again.work.scoped], [1, 0]);
    assert.equal(snap.tree, await fullTree(base, ws));
  });

  it('only tools that write through the workspace are vouched for (a new edit tool must be added here on purpose)', () => {
    const editTools = builtinTools().filter((t) => t.category === 'edit').map((t) => t.name).sort();
    assert.deepEqual(editTools, [...WORKSPACE_WRITERS].sort());
  });
});
