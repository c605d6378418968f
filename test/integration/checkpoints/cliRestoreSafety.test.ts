import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Checkpoint, CheckpointStore } from '../../../src/agent/checkpoints/checkpointTypes';
import { openGitCheckpointStore, repoFolder } from '../../../src/node/checkpoints/gitCheckpointStore';
import { CLI_PATH } from '../cli/cliProcess';

// `stepwise restore` through the built CLI on a task whose checkpoints are real (our git store under
// $STEPWISE_HOME): raw bytes under .gitattributes, a user-edited file over the size cap (exit 4),
// `..env.example`, and a non-ignored .env whose key never reaches the store.

const KEY = 'sk-proj-KNOWNKEY0123456789abcdefghij';
const BIG = 5 * 1024 * 1024 + 100; // over the CLI's default 5 MiB cap

describe('stepwise restore: bytes, size cap, names, secrets (built CLI, real git)', function () {
  this.timeout(180_000);
  let base: string;
  let ws: string;
  let home: string;
  let store: CheckpointStore;
  let n = 0;

  const put = async (rel: string, content: string | Buffer) => {
    await mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await writeFile(path.join(ws, rel), content);
  };
  const take = async (kind: Checkpoint['kind']): Promise<Checkpoint> => {
    const snap = await store.snapshot();
    const cp: Checkpoint = { id: `c${++n}`, tree: snap.tree, kind, time: Date.now(), ...(snap.large && Object.keys(snap.large).length ? { large: snap.large } : {}) };
    await store.record(cp);
    return cp;
  };
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI_PATH, ...args], { env: { PATH: process.env.PATH ?? '', HOME: base, STEPWISE_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'stepwise-clisafe-'));
    await mkdir(path.join(base, 'ws'));
    ws = await realpath(path.join(base, 'ws'));
    home = path.join(base, 'home');
    n = 0;
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const open = async () => {
    const setup = await openGitCheckpointStore({ home: path.join(home, 'checkpoints'), workspace: ws, taskId: 'task-x' });
    assert.ok(setup.store, setup.offReason);
    store = setup.store;
  };

  it('restores exact bytes under text=auto (CRLF), working-tree-encoding=UTF-16 and ident, and a changed ..env.example', async () => {
    const crlf = Buffer.from('a\r\nb\r\n');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('wörld\r\n', 'utf16le')]);
    const ident = Buffer.from('$Id: 3b18e512dba79e4c8300dd08aeb37f8e728b8dad $\n');
    await put('.gitattributes', '* text=auto\n*.txt16 text working-tree-encoding=UTF-16\n*.c ident\n');
    await put('crlf.txt', crlf);
    await put('wide.txt16', utf16);
    await put('x.c', ident);
    await put('..env.example', 'A=\n');
    await open();
    await take('task_start');
    for (const rel of ['crlf.txt', 'wide.txt16', 'x.c']) await put(rel, 'task\n');
    await put('..env.example', 'A=1\n');
    await take('task_end');
    const r = await cli(['restore', 'task-x', '--to', 'c1', '--files', '--workspace', ws]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await readFile(path.join(ws, 'crlf.txt')), crlf);
    assert.deepEqual(await readFile(path.join(ws, 'wide.txt16')), utf16);
    assert.deepEqual(await readFile(path.join(ws, 'x.c')), ident);
    assert.equal(await readFile(path.join(ws, '..env.example'), 'utf8'), 'A=\n');
  });

  it('stops with exit 4 when the user edited a file over the size cap after the task, changing nothing; --force takes the checkpoint', async () => {
    await put('data.bin', 'small at the start\n');
    await open();
    await take('task_start');
    await put('data.bin', Buffer.alloc(BIG, 'T')); // the task made it big
    await take('task_end');
    const users = Buffer.alloc(BIG, 'U');
    await put('data.bin', users); // the user's edit: same size, other bytes
    const r = await cli(['restore', 'task-x', '--to', 'c1', '--files', '--workspace', ws]);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /data\.bin/);
    assert.deepEqual(await readFile(path.join(ws, 'data.bin')), users);
    const forced = await cli(['restore', 'task-x', '--to', 'c1', '--files', '--force', '--workspace', ws]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(await readFile(path.join(ws, 'data.bin'), 'utf8'), 'small at the start\n');
  });

  it('never puts a non-ignored .env (with a known key) into the store', async () => {
    await put('.gitignore', 'dist/\n');
    await put('.env', `OPENAI_API_KEY=${KEY}\n`);
    await put('src/app.js', 'v1\n');
    await open();
    await take('task_start');
    await put('src/app.js', 'v2\n');
    await put('.env', `OPENAI_API_KEY=${KEY}\nMORE=${KEY}\n`);
    await take('task_end');
    const r = await cli(['restore', 'task-x', '--to', 'c1', '--files', '--force', '--workspace', ws]);
    assert.equal(r.code, 0, r.stderr);
    const objects = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { env: { PATH: process.env.PATH ?? '', GIT_DIR: repoFolder(path.join(home, 'checkpoints'), ws) }, maxBuffer: 1 << 30 });
    assert.ok(objects.length > 0);
    assert.ok(!objects.includes(KEY), 'the key is in no object of the store');
    assert.equal(await readFile(path.join(ws, '.env'), 'utf8'), `OPENAI_API_KEY=${KEY}\nMORE=${KEY}\n`, 'the restore left .env alone');
  });
});
