import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandSandbox } from '../../../src/node/sandbox/commandSandbox';

// A sandbox's private folders carry its process id; folders of processes that died without cleaning
// up (an editor killing its extension host) are removed by the next sandbox that opens.

describe('sandbox folders: removed on dispose, and stale ones of dead processes swept', () => {
  it('sweeps a dead process\'s folder, keeps its own until dispose', async () => {
    // A pid that just exited (reaped), so no process has it.
    const dead = spawnSync('true').pid!;
    const stale = path.join(tmpdir(), `stepwise-sandbox-${dead}-stale`);
    mkdirSync(stale, { recursive: true });
    const ws = mkdtempSync(path.join(tmpdir(), 'stepwise-folders-ws-'));
    const mine = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`stepwise-sandbox-${process.pid}-`));
    const before = new Set(mine());
    const box = await CommandSandbox.open({ mode: 'workspace-write', workspace: ws, allowHosts: ['localhost'], webPolicy: { allowHosts: [], denyHosts: [] } });
    try {
      assert.ok(box instanceof CommandSandbox);
      assert.equal(existsSync(stale), false, 'the dead process\'s folder is gone');
      const own = mine().filter((n) => !before.has(n));
      assert.equal(own.length, 2, `its temp folder and its proxy folder: ${own.join(', ')}`);
      await box.dispose();
      assert.deepEqual(readdirSync(tmpdir()).filter((n) => own.includes(n)), [], 'dispose removes both');
    } finally {
      rmSync(ws, { recursive: true, force: true });
      rmSync(stale, { recursive: true, force: true });
    }
  });
});
