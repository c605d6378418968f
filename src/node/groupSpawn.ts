import type { EnvironmentRules } from '../agent/secrets/secretEnv';
import { nodeChildEnvironment } from './childEnv';
import { processTree } from './shell/processTree';

/** A process started by `spawnGroupLeader` (execa's subprocess). */
export type GroupChild = ReturnType<typeof import('execa').execa>;

/** What `spawnGroupLeader` needs: where it runs, what it adds to the environment, whether it reads stdin. */
export interface GroupSpawnOptions {
  cwd: string;
  /** Variables set on purpose (a process tag, the non-interactive defaults); secrets among them are still dropped. */
  explicit: Record<string, string>;
  /** The secret rules; default the shell's (`setChildEnvironmentRules`). */
  rules?: EnvironmentRules;
  /** `pipe` for a process we talk to (the Python session); commands get none. */
  stdin: 'ignore' | 'pipe';
  /** Written to stdin, then closed, in place of `stdin` (hooks read their event here). */
  input?: string;
  /** cmd.exe's command line as written (the shell port's `shellInvocation` says when). */
  windowsVerbatimArguments?: boolean;
}

/**
 * The one way the agent's code runs on the machine: `run_command` (and verify checks) and the
 * `python_execute` session both start here, so a sandbox wraps them all by changing this function.
 * The child leads its own process group (so the whole tree can be signalled), gets the one child
 * environment (secrets dropped) and never inherits ours; output is piped unbuffered. Throws when
 * the program cannot be started at all. (Wrapped in an object: the subprocess is itself a promise.)
 */
export async function spawnGroupLeader(file: string, args: readonly string[], options: GroupSpawnOptions): Promise<{ child: GroupChild }> {
  const { execa } = await import('execa');
  const child = execa(file, args, {
    cwd: options.cwd,
    env: nodeChildEnvironment({ kind: 'command', explicit: options.explicit, rules: options.rules }),
    extendEnv: false,
    // The leader of its own group on POSIX; on Windows a detached child would get a console of its own.
    detached: processTree.detached,
    cleanup: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: options.stdin }),
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    windowsHide: true,
    ...(options.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
  });
  return { child };
}
