import { readdir, readFile } from 'node:fs/promises';

/**
 * Sends `signal` to every process in the group `pgid`. False when the group is gone (or is not
 * ours to signal); never throws.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while a process of group `pgid` is still running. Zombies do not count: where PID 1
 * does not reap orphans they linger forever, yet still answer `kill(pid, 0)`, so on Linux the
 * group's members are read from /proc.
 */
export async function groupHasLiveMembers(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined) continue;
    const info = parseStat(stat);
    if (info && info.pgrp === pgid && info.state !== 'Z' && info.state !== 'X') return true;
  }
  return false;
}

/** State letter and process group from a `/proc/<pid>/stat` line (the name may hold spaces and parentheses). */
export function parseStat(stat: string): { state: string; ppid: number; pgrp: number } | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = stat.slice(close + 2).split(' ');
  const state = fields[0];
  const ppid = Number(fields[1]);
  const pgrp = Number(fields[2]);
  if (!state || !Number.isInteger(pgrp)) return undefined;
  return { state, ppid, pgrp };
}
