import type { Logger } from '../agent/ports';
import { CommandSandbox } from '../node/sandbox/commandSandbox';
import type { CliOptions } from './cliArgs';

/** The sandbox of a CLI run: what the command runner reads, and how to close it. */
export interface CliSandbox {
  provider: (() => CommandSandbox) | undefined;
  dispose(): Promise<void>;
}

/**
 * Opens the sandbox `--sandbox` / `--permission-mode` ask for (none for `off`). A sandbox that
 * cannot run here is a usage problem said at once (the message, returned as a string), never
 * commands quietly run unconfined. Full access is said on stderr.
 */
export async function openCliSandbox(options: CliOptions, root: string, logger: Logger, warn: (text: string) => void): Promise<CliSandbox | string> {
  const { sandbox: mode, allowHosts, permissionMode } = options.sandbox;
  if (permissionMode === 'full') warn('stepwise: full access: commands run without a sandbox and nothing is asked (protected files and the deny list still hold).\n');
  if (mode === 'off') return { provider: undefined, dispose: async () => undefined };
  const opened = await CommandSandbox.open({ mode, workspace: root, allowHosts, webPolicy: { allowHosts: options.web.allowHosts, denyHosts: options.web.denyHosts }, logger });
  if (!(opened instanceof CommandSandbox)) return `--sandbox ${mode}: ${opened.unavailable}`;
  return { provider: () => opened, dispose: () => opened.dispose() };
}
