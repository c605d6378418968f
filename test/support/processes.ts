import { existsSync, readFileSync } from 'node:fs';

/**
 * What /proc says about a pid: 'gone', or its state letter ('Z' for a zombie, which here is as
 * good as gone: PID 1 does not reap orphans).
 */
export function processState(pid: number): string {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return 'gone';
  try {
    const stat = readFileSync(file, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? 'gone';
  } catch {
    return 'gone';
  }
}

/** True when the pid runs (exists and is not a zombie). */
export function isRunning(pid: number): boolean {
  const state = processState(pid);
  return state !== 'gone' && state !== 'Z' && state !== 'X';
}
