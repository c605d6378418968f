import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A fresh temp folder (realpath) and its removal. */
export async function makeTempDir(prefix = 'stepwise-node-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const created = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir: created, cleanup: () => rm(created, { recursive: true, force: true }) };
}

export { processState, isRunning } from '../../support/processes';

/** Kills pids a test started, in case an assertion failed before the code under test did. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}

/** Reads the integers (one per line) a test command wrote. */
export function readPids(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}
