import { execFile, execFileSync } from 'node:child_process';
import { nodeChildEnvironment } from '../childEnv';

/** One row of the Windows process list. */
export interface WindowsProcess {
  pid: number;
  ppid: number;
  name: string;
}

const LIST_MS = 20_000;
const WMIC_ARGS = ['process', 'get', 'ProcessId,ParentProcessId,Name'];
// Windows 11 24H2 removed wmic; CIM through PowerShell answers the same question (slower).
const CIM_ARGS = ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', 'Get-CimInstance Win32_Process | ForEach-Object { "$($_.Name) $($_.ParentProcessId) $($_.ProcessId)" }'];

/** Rows of `wmic process get Name,ParentProcessId,ProcessId` or the CIM line form: `<name…> <ppid> <pid>`. */
export function parseProcessList(text: string): WindowsProcess[] {
  const rows: WindowsProcess[] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const match = /^(.*\S)\s+(\d+)\s+(\d+)\s*$/.exec(line);
    if (match) rows.push({ name: match[1]!, ppid: Number(match[2]), pid: Number(match[3]) });
  }
  return rows;
}

/** Every process below `root` by the parent chain (children before grandchildren), `root` not included. */
export function descendantsOf(list: readonly WindowsProcess[], root: number): number[] {
  const found: number[] = [];
  const seen = new Set([root]);
  for (let i = -1; i < found.length; i++) {
    const parent = i < 0 ? root : found[i]!;
    for (const row of list) {
      if (row.ppid !== parent || seen.has(row.pid)) continue;
      seen.add(row.pid);
      found.push(row.pid);
    }
  }
  return found;
}


function run(file: string, args: string[], encoding: 'utf16le' | 'utf8'): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      execFile(file, args, { encoding: 'buffer', timeout: LIST_MS, windowsHide: true, env: nodeChildEnvironment({ kind: 'tool' }), maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
        resolve(error ? undefined : decode(stdout, encoding)));
    } catch {
      resolve(undefined);
    }
  });
}

/** wmic writes UTF-16 (with a BOM) to a file or pipe; PowerShell's CIM lines come in the console code page (digits and names). */
function decode(bytes: Buffer, encoding: 'utf16le' | 'utf8'): string {
  return encoding === 'utf16le' && bytes.length >= 2 && bytes[1] === 0 ? bytes.toString('utf16le') : bytes.toString(encoding === 'utf16le' && bytes[0] === 0xff ? 'utf16le' : 'utf8');
}

/** The Windows process list (pid, parent pid, name): wmic, else CIM through PowerShell; `undefined` when neither answers. */
export async function listWindowsProcesses(): Promise<WindowsProcess[] | undefined> {
  const wmic = await run('wmic', WMIC_ARGS, 'utf16le');
  if (wmic !== undefined) return parseProcessList(wmic);
  const cim = await run('powershell', CIM_ARGS, 'utf8');
  return cim === undefined ? undefined : parseProcessList(cim);
}

/** `listWindowsProcesses` without awaiting, for exit handlers (wmic only). */
export function listWindowsProcessesSync(): WindowsProcess[] | undefined {
  try {
    return parseProcessList(decode(execFileSync('wmic', WMIC_ARGS, { timeout: LIST_MS, windowsHide: true, env: nodeChildEnvironment({ kind: 'tool' }), stdio: ['ignore', 'pipe', 'ignore'] }), 'utf16le'));
  } catch {
    return undefined;
  }
}

function terminate(pid: number): void {
  try {
    // On Windows every signal but 0 is TerminateProcess: no grace, like SIGKILL.
    process.kill(pid, 'SIGKILL');
  } catch {}
}

/** `taskkill /T /F`: Windows' own tree kill (older Wine lacks `/T`; the parent-chain kill covers it). */
function taskkillTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    try {
      execFile('taskkill', ['/T', '/F', '/PID', String(pid)], { timeout: LIST_MS, windowsHide: true, env: nodeChildEnvironment({ kind: 'tool' }) }, () => resolve());
    } catch {
      resolve();
    }
  });
}

/**
 * Ends `root` and every process below it. Windows has no process groups: the tree is read from the
 * process list by parent pid (which stays recorded after a parent exits, so orphans are still found),
 * every member is terminated, and `taskkill /T /F` is asked too; repeated while the list still shows
 * members (a process may start a child while the tree is being ended). Returns the pids ended.
 */
export async function endWindowsTree(root: number, rootAlive: boolean): Promise<number[]> {
  const ended = new Set<number>();
  for (let round = 0; round < 5; round++) {
    const list = await listWindowsProcesses();
    const members = list ? descendantsOf(list, root) : [];
    if (rootAlive && round === 0) members.unshift(root);
    if (members.length === 0) break;
    for (const pid of members.slice().reverse()) terminate(pid);
    members.forEach((pid) => ended.add(pid));
    if (rootAlive && round === 0) await taskkillTree(root);
  }
  return [...ended];
}

/** True while a process below `root` still runs (by the parent chain); false when the list cannot be read. */
export async function windowsTreeHasMembers(root: number): Promise<boolean> {
  const list = await listWindowsProcesses();
  return list !== undefined && descendantsOf(list, root).length > 0;
}

/** `endWindowsTree` without awaiting (one round), for exit handlers. */
export function endWindowsTreeSync(root: number): void {
  const list = listWindowsProcessesSync();
  const members = list ? descendantsOf(list, root) : [];
  for (const pid of [root, ...members].reverse()) terminate(pid);
}
