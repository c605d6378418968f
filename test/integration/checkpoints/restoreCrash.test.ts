import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Checkpoint } from '../../../src/agent/checkpoints/checkpointTypes';
import { journalFile, openGitCheckpointStore, repoFolder } from '../../../src/node/checkpoints/gitCheckpointStore';
import { fingerprint } from '../../support/fingerprint';
import { CLI_PATH } from '../cli/cliProcess';

// A restore is all or nothing across crashes: the built CLI restores 4,000 files and is killed
// (SIGKILL) at random points; the next `stepwise` command finds the journal and rolls it back, so
// the tree is byte for byte the state before the restore or the state after it, never a mix.

const FILES = 4000;
const TRIALS = 20;
const TASK = 'crash-task';

/** The task's start (A) and end (B): every file differs, A has a folder B lacks and B has folders A lacks. */
async function writeState(ws: string, state: 'A' | 'B'): Promise<void> {
  const writes: Promise<void>[] = [];
  for (let i = 0; i < FILES; i++) {
    const rel = `src/d${i % 40}/f${i}.txt`;
    const text = state === 'A' ? `start ${i}\n` : `end of the task ${i}\n`.repeat(1 + (i % 3));
    writes.push(writeFile(path.join(ws, rel), text));
  }
  await Promise.all(writes);
  await rm(path.join(ws, state === 'A' ? 'gen' : 'old'), { recursive: true, force: true });
  for (let k = 0; k < 10; k++) {
    const rel = state === 'A' ? `old/only-in-a/k${k}/x.txt` : `gen/new${k}/y.txt`;
    await mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await writeFile(path.join(ws, rel), `${state} ${k}\n`);
  }
}

describe('restore journal: SIGKILL while restoring 4,000 files (built CLI)', function () {
  this.timeout(900_000);
  let base: string;
  let ws: string;
  let home: string;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'stepwise-crash-'));
    ws = path.join(base, 'ws');
    home = path.join(base, 'home');
    for (let d = 0; d < 40; d++) await mkdir(path.join(ws, `src/d${d}`), { recursive: true });
    ws = await realpath(ws);
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const start = (args: string[]) => spawn(process.execPath, [CLI_PATH, ...args], { env: { PATH: process.env.PATH ?? '', HOME: base, STEPWISE_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  const finished = (child: ReturnType<typeof start>) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      child.stdout!.resume();
      child.on('close', (code, signal) => resolve({ code, signal, stderr }));
    });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const exists = (file: string) => stat(file).then(() => true, () => false);

  it(`after the next stepwise command the tree is all before or all after, byte for byte (${TRIALS} trials)`, async () => {
    await writeState(ws, 'A');
    const opened = await openGitCheckpointStore({ home: path.join(home, 'checkpoints'), workspace: ws, taskId: TASK });
    assert.ok(opened.store, opened.offReason);
    const take = async (id: string, kind: Checkpoint['kind']) => {
      const snap = await opened.store!.snapshot();
      await opened.store!.record({ id, tree: snap.tree, kind, time: Date.now() });
    };
    await take('c1', 'task_start');
    const stateA = await fingerprint(ws);
    await writeState(ws, 'B');
    await take('c2', 'task_end');
    const stateB = await fingerprint(ws);
    const journal = journalFile(repoFolder(path.join(home, 'checkpoints'), ws));
    const restoreArgs = ['restore', TASK, '--to', 'c1', '--files', '--force', '--workspace', ws];

    // One whole restore first: it must reach A, and its length bounds the random kill times.
    let t = Date.now();
    const whole = await finished(start(restoreArgs));
    const wholeMs = Date.now() - t;
    assert.equal(whole.code, 0, whole.stderr);
    assert.deepEqual(await fingerprint(ws), stateA);

    const seen = { before: 0, after: 0, mixedAtKill: 0, journalAtKill: 0 };
    for (let trial = 0; trial < TRIALS; trial++) {
      await writeState(ws, 'B');
      assert.deepEqual(await fingerprint(ws), stateB);
      const child = start(restoreArgs);
      const done = finished(child);
      let ended = false;
      void done.then(() => (ended = true));
      // Odd trials: any moment from the start; even trials: once the journal is written (the writes).
      if (trial % 2 === 1) await sleep(Math.random() * wholeMs);
      else {
        t = Date.now();
        while (!ended && !(await exists(journal)) && Date.now() - t < wholeMs * 3) await sleep(2);
        await sleep(Math.random() * wholeMs * 0.6);
      }
      if (await exists(journal)) seen.journalAtKill++;
      child.kill('SIGKILL');
      await done;
      const atKill = await fingerprint(ws);
      if (JSON.stringify(atKill) !== JSON.stringify(stateA) && JSON.stringify(atKill) !== JSON.stringify(stateB)) seen.mixedAtKill++;

      const next = await finished(start(['checkpoints', TASK, '--workspace', ws]));
      assert.equal(next.code, 0, next.stderr);
      const now = await fingerprint(ws);
      const isA = JSON.stringify(now) === JSON.stringify(stateA);
      const isB = JSON.stringify(now) === JSON.stringify(stateB);
      assert.ok(isA || isB, `trial ${trial}: the tree is a mix of before and after (${Object.keys(now).filter((p) => now[p] !== stateA[p]).length} paths differ from after)`);
      assert.equal(await exists(journal), false, `trial ${trial}: the journal is gone`);
      if (isB) seen.before++;
      else seen.after++;
    }
    console.log(`      ${JSON.stringify({ ...seen, wholeRestoreMs: wholeMs })}`);
    // The trials exercised what they claim: some were killed mid-way with a half-written tree, and rolled back.
    assert.ok(seen.mixedAtKill > 0, 'at least one kill left a mixed tree for the next command to roll back');
    assert.ok(seen.before > 0);
  });
});
