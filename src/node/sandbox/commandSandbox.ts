import { chmod, lstat, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../agent/ports';
import type { WebHostPolicy } from '../../agent/web/hostPolicy';
import type { SandboxMode } from '../../shared/sandboxModes';
import { findExecutable } from '../findExecutable';
import { stepwiseHome } from '../stepwiseHome';
import { EgressProxy } from '../web/browser/egressProxy';
import { bwrapArguments, SANDBOX_PROXY_PORT, INNER_PROXY_SOCKET, type ExistingPath } from './bwrapArgs';
import { probeBwrap } from './bwrapProbe';
import { sandboxNotes } from './sandboxNotes';
import { hiddenLocations, WORKSPACE_PROTECTED } from './secretLocations';
import { INNER_SHELL_SCRIPT, PROXY_SHIM } from './sandboxScripts';

/** How to open a sandbox for one workspace. */
export interface CommandSandboxOptions {
  mode: Exclude<SandboxMode, 'off'>;
  /** The workspace folder (a real path). */
  workspace: string;
  /** Hosts sandboxed commands may reach through the proxy (names, `*.names`, addresses, CIDR blocks). */
  allowHosts: readonly string[];
  /** The egress policy every allowed request is still checked by (the user's web deny list wins). */
  webPolicy: WebHostPolicy;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
}

/** A program and arguments to spawn in place of the one asked for, plus variables it needs. */
export interface WrappedSpawn {
  file: string;
  args: string[];
  /** Added to the child's environment (the proxy variables when hosts are allowed). */
  env: Record<string, string>;
}

/**
 * The one wrapper every sandboxed spawn goes through (commands, and later Python, MCP stdio
 * servers, verify checks): `wrap` turns a program and its arguments into a bubblewrap command
 * line under the sandbox's rules. One per workspace and mode; owns a private temp folder and,
 * when hosts are allowed, an egress proxy on a unix socket (the project's `EgressProxy`, so the
 * sandbox's network obeys the same policy as every other request). `open` never throws for a
 * missing sandbox: it returns why it is unavailable.
 */
export class CommandSandbox {
  private constructor(
    readonly mode: Exclude<SandboxMode, 'off'>,
    private readonly options: CommandSandboxOptions,
    private readonly bwrap: string,
    private readonly node: string,
    private readonly tempDir: string,
    private readonly blankFile: string,
    private readonly hidden: readonly ExistingPath[],
    private readonly hiddenAll: readonly string[],
    private readonly proxy: { server: EgressProxy; socket: string; dir: string } | undefined,
  ) {}

  /** Opens a sandbox, or says why none can run here (platform, missing bwrap, no user namespaces). */
  static async open(options: CommandSandboxOptions): Promise<CommandSandbox | SandboxUnavailable> {
    const probe = await probeBwrap();
    if (!probe.ok) return { mode: options.mode, unavailable: probe.reason };
    const env = options.env ?? process.env;
    const tempDir = await mkdtemp(path.join(os.tmpdir(), 'stepwise-sandbox-'));
    const blankFile = path.join(tempDir, '.hidden');
    await writeFile(blankFile, '');
    await chmod(blankFile, 0o000);
    const hiddenAll = hiddenLocations(os.homedir(), stepwiseHome(env), env);
    const hidden = await existing(hiddenAll);
    const node = (await findExecutable('node')) ?? process.execPath;
    let proxy: { server: EgressProxy; socket: string; dir: string } | undefined;
    if (options.allowHosts.length > 0) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'stepwise-net-'));
      const socket = path.join(dir, 'proxy.sock');
      const policy: WebHostPolicy = { ...options.webPolicy, allowHosts: [...options.webPolicy.allowHosts, ...options.allowHosts] };
      const server = await EgressProxy.start({ policy, socketPath: socket, onlyHosts: options.allowHosts, maxBytes: Number.MAX_SAFE_INTEGER, idleMs: 300_000, logger: options.logger });
      proxy = { server, socket, dir };
    }
    return new CommandSandbox(options.mode, options, probe.bwrap, node, tempDir, blankFile, hidden, hiddenAll, proxy);
  }

  /** `program args…` as a sandboxed spawn started in `cwd` (which must be inside the workspace to be writable). */
  async wrap(program: string, args: readonly string[], cwd: string): Promise<WrappedSpawn> {
    const ws = this.options.workspace;
    const protectedInWorkspace = (await existing(WORKSPACE_PROTECTED.map((p) => path.join(ws, p)))).map((e) => e.path);
    const bwrapArgs = bwrapArguments({
      mode: this.mode, workspace: ws, tempDir: this.tempDir, hidden: this.hidden, protectedInWorkspace,
      blankFile: this.blankFile, proxySocket: this.proxy?.socket, cwd,
    });
    if (!this.proxy) return { file: this.bwrap, args: [...bwrapArgs, program, ...args], env: {} };
    const proxyUrl = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
    return {
      file: this.bwrap,
      args: [...bwrapArgs, this.node, '-e', PROXY_SHIM, INNER_PROXY_SOCKET, String(SANDBOX_PROXY_PORT), program, ...args],
      // Upper and lower case: curl reads only the lower-case http_proxy, most other tools either.
      env: {
        HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, http_proxy: proxyUrl, https_proxy: proxyUrl, ALL_PROXY: proxyUrl, all_proxy: proxyUrl,
        NO_PROXY: '', no_proxy: '', ELECTRON_RUN_AS_NODE: '1',
      },
    };
  }

  /** A shell command line as a sandboxed spawn: the shell runs the command, then reports leftovers (`INNER_SHELL_SCRIPT`). */
  wrapShell(shell: string, command: string, cwd: string): Promise<WrappedSpawn> {
    return this.wrap(shell, ['-c', INNER_SHELL_SCRIPT, 'stepwise-sandbox', command], cwd);
  }

  /** What the sandbox stopped or cleaned up, read from a sandboxed command's output (see `sandboxNotes`). */
  notes(output: string, command?: string): string[] {
    return sandboxNotes(output, { mode: this.mode, workspace: this.options.workspace, hidden: this.hiddenAll }, command);
  }

  /** Stops the proxy and removes the private temp folder. */
  async dispose(): Promise<void> {
    await this.proxy?.server.close();
    await Promise.all([
      rm(this.tempDir, { recursive: true, force: true }).catch(() => undefined),
      this.proxy ? rm(this.proxy.dir, { recursive: true, force: true }).catch(() => undefined) : undefined,
    ]);
  }
}

/** The paths that exist, each a folder or a file (a socket counts as a file). */
async function existing(paths: readonly string[]): Promise<ExistingPath[]> {
  const out: ExistingPath[] = [];
  for (const p of paths) {
    // A symlinked location (~/.ssh -> /data/keys) is hidden where it leads.
    const real = await realpath(p).catch(() => undefined);
    const info = real === undefined ? undefined : await lstat(real).catch(() => undefined);
    if (!info || real === undefined) continue;
    out.push({ path: real, kind: info.isDirectory() ? 'dir' : 'file' });
  }
  return out;
}

/** A sandbox mode was asked for but cannot run here; commands are then refused, never run unconfined. */
export interface SandboxUnavailable {
  mode: Exclude<SandboxMode, 'off'>;
  unavailable: string;
}
