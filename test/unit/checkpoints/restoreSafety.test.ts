import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Checkpoint, CheckpointStore } from '../../../src/agent/checkpoints/checkpointTypes';
import { restoreCheckpoint } from '../../../src/agent/checkpoints/restoreCheckpoint';
import { TaskCheckpoints } from '../../../src/agent/checkpoints/taskCheckpoints';
import { EventStream } from '../../../src/agent/events/eventStream';
import { journalFile, openGitCheckpointStore, repoFolder } from '../../../src/node/checkpoints/gitCheckpointStore';
import { fingerprint } from '../../support/fingerprint';

/** Every object's raw content in a store (blobs, trees, commits): what `git cat-file --batch-all-objects` sees. */
export function storeObjects(gitDir: string): Buffer {
  return execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { env: { PATH: process.env.PATH ?? '', GIT_DIR: gitDir }, maxBuffer: 1 << 30 });
}

describe('restore safety (real git, real files)', function () {
  this.timeout(30_000);
  let base: string;
  let ws: string;
  let home: string;
  let store: CheckpointStore;
  let n = 0;

  const take = async (kind: Checkpoint['kind']): Promise<Checkpoint> => {
    const snap = await store.snapshot();
    const cp: Checkpoint = { id: `c${++n}`, tree: snap.tree, kind, time: Date.now(), ...(snap.large && Object.keys(snap.large).length ? { large: snap.large } : {}) };
    await store.record(cp);
    return cp;
  };
  const open = async (maxFileBytes = 1000) => {
    const setup = await openGitCheckpointStore({ home, workspace: ws, taskId: 'task-1', maxFileBytes });
    assert.ok(setup.store, setup.offReason);
    store = setup.store;
  };
  const put = async (rel: string, content: string | Buffer) => {
    await mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await writeFile(path.join(ws, rel), content);
  };
  const read = (rel: string) => readFile(path.join(ws, rel));

  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'stepwise-safe-'));
    ws = path.join(base, 'ws');
    home = path.join(base, 'home');
    await mkdir(ws);
    n = 0;
  });
  afterEach(async () => {
    await chmod(path.join(ws, 'locked.txt'), 0o644).catch(() => undefined);
    await rm(base, { recursive: true, force: true });
  });

  it('stores and restores raw bytes whatever .gitattributes says (text=auto CRLF, working-tree-encoding=UTF-16, ident, a filter)', async () => {
    const crlf = Buffer.from('one\r\ntwo\r\n');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\n', 'utf16le')]);
    const ident = Buffer.from('// $Id: 0123456789abcdef $\nconst x = 1;\r\n');
    await put('.gitattributes', '* text=auto\n*.u16 text working-tree-encoding=UTF-16\n*.id ident\n*.f filter=upper\n');
    await put('sub/.gitattributes', '* text eol=lf\n');
    await put('a.txt', crlf);
    await put('b.u16', utf16);
    await put('c.id', ident);
    await put('sub/d.txt', crlf);
    await put('e.f', 'lower\r\n');
    await open();
    const start = await take('task_start');
    const objects = storeObjects(repoFolder(home, ws));
    for (const bytes of [crlf, utf16, ident]) assert.ok(objects.includes(bytes), 'the store holds the raw bytes');
    for (const rel of ['a.txt', 'b.u16', 'c.id', 'sub/d.txt', 'e.f']) await put(rel, 'changed by the task\n');
    await take('task_end');
    const result = await restoreCheckpoint(store, { target: start, now: Date.now() });
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(await read('a.txt'), crlf);
    assert.deepEqual(await read('b.u16'), utf16);
    assert.deepEqual(await read('c.id'), ident);
    assert.deepEqual(await read('sub/d.txt'), crlf);
    assert.equal((await read('e.f')).toString(), 'lower\r\n');
  });

  it('restores a changed file named ..env.example (paths are checked by segments)', async () => {
    await put('..env.example', 'KEY=\n');
    await put('...', 'dots\n');
    await open();
    const start = await take('task_start');
    await put('..env.example', 'KEY=changed\n');
    await put('...', 'more dots\n');
    await take('task_end');
    const result = await restoreCheckpoint(store, { target: start, now: Date.now() });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal((await read('..env.example')).toString(), 'KEY=\n');
    assert.equal((await read('...')).toString(), 'dots\n');
  });

  it('never copies a secret file into the store, even when .gitignore re-includes it, and says so; a restore leaves it alone', async () => {
    const key = 'sk-live-0123456789abcdefKNOWNKEY';
    await put('.gitignore', '*.log\n!.env\n');
    await put('.env', `OPENAI_API_KEY=${key}\n`);
    await put('config/.env.production', `TOKEN=${key}\n`);
    await put('deploy/server.pem', `-----BEGIN PRIVATE KEY-----\n${key}\n`);
    await put('.env.example', 'OPENAI_API_KEY=\n');
    await open();
    const snap = await store.snapshot();
    assert.deepEqual(snap.skipped.filter((s) => s.secret).map((s) => s.path), ['.env', 'config/.env.production', 'deploy/server.pem']);
    const start: Checkpoint = { id: 'c1', tree: snap.tree, kind: 'task_start', time: Date.now() };
    await store.record(start);
    assert.ok(await store.readFile(start.tree, '.env.example'), 'the template is kept');
    await put('.env', `OPENAI_API_KEY=${key}-rotated\n`);
    await put('notes.txt', 'task wrote this\n');
    await take('task_end');
    const result = await restoreCheckpoint(store, { target: start, now: Date.now() });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal((await read('.env')).toString(), `OPENAI_API_KEY=${key}-rotated\n`, 'the secret file is not the restore\'s business');
    assert.ok(!storeObjects(repoFolder(home, ws)).includes(key), 'the key is in no object of the store');
  });

  it('fingerprints files over the size cap: the user\'s later change stops the restore; the task\'s own growth does not', async () => {
    await put('big.bin', 'small at the start\n');
    await put('grown.bin', 'small too\n');
    await open(1000);
    const start = await take('task_start');
    await put('big.bin', Buffer.alloc(5000, 'a'));
    await put('grown.bin', Buffer.alloc(5000, 'b'));
    const end = await take('task_end');
    assert.deepEqual(Object.keys(end.large ?? {}).sort(), ['big.bin', 'grown.bin']);
    await put('big.bin', Buffer.alloc(5000, 'u')); // the user's edit: same size, other bytes
    const stopped = await restoreCheckpoint(store, { target: start, now: Date.now() });
    assert.deepEqual(stopped, { ok: false, reason: 'conflict', conflicts: ['big.bin'] });
    assert.deepEqual(await read('big.bin'), Buffer.alloc(5000, 'u'), 'nothing was written');
    const kept = await restoreCheckpoint(store, { target: start, choices: { 'big.bin': 'mine' }, now: Date.now() });
    assert.ok(kept.ok, JSON.stringify(kept));
    assert.deepEqual(await read('big.bin'), Buffer.alloc(5000, 'u'));
    assert.equal((await read('grown.bin')).toString(), 'small too\n');
  });

  it('judges user changes against the last content Stepwise wrote: restore (keep mine) → undo restore → undo the task asks about the user\'s line', async () => {
    await put('README.md', '# Project\n');
    await put('src/a.ts', 'a\n');
    await open();
    const taskStart = await take('task_start');
    await put('README.md', '# Project\nA note from the task.\n');
    const step2 = await take('step');
    await put('src/a.ts', 'a changed in step 2\n');
    await take('task_end');
    await put('README.md', '# Project\nA note from the task.\nThe user\'s own line.\n');
    // Restore to before step 2: README is asked about (the user changed it); keep mine; src/a.ts goes back.
    assert.deepEqual(await restoreCheckpoint(store, { target: step2, now: Date.now() }), { ok: false, reason: 'conflict', conflicts: ['README.md'] });
    const restored = await restoreCheckpoint(store, { target: step2, choices: { 'README.md': 'mine' }, now: Date.now() });
    assert.ok(restored.ok, JSON.stringify(restored));
    assert.equal((await read('src/a.ts')).toString(), 'a\n');
    const undoRestore = await restoreCheckpoint(store, { target: restored.before, now: Date.now() });
    assert.ok(undoRestore.ok, JSON.stringify(undoRestore));
    assert.equal((await read('src/a.ts')).toString(), 'a changed in step 2\n');
    // Undo the task: README's last Stepwise content is the task's, so the user's line is a change of theirs.
    const undo = await restoreCheckpoint(store, { target: taskStart, now: Date.now() });
    assert.deepEqual(undo, { ok: false, reason: 'conflict', conflicts: ['README.md'] });
    const keep = await restoreCheckpoint(store, { target: taskStart, choices: { 'README.md': 'mine' }, now: Date.now() });
    assert.ok(keep.ok, JSON.stringify(keep));
    assert.match((await read('README.md')).toString(), /The user's own line/);
    assert.equal((await read('src/a.ts')).toString(), 'a\n');
    // A file a restore wrote counts as Stepwise's: undoing that restore does not ask about it.
    const again = await restoreCheckpoint(store, { target: keep.before, now: Date.now() });
    assert.ok(again.ok, JSON.stringify(again));
    assert.equal((await read('src/a.ts')).toString(), 'a changed in step 2\n');
  });

  it('a restore refused mid-way (a read-only file) changes nothing: created folders are gone, no journal is left', async () => {
    await put('locked.txt', 'v1\n');
    await put('old/keep.txt', 'keep v1\n');
    await open();
    const start = await take('task_start');
    await put('locked.txt', 'v2\n');
    await rm(path.join(ws, 'old'), { recursive: true }); // the restore would create old/ again
    await put('new/deep/file.txt', 'created\n');
    await take('task_end');
    await chmod(path.join(ws, 'locked.txt'), 0o444);
    const before = await fingerprint(ws);
    const result = await restoreCheckpoint(store, { target: start, now: Date.now() });
    assert.equal(result.ok, false);
    assert.match(JSON.stringify(result), /read-only/);
    assert.deepEqual(await fingerprint(ws), before);
    assert.equal(await stat(journalFile(repoFolder(home, ws))).catch(() => undefined), undefined);
  });
});

