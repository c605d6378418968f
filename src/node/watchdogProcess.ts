import { spawn, type ChildProcess } from 'node:child_process';
import { nodeChildEnvironment } from './childEnv';
import { TAG_VAR } from './processTag';

/**
 * Starts a watchdog: `node -e source args…`, detached and hidden, whose stdin is a pipe from us (its
 * close tells the watchdog we died). Neither the child nor its pipe keeps this process alive, and
 * it carries no command tag (it must not sweep itself). `undefined` when it cannot start.
 */
export function startWatchdogProcess(source: string, args: readonly string[]): ChildProcess | undefined {
  try {
    const child = spawn(process.execPath, ['-e', source, ...args], {
      detached: true,
      windowsHide: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      // The watchdog must not carry a tag it would sweep (nested Stepwise runs inherit one).
      env: nodeChildEnvironment({ kind: 'tool', explicit: { ELECTRON_RUN_AS_NODE: '1' }, omit: [TAG_VAR] }),
    });
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return child;
  } catch {
    return undefined;
  }
}
