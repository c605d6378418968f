import { spawn, type ChildProcess } from 'node:child_process';
import { nodeChildEnvironment } from './childEnv';
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
  try {
    const child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, TAG_VAR, SESSION_TAG], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      // The watchdog must not carry a tag it would sweep (nested Stepwise runs inherit one).
      env: nodeChildEnvironment({ kind: 'tool', explicit: { ELECTRON_RUN_AS_NODE: '1' }, omit: [TAG_VAR] }),
    });
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    // Neither the child nor its pipe may keep this process alive.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    watchdog = child;
    return child.pid;
  } catch {
    return undefined;
  }
}
