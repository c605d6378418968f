import type { Logger } from '../agent/ports';
import { ExecaCommandRunner } from '../node/execaCommandRunner';
import { CommandSandbox } from '../node/sandbox/commandSandbox';
import { fixedSandbox } from '../node/sandbox/sandboxSource';
import type { CliOptions } from './cliArgs';

/** The commands of a CLI run, in their sandbox (if any), and how to end both. */
export interface CliSandbox {
  commands: ExecaCommandRunner;
  /** Ends every command, then the sandbox's proxy and temp folder. */
  dispose(): Promise<void>;
}

/**
 * Opens the sandbox `--sandbox` / `--permission-mode` ask for (none for `off`) and the command
 * runner that goes through it. A sandbox that cannot run here is a usage problem said at once (the
 * message, returned as a string), never commands quietly run unconfined. Full access is said on stderr.
 */
export async function openCliSandbox(options: CliOptions, root: string, logger: Logger, warn: (text: string) => void): Promise<CliSandbox | string> {
  const { sandbox: mode, allowHosts, permissionMode } = options.sandbox;
  if (permissionMode === 'full') warn('stepwise: full access: commands run without a sandbox and nothing is asked (protected files and the deny list still hold).\n');
  let box: CommandSandbox | undefined;
  if (mode !== 'off') {
    const opened = await CommandSandbox.open({ mode, workspace: root, allowHosts, webPolicy: { allowHosts: options.web.allowHosts, denyHosts: options.web.denyHosts }, logger });
    if (!(opened instanceof CommandSandbox)) return `--sandbox ${mode}: ${opened.unavailable}`;
    box = opened;
  }
  const source = fixedSandbox(box);
  const commands = new ExecaCommandRunner({ logger, watchdog: true, sandbox: source, shellPreference: () => options.shell });
  return {
    commands,
    async dispose() {
      commands.dispose();
      await source.dispose();
    },
  };
}