describe('TaskCheckpoints and secret files (real git store)', function () {
  this.timeout(30_000);
  it('names the secret files left out in one notice per task, however many snapshots see them', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'stepwise-secret-'));
    try {
      const ws = path.join(base, 'ws');
      await mkdir(ws);
      await writeFile(path.join(ws, '.env'), 'OPENAI_API_KEY=sk-0123456789abcdefghij\n');
      await writeFile(path.join(ws, 'a.txt'), 'a\n');
      const setup = await openGitCheckpointStore({ home: path.join(base, 'home'), workspace: ws, taskId: 't1' });
      const events = new EventStream('t1', () => 0);
      const seen: string[] = [];
      events.subscribe((e) => {
        if (e.event.type === 'notice') seen.push(e.event.message);
      });
      const logger = { debug() {}, info() {}, warn() {}, error() {} };
      const task = new TaskCheckpoints(setup, events, logger, { now: () => 0, sleep: () => Promise.resolve() });
      await task.take('task_start');
      await writeFile(path.join(ws, 'id_rsa'), 'PRIVATE\n');
      await writeFile(path.join(ws, 'a.txt'), 'b\n');
      await task.take('tool');
      await task.take('task_end');
      const secretNotices = seen.filter((m) => m.includes('Secret files'));
      assert.equal(secretNotices.length, 1, seen.join('\n'));
      assert.match(secretNotices[0]!, /\.env/);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
