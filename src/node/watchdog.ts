import type { ChildProcess } from 'node:child_process';
import { startWatchdogProcess } from './watchdogProcess';
import { canSweep, SESSION_TAG, TAG_VAR } from './processTag';
import { ensureWindowsWatchdog } from './windowsWatchdog';

// Plain JS run by `node -e`: it waits for its stdin (a pipe from us) to close, which happens
// however we end, SIGKILL included, then SIGKILLs every process carrying our session tag.
const WATCHDOG_SOURCE = `
const fs = require('fs');
const needle = process.argv[1] + '=' + process.argv[2];
function sweep() {
  let hits = 0;
  let names = [];
  try { names = fs.readdirSync('/proc'); } catch {}
  for (const name of names) {
    if (!/^\\d+$/.test(name) || Number(name) === process.pid) continue;
    let env = '';
    try { env = fs.readFileSync('/proc/' + name + '/environ', 'latin1'); } catch {}
    if (!env) continue;
    if (env.split('\\0').some((e) => e === needle || e.startsWith(needle + '/'))) {
      try { process.kill(Number(name), 'SIGKILL'); hits++; } catch {}
    }
  }
  return hits;
}
let done = false;
function finish() {
  if (done) return;
  done = true;
  for (let i = 0; i < 5 && sweep() > 0; i++);
  process.exit(0);
}
process.on('SIGHUP', () => {});
process.on('SIGINT', () => {});
process.stdin.on('data', () => {});
process.stdin.on('end', finish);
process.stdin.on('close', finish);
process.stdin.on('error', finish);
`;

let watchdog: ChildProcess | undefined;

/**
 * Starts (once per process) a small detached Node process that ends this process's commands if
 * this process dies without doing it itself (SIGKILL, a crash): it holds a pipe from us and, when
 * the pipe closes, SIGKILLs every process tagged with our session (see `processTag`). Linux only
 * (it needs /proc); elsewhere it does nothing. Never throws; returns the watchdog's pid.
 */
export function ensureWatchdog(): number | undefined {
  // Windows has no /proc: its watchdog is told the command shells instead (`windowsWatchdog.ts`).
  if (process.platform === 'win32') return ensureWindowsWatchdog();
  if (!canSweep) return undefined;
  if (watchdog && watchdog.exitCode === null && !watchdog.killed) return watchdog.pid;
  watchdog = startWatchdogProcess(WATCHDOG_SOURCE, [TAG_VAR, SESSION_TAG]);
  return watchdog?.pid;
}
