import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { parseProcessList, type WindowsProcess } from '../../src/node/shell/windowsProcesses';
import { EventEnvelope, type AgentEvent } from '../../src/shared/events';

// The Windows suite runs the real Node.js for Windows under Wine (scripts/windows-sim, installed by
// `npm run setup`). A machine without it fails here with the command to run: nothing is skipped.

/** The simulation's cache folder (node.exe, the Wine prefix, the fetch shim). */
export const WINSIM_DIR = process.env.WINSIM_DIR ?? path.join(homedir(), '.cache', 'stepwise-winsim');
const KIT = path.resolve(__dirname, '../../scripts/windows-sim');
const WINE = '/usr/lib/wine/wine64';

/** Throws, naming the set-up command, when the simulation is not installed. */
export function requireSimulation(): void {
  const missing = [path.join(WINSIM_DIR, 'node', 'node.exe'), WINE, path.join(WINSIM_DIR, 'shim', 'fetch-over-http.cjs')].filter((f) => !existsSync(f));
  if (missing.length > 0) throw new Error(`The Windows simulation is not set up (missing ${missing.join(', ')}): run \`npm run setup\` (or bash scripts/windows-sim/setup.sh).`);
}

/** How Wine's Windows programs see a Linux path: `Z:\…`. */
export function winPath(linuxPath: string): string {
  return `Z:${path.resolve(linuxPath).replace(/\//g, '\\')}`;
}

/** A finished Windows process: exit code and output (Wine gives the output only at the end). */
export interface WinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node.exe ARGS…` under Wine through the kit's `node-win`; the process group is killed by its pid if it outlives `timeoutMs`. */
export function runNodeWin(args: string[], env: Record<string, string>, timeoutMs: number): Promise<WinRun> {
  const child = spawn('bash', [path.join(KIT, 'node-win'), ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', WINSIM_DIR, NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The `--json` events a CLI run printed. */
export function eventsOf(run: WinRun): AgentEvent[] {
  return run.stdout.split(/\r?\n/).filter((l) => l.trim().startsWith('{')).map((l) => EventEnvelope.parse(JSON.parse(l)).event);
}

/** Runs a Wine program with its output in a file (Wine's programs need files, not pipes); returns the output. */
function wineOutput(args: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'stepwise-wine-'));
  const out = path.join(folder, 'out.txt');
  try {
    spawnSync('bash', ['-c', `"${WINE}" ${args} > "${out}" 2>/dev/null`], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', WINEPREFIX: path.join(WINSIM_DIR, 'prefix'), WINEDEBUG: '-all' },
      timeout: 30_000,
    });
    const bytes = readFileSync(out);
    return (bytes[1] === 0 || bytes[0] === 0xff ? bytes.toString('utf16le') : bytes.toString('utf8')).replace(/^\uFEFF/, '');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The Windows process list now (`wmic process get Name,ParentProcessId,ProcessId`). */
export function windowsProcesses(): WindowsProcess[] {
  return parseProcessList(wineOutput('wmic process get Name,ParentProcessId,ProcessId'));
}

/** Names of the processes Windows (Wine's wineserver) lists now. */
export function windowsProcessNames(): string[] {
  return windowsProcesses().map((p) => p.name);
}

/** Ends a Windows process the way a crash or Task Manager does (`taskkill /F`: TerminateProcess, no handlers run). */
export function terminateWindowsProcess(pid: number): void {
  wineOutput(`taskkill /F /PID ${pid}`);
}

/** The Windows user's `%LOCALAPPDATA%` inside the Wine prefix, as a Linux path. */
export function localAppDataFolder(): string {
  return path.join(WINSIM_DIR, 'prefix', 'drive_c', 'users', userInfo().username, 'AppData', 'Local');
}
