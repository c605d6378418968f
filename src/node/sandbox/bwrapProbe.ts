import { nodeChildEnvironment } from '../childEnv';
import { findExecutable } from '../findExecutable';

/** bwrap's path when it can build a sandbox here, or why not (a sentence for the user). */
export type BwrapProbe = { ok: true; bwrap: string } | { ok: false; reason: string };

let probed: Promise<BwrapProbe> | undefined;

/**
 * Finds bubblewrap and runs it once with every namespace unshared (`true` inside): a container
 * without user namespaces, or a missing package, is found before the first command, not by it.
 * Cached for the process.
 */
export function probeBwrap(): Promise<BwrapProbe> {
  probed ??= runProbe();
  return probed;
}

async function runProbe(): Promise<BwrapProbe> {
  if (process.platform === 'win32') return { ok: false, reason: 'Windows has no command sandbox in Stepwise; commands there are guarded by approvals only.' };
  if (process.platform !== 'linux') return { ok: false, reason: `the command sandbox needs Linux and bubblewrap; this is ${process.platform}.` };
  const bwrap = await findExecutable('bwrap');
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed: install the `bubblewrap` package (npm run setup does).' };
  const { execa } = await import('execa');
  const probe = await execa(bwrap, ['--die-with-parent', '--unshare-all', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true'], {
    env: nodeChildEnvironment({ kind: 'command', explicit: {} }),
    extendEnv: false,
    reject: false,
    timeout: 10_000,
    stdin: 'ignore',
  });
  if (probe.exitCode === 0) return { ok: true, bwrap };
  return { ok: false, reason: `bubblewrap cannot create a sandbox here (${String(probe.stderr).trim() || `exit code ${probe.exitCode}`}); user namespaces may be disabled.` };
}
