import type { ShellDialect, ShellInfo, ShellPreference } from '../../agent/shellInfo';

export type { ShellPreference } from '../../agent/shellInfo';

/** A shell the runner can start: what the core is told, and the executable. */
export interface ShellChoice extends ShellInfo {
  /** Absolute path (or a name on PATH) of the executable. */
  file: string;
}

/** One candidate in order of preference: names to look up on PATH and fixed places to try. */
export interface ShellCandidate {
  dialect: ShellDialect;
  name: string;
  names: string[];
  places: string[];
  /** PowerShell must answer a probe first (a stub or a broken install falls through to the next). */
  probe: boolean;
}

/** Where the candidates live: the platform and the environment (`ProgramFiles`, `SystemRoot`, `ComSpec`). */
export interface ShellEnvironment {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

function windowsCandidates(env: ShellEnvironment['env']): Record<Exclude<ShellPreference, 'auto' | 'sh'>, ShellCandidate> {
  const programFiles = env.ProgramFiles ?? 'C:\\Program Files';
  const systemRoot = env.SystemRoot ?? env.windir ?? 'C:\\Windows';
  return {
    pwsh: { dialect: 'powershell', name: 'pwsh', names: ['pwsh'], places: [`${programFiles}\\PowerShell\\7\\pwsh.exe`], probe: true },
    powershell: { dialect: 'powershell', name: 'Windows PowerShell', names: ['powershell'], places: [`${systemRoot}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`], probe: true },
    cmd: { dialect: 'cmd', name: 'cmd.exe', names: [], places: [env.ComSpec ?? `${systemRoot}\\System32\\cmd.exe`], probe: false },
    gitbash: { dialect: 'posix', name: 'Git Bash', names: [], places: [`${programFiles}\\Git\\bin\\bash.exe`, `${programFiles} (x86)\\Git\\bin\\bash.exe`], probe: false },
    bash: { dialect: 'posix', name: 'bash', names: ['bash'], places: [], probe: false },
  };
}

/**
 * The shells to try, best first. Windows `auto`: PowerShell 7, then Windows PowerShell 5.1, then
 * cmd.exe (always there); elsewhere bash, then /bin/sh. A named preference is tried first and the
 * automatic order follows it, so a missing shell still leaves a working one.
 */
export function shellCandidates(preference: ShellPreference, where: ShellEnvironment): ShellCandidate[] {
  const posixSh: ShellCandidate = { dialect: 'posix', name: 'sh', names: [], places: ['/bin/sh'], probe: false };
  if (where.platform !== 'win32') {
    const bash: ShellCandidate = { dialect: 'posix', name: 'bash', names: ['bash'], places: [], probe: false };
    return preference === 'sh' ? [posixSh, bash] : [bash, posixSh];
  }
  const table = windowsCandidates(where.env);
  const automatic = [table.pwsh, table.powershell, table.cmd];
  const first = preference === 'auto' || preference === 'sh' ? undefined : table[preference];
  return first ? [first, ...automatic.filter((c) => c !== first)] : automatic;
}

/**
 * The program and arguments that run `command` through `shell`. cmd.exe gets `/d /s /c "<command>"`
 * verbatim (what Node's own `shell: true` does: `/s` strips exactly the outer quotes, so the
 * command's own quotes reach cmd unchanged, and `/d` skips AutoRun); PowerShell gets `-Command` after
 * the switches that keep it from loading profiles or prompting; POSIX shells `-c`.
 */
export function shellInvocation(shell: ShellChoice, command: string): { file: string; args: string[]; windowsVerbatimArguments: boolean } {
  switch (shell.dialect) {
    case 'cmd':
      return { file: shell.file, args: ['/d', '/s', '/c', `"${command}"`], windowsVerbatimArguments: true };
    case 'powershell':
      return { file: shell.file, args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', command], windowsVerbatimArguments: false };
    default:
      return { file: shell.file, args: ['-c', command], windowsVerbatimArguments: false };
  }
}
