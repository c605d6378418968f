import type { ChildProcess } from 'node:child_process';
import { startWatchdogProcess } from './watchdogProcess';

// Plain JS run by `node -e` on Windows: it keeps the pids of our running command shells (lines
// `+pid` / `-pid` on its stdin, a pipe from us) and, when the pipe closes (however we ended,
// TerminateProcess included), ends each one's tree by parent chain, as `windowsProcesses.ts` does.
const WINDOWS_WATCHDOG_SOURCE = `
const cp = require('child_process');
const roots = new Set();
let buffer = '';
function list() {
  try {
    const out = cp.execFileSync('wmic', ['process', 'get', 'ProcessId,ParentProcessId,Name'], { windowsHide: true, stdio: ['ignore', 'pipe', 'ignore'], timeout: 20000 });
    const text = out[1] === 0 || out[0] === 0xff ? out.toString('utf16le') : out.toString('utf8');
    return text.split(/\\r?\\n/).map((l) => /^(.*\\S)\\s+(\\d+)\\s+(\\d+)\\s*$/.exec(l)).filter(Boolean).map((m) => ({ ppid: Number(m[2]), pid: Number(m[3]) }));
  } catch { return []; }
}
function finish() {
  for (let round = 0; round < 3 && roots.size > 0; round++) {
    const rows = list();
    const found = [...roots];
    for (let i = 0; i < found.length; i++) for (const r of rows) if (r.ppid === found[i] && !found.includes(r.pid)) found.push(r.pid);
    for (const pid of found.reverse()) { try { process.kill(pid); } catch {} }
    for (const root of roots) { try { cp.execFileSync('taskkill', ['/T', '/F', '/PID', String(root)], { windowsHide: true, stdio: 'ignore', timeout: 20000 }); } catch {} }
    if (!rows.some((r) => found.includes(r.pid))) break;
  }
  process.exit(0);
}
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    const pid = Number(line.slice(1));
    if (line[0] === '+') roots.add(pid); else if (line[0] === '-') roots.delete(pid);
  }
});
process.stdin.on('end', finish);
process.stdin.on('close', finish);
process.stdin.on('error', finish);
`;

let watchdog: ChildProcess | undefined;

/**
 * Windows' watchdog (no /proc to sweep): a small detached Node process told the pid of every
 * command shell we start and end (`windowsWatchdogTrack`). If this process dies without ending
 * them (killed, crashed), the pipe closes and the watchdog ends each shell's tree by parent chain.
 * Never throws; returns the watchdog's pid.
 */
export function ensureWindowsWatchdog(): number | undefined {
  if (watchdog && watchdog.exitCode === null && !watchdog.killed) return watchdog.pid;
  watchdog = startWatchdogProcess(WINDOWS_WATCHDOG_SOURCE, []);
  return watchdog?.pid;
}

/** Tells the Windows watchdog (when running) that a command shell started (`true`) or its tree ended. */
export function windowsWatchdogTrack(pid: number, running: boolean): void {
  if (!watchdog?.stdin || watchdog.exitCode !== null) return;
  try {
    watchdog.stdin.write(`${running ? '+' : '-'}${pid}\n`);
  } catch {}
}
