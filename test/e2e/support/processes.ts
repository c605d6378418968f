// Processes as /proc shows them, to check what a test started is gone (PID 1 here does not reap zombies).
import { readdirSync, readFileSync } from 'node:fs';

/** A live (not zombie) process. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Process group id. */
  pgid: number;
  cmdline: string;
}

/** Every live process whose command line contains `needle` (all when empty). */
export function liveProcesses(needle = ''): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      // The fields after the command name: state, ppid, pgrp, ...
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ').pop()!.split(' ');
      if (fields[0] === 'Z' || !cmdline.includes(needle)) continue;
      found.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), cmdline });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Live descendants of `root` (children, their children, ...) whose command line contains `needle`. */
export function descendantProcesses(root: number, needle = ''): ProcessInfo[] {
  const all = liveProcesses();
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!below.has(p.pid) && below.has(p.ppid)) {
        below.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => p.pid !== root && below.has(p.pid) && p.cmdline.includes(needle));
}

/** Whether `pid` is a live (not zombie) process. */
export function isAlive(pid: number): boolean {
  return liveProcesses().some((p) => p.pid === pid);
}
