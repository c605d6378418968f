import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

// The exit sweep (src/node/processTag.ts): armed by the first tag a process hands out, in the module
// copy that tags. Real processes: a Node child tags a detached `sleep` (its own session, out of any
// process group a tree kill reaches), then exits at once; the sleep must be gone with it.

const PROCESS_TAG = require.resolve('../../../src/node/processTag');
const TSX = require.resolve('tsx/cjs');

/** True while `pid` runs (a zombie, waiting for its new parent to reap it, counts as ended). */
function running(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Runs a child that starts a detached tagged `sleep` and exits with `process.exit`; the sleep's pid. */
function childThatTags(tagFirst: boolean): number {
  const script = `
    const { spawn } = require('node:child_process');
    const tags = require(${JSON.stringify(PROCESS_TAG)});
    const tag = ${tagFirst ? 'tags.nextTag()' : 'tags.SESSION_TAG + "/untagged-by-nextTag"'};
    const sleep = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env: { ...process.env, [tags.TAG_VAR]: tag } });
    process.stdout.write(String(sleep.pid) + '\\n', () => process.exit(0));`;
  const out = spawnSync(process.execPath, ['--require', TSX, '-e', script], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return Number(out.stdout.trim());
}

describe('processTag: the exit sweep', function () {
  this.timeout(60_000);
  const started: number[] = [];
  after(() => started.forEach((pid) => running(pid) && process.kill(pid, 'SIGKILL')));

  it('a process that handed out a tag kills its detached tagged command when it exits', async () => {
    const pid = childThatTags(true);
    started.push(pid);
    // SIGKILL was sent before the child exited; the kernel may take a moment to end the sleep.
    for (let i = 0; i < 50 && running(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(running(pid), false, `sleep ${pid} outlived the process that started it`);
  });

  it('a process that never handed out a tag arms no sweep (the check above can fail: this sleep survives)', async () => {
    const pid = childThatTags(false);
    started.push(pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(running(pid), true);
    process.kill(pid, 'SIGKILL');
  });

  it('loading the module adds no exit listener; the first tag adds one, later tags none', () => {
    const script = `
      const before = process.listenerCount('exit');
      const tags = require(${JSON.stringify(PROCESS_TAG)});
      const loaded = process.listenerCount('exit');
      tags.nextTag(); const first = process.listenerCount('exit');
      tags.nextTag(); tags.nextTag('x'); const later = process.listenerCount('exit');
      process.stdout.write(JSON.stringify([loaded - before, first - before, later - before]));`;
    const out = spawnSync(process.execPath, ['--require', TSX, '-e', script], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), [0, 1, 1]);
  });
});

