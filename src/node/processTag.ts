import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * The environment variable that marks every process a command starts. Its value is
 * `<session>/<runner>/<command>`: the session names this Node process, then one runner, then
 * one command; a sweep can take any prefix. Children
 * inherit it, including those that leave the process group or the session (`setsid`), so a sweep
 * of `/proc/<pid>/environ` finds them all (Linux only; a process started with a scrubbed
 * environment, e.g. `env -i`, escapes it).
 */
export const TAG_VAR = 'STEPWISE_TASK';

/** This process's session tag, shared by all its command runners (and its watchdog). */
export const SESSION_TAG = `${process.pid}.${randomBytes(4).toString('hex')}`;

let tagCount = 0;

/**
 * A fresh tag under `parent` (default the session): `<parent>/<n>`. The first one arms the exit
 * sweep: whatever way this process exits (a second Ctrl-C, an internal error), no process it tagged
 * outlives it. Armed here, by the module copy that tags (each bundle has its own copy and session),
 * and only once something was tagged: a process that started no command sweeps nothing.
 */
export function nextTag(parent = SESSION_TAG): string {
  if (tagCount === 0) process.on('exit', () => killTaggedSync());
  tagCount += 1;
  return `${parent}/${tagCount}`;
}

/** True when the sweep can work here (a Linux-style /proc with readable environ files). */
export const canSweep = process.platform === 'linux';

/** Whether an environ block (NUL-separated) carries the tag: exactly `value`, or anything under `value/` with `prefix`. */
export function environHasTag(environ: string, value: string, prefix: boolean): boolean {
  const needle = `${TAG_VAR}=${value}`;
  for (const entry of environ.split('\0')) {
    if (entry === needle) return true;
    if (prefix && entry.startsWith(`${needle}/`)) return true;
  }
  return false;
}

const isPid = (name: string): boolean => /^\d+$/.test(name);

/** Pids (other than this process) whose environment carries the tag. Zombies have an empty environ and are not listed. */
export async function findTagged(value: string, prefix = false): Promise<number[]> {
  if (!canSweep) return [];
  const found: number[] = [];
  const names = await readdir('/proc').catch(() => [] as string[]);
  for (const name of names) {
    if (!isPid(name) || Number(name) === process.pid) continue;
    const environ = await readFile(`/proc/${name}/environ`, 'latin1').catch(() => '');
    if (environ && environHasTag(environ, value, prefix)) found.push(Number(name));
  }
  return found;
}

/** `findTagged` without awaiting: for `process.on('exit')`, where nothing asynchronous runs. */
export function findTaggedSync(value: string, prefix = false): number[] {
  if (!canSweep) return [];
  const found: number[] = [];
  let names: string[] = [];
  try {
    names = readdirSync('/proc');
  } catch {}
  for (const name of names) {
    if (!isPid(name) || Number(name) === process.pid) continue;
    let environ = '';
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'latin1');
    } catch {}
    if (environ && environHasTag(environ, value, prefix)) found.push(Number(name));
  }
  return found;
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {}
  }
}

/**
 * Ends every process carrying the tag: SIGTERM, then SIGKILL to those still there after
 * `graceMs`; sweeps again until a round finds nothing (a process may fork while being stopped).
 * Returns the pids that were signalled.
 */
export async function endTagged(value: string, options: { prefix?: boolean; graceMs: number }): Promise<number[]> {
  const ended = new Set<number>();
  for (let round = 0; round < 5; round++) {
    const pids = await findTagged(value, options.prefix);
    if (pids.length === 0) break;
    pids.forEach((pid) => ended.add(pid));
    signalAll(pids, round === 0 ? 'SIGTERM' : 'SIGKILL');
    const deadline = performance.now() + (round === 0 ? options.graceMs : 200);
    while (performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      if ((await findTagged(value, options.prefix)).length === 0) break;
    }
  }
  return [...ended];
}

/** SIGKILLs every process tagged `value` or under it (default: the whole session), synchronously (exit handlers, signals). */
export function killTaggedSync(value = SESSION_TAG): number[] {
  const killed = new Set<number>();
  for (let round = 0; round < 3; round++) {
    const pids = findTaggedSync(value, true);
    if (pids.length === 0) break;
    pids.forEach((pid) => killed.add(pid));
    signalAll(pids, 'SIGKILL');
  }
  return [...killed];
}
