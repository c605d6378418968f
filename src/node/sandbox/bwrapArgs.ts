import path from 'node:path';
import type { SandboxMode } from '../../shared/sandboxModes';

/** Where the sandbox's proxy shim listens inside (the command's HTTP(S)_PROXY). */
export const SANDBOX_PROXY_PORT = 3128;
/** The proxy's socket as sandboxed commands see it (bound into the sandbox's /tmp). */
export const INNER_PROXY_SOCKET = '/tmp/.stepwise-proxy.sock';

/** A path that exists outside, and what it is. */
export interface ExistingPath {
  path: string;
  kind: 'dir' | 'file';
}

/** Everything one bwrap command line is made of; pure data, so the arguments are testable. */
export interface BwrapPlan {
  mode: Exclude<SandboxMode, 'off'>;
  /** The workspace folder (real path). */
  workspace: string;
  /** The sandbox's private temp folder (bound at /tmp in workspace-write mode). */
  tempDir: string;
  /** Hidden locations that exist: folders get an empty unreadable folder, files an unreadable empty file. */
  hidden: readonly ExistingPath[];
  /** Workspace paths that exist and stay read-only even in workspace-write mode. */
  protectedInWorkspace: readonly string[];
  /** An unreadable empty file (mode 000) laid over hidden files. */
  blankFile: string;
  /** The host side of the egress proxy's unix socket, when hosts are allowed. */
  proxySocket?: string;
  /** The folder the command starts in. */
  cwd: string;
}

/**
 * The bwrap arguments of a plan, before the program: every namespace unshared (no network but
 * its own loopback, no processes of the host visible), no capabilities, the root read-only, a
 * private /tmp, the workspace writable (workspace-write) or read-only, secret locations laid over
 * with unreadable ones. Order matters: later mounts cover earlier ones.
 */
export function bwrapArguments(plan: BwrapPlan): string[] {
  const args = ['--die-with-parent', '--unshare-all', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  if (plan.mode === 'workspace-write') args.push('--bind', plan.tempDir, '/tmp');
  else args.push('--tmpfs', '/tmp');
  for (const hidden of plan.hidden) {
    // Inside the workspace the user chose to share it; under /tmp it is gone already (the sandbox's /tmp is its own).
    if (insideOrSame(plan.workspace, hidden.path) || insideOrSame('/tmp', hidden.path)) continue;
    if (hidden.kind === 'dir') args.push('--perms', '0000', '--tmpfs', hidden.path);
    else args.push('--ro-bind', plan.blankFile, hidden.path);
  }
  // After the hidden locations, so a workspace inside one of them is still there.
  args.push(plan.mode === 'workspace-write' ? '--bind' : '--ro-bind', plan.workspace, plan.workspace);
  for (const p of plan.protectedInWorkspace) args.push('--ro-bind', p, p);
  if (plan.proxySocket) args.push('--bind', plan.proxySocket, INNER_PROXY_SOCKET);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', plan.cwd, '--');
  return args;
}

/** True when `inner` is `outer` or inside it. */
export function insideOrSame(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
