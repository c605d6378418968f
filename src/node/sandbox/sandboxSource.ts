import type { Logger } from '../../agent/ports';
import type { WebHostPolicy } from '../../agent/web/hostPolicy';
import type { SandboxMode } from '../../shared/sandboxModes';
import { CommandSandbox, type SandboxUnavailable } from './commandSandbox';

/** Where a command runner gets its sandbox: the mode now (sync, for approvals) and the sandbox itself. */
export interface SandboxSource {
  /** The sandbox mode commands run in now. */
  mode(): SandboxMode;
  /** The open sandbox for the mode now, why it cannot run, or `undefined` when the mode is `off`. */
  current(): Promise<CommandSandbox | SandboxUnavailable | undefined>;
  /** Closes every sandbox it opened. */
  dispose(): Promise<void>;
}

/** What a pool opens its sandbox for, read at each command (settings may change between commands). */
export interface SandboxWanted {
  mode: SandboxMode;
  /** The workspace folder; without one no sandbox can be built (commands are then refused while a mode is on). */
  workspace: string | undefined;
  allowHosts: readonly string[];
  webPolicy: WebHostPolicy;
}

/**
 * Opens sandboxes on demand for what `wanted` says now (VS Code: the permission mode, the folder, the
 * allowed hosts), one per distinct wish, kept until `dispose` (a command still running in an earlier
 * sandbox keeps its temp folder).
 */
export class SandboxPool implements SandboxSource {
  private readonly open = new Map<string, Promise<CommandSandbox | SandboxUnavailable>>();

  constructor(
    private readonly wanted: () => SandboxWanted,
    private readonly logger?: Logger,
  ) {}

  mode(): SandboxMode {
    return this.wanted().mode;
  }

  current(): Promise<CommandSandbox | SandboxUnavailable | undefined> {
    const want = this.wanted();
    if (want.mode === 'off') return Promise.resolve(undefined);
    const mode = want.mode;
    if (!want.workspace) return Promise.resolve({ mode, unavailable: 'no workspace folder is open to confine commands to.' });
    const key = JSON.stringify([mode, want.workspace, want.allowHosts, want.webPolicy.allowHosts, want.webPolicy.denyHosts]);
    let box = this.open.get(key);
    if (!box) {
      box = CommandSandbox.open({ mode, workspace: want.workspace, allowHosts: want.allowHosts, webPolicy: want.webPolicy, logger: this.logger });
      this.open.set(key, box);
    }
    return box;
  }

  async dispose(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(async (pending) => {
      const box = await pending;
      if (box instanceof CommandSandbox) await box.dispose();
    }));
  }
}

/** A source with one sandbox opened beforehand (the CLI), or none. */
export function fixedSandbox(box: CommandSandbox | undefined): SandboxSource {
  return {
    mode: () => box?.mode ?? 'off',
    current: () => Promise.resolve(box),
    dispose: async () => box?.dispose(),
  };
}
