import { chmod, lstat, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
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

/** What an open sandbox holds: its options, the programs it runs, its folders and its proxy. */
interface SandboxParts {
  options: CommandSandboxOptions;
  bwrap: string;
  /** Node for the proxy shim inside. */
  node: string;
  tempDir: string;
  blankFile: string;
  /** Hidden locations that exist now, and all of them (for the notes). */
  hidden: readonly ExistingPath[];
  hiddenAll: readonly string[];
  proxy: { server: EgressProxy; socket: string; dir: string } | undefined;
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
  readonly mode: Exclude<SandboxMode, 'off'>;
  /** Removes the folders if the process exits without `dispose` (an editor closing its extension host). */
  private readonly atExit: () => void;

  private constructor(private readonly parts: SandboxParts) {
    this.mode = parts.options.mode;
    const folders = [parts.tempDir, ...(parts.proxy ? [parts.proxy.dir] : [])];
    this.atExit = () => {
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    };
    process.once('exit', this.atExit);
  }

  /** Opens a sandbox, or says why none can run here (platform, missing bwrap, no user namespaces). */
  static async open(options: CommandSandboxOptions): Promise<CommandSandbox | SandboxUnavailable> {
    const probe = await probeBwrap();
    if (!probe.ok) return { mode: options.mode, unavailable: probe.reason };
    const env = options.env ?? process.env;
    await sweepStale();
    const tempDir = await mkdtemp(path.join(os.tmpdir(), `stepwise-sandbox-${process.pid}-`));
    const blankFile = path.join(tempDir, '.hidden');
    await writeFile(blankFile, '');
    await chmod(blankFile, 0o000);
    const hiddenAll = hiddenLocations(os.homedir(), stepwiseHome(env), env);
    const hidden = await existing(hiddenAll);
    const node = (await findExecutable('node')) ?? process.execPath;
    let proxy: { server: EgressProxy; socket: string; dir: string } | undefined;
    if (options.allowHosts.length > 0) {
      const dir = await mkdtemp(path.join(os.tmpdir(), `stepwise-sandbox-${process.pid}-net-`));
      const socket = path.join(dir, 'proxy.sock');
      const policy: WebHostPolicy = { ...options.webPolicy, allowHosts: [...options.webPolicy.allowHosts, ...options.allowHosts] };
      const server = await EgressProxy.start({ policy, socketPath: socket, onlyHosts: options.allowHosts, maxBytes: Number.MAX_SAFE_INTEGER, idleMs: 300_000, logger: options.logger });
      proxy = { server, socket, dir };
    }
    return new CommandSandbox({ options, bwrap: probe.bwrap, node, tempDir, blankFile, hidden, hiddenAll, proxy });
  }

  /** `program args…` as a sandboxed spawn started in `cwd` (which must be inside the workspace to be writable). */
  async wrap(program: string, args: readonly string[], cwd: string): Promise<WrappedSpawn> {
    const { options, bwrap, node, tempDir, blankFile, hidden, proxy } = this.parts;
    const ws = options.workspace;
    const protectedInWorkspace = (await existing(WORKSPACE_PROTECTED.map((p) => path.join(ws, p)))).map((e) => e.path);
    const bwrapArgs = bwrapArguments({
      mode: this.mode, workspace: ws, tempDir, hidden, protectedInWorkspace, blankFile, proxySocket: proxy?.socket, cwd,
    });
    if (!proxy) return { file: bwrap, args: [...bwrapArgs, program, ...args], env: {} };
    const proxyUrl = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
    return {
      file: bwrap,
      args: [...bwrapArgs, node, '-e', PROXY_SHIM, INNER_PROXY_SOCKET, String(SANDBOX_PROXY_PORT), program, ...args],
      // Upper and lower case: curl reads only the lower-case http_proxy, most other tools either.
      env: {
        HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, http_proxy: proxyUrl, https_proxy: proxyUrl, ALL_PROXY: proxyUrl, all_proxy: proxyUrl,
        NO_PROXY: '', no_proxy: '',
        // Without a `node` on PATH the shim runs on VS Code's own binary, which is Node only when told so.
        ...(node === process.execPath && process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
      },
    };
  }

  /**
   * The spawn of a command line: sandboxed by `box`, or the plain shell when there is none; a
   * sentence instead when a sandbox was asked for but cannot run here (the command must not run).
   */
  static async commandSpawn(box: CommandSandbox | SandboxUnavailable | undefined, shell: string, command: string, cwd: string): Promise<WrappedSpawn | string> {
    if (box && 'unavailable' in box) return `Not run: the sandbox (${box.mode}) is not available here: ${box.unavailable} Ask to run it outside the sandbox (a person decides), or turn the sandbox off.`;
    return box ? box.wrapShell(shell, command, cwd) : { file: shell, args: ['-c', command], env: {} };
  }

  /** A shell command line as a sandboxed spawn: the shell runs the command, then reports leftovers (`INNER_SHELL_SCRIPT`). */
  wrapShell(shell: string, command: string, cwd: string): Promise<WrappedSpawn> {
    return this.wrap(shell, ['-c', INNER_SHELL_SCRIPT, 'stepwise-sandbox', command], cwd);
  }

  /** What the sandbox stopped or cleaned up, read from a sandboxed command's output (see `sandboxNotes`). */
  notes(output: string, command?: string): string[] {
    return sandboxNotes(output, { mode: this.mode, workspace: this.parts.options.workspace, hidden: this.parts.hiddenAll }, command);
  }

  /** Stops the proxy and removes the private temp folder. */
  async dispose(): Promise<void> {
    process.removeListener('exit', this.atExit);
    const { proxy, tempDir } = this.parts;
    await proxy?.server.close();
    await Promise.all([
      rm(tempDir, { recursive: true, force: true }).catch(() => undefined),
      proxy ? rm(proxy.dir, { recursive: true, force: true }).catch(() => undefined) : undefined,
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
    if (!info || real === undefined || out.some((e) => e.path === real)) continue;
    out.push({ path: real, kind: info.isDirectory() ? 'dir' : 'file' });
  }
  return out;
}

/** A sandbox mode was asked for but cannot run here; commands are then refused, never run unconfined. */
export interface SandboxUnavailable {
  mode: Exclude<SandboxMode, 'off'>;
  unavailable: string;
}

/** Removes sandbox folders left by processes that died without cleaning up (their pid is in the name). */
async function sweepStale(): Promise<void> {
  const names = await readdir(os.tmpdir()).catch((): string[] => []);
  for (const name of names) {
    const pid = Number(/^stepwise-sandbox-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    await rm(path.join(os.tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** True while a process with this pid exists (ours to signal or not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
