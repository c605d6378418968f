import { workspaceFolder } from '../agent/extensions/extensionFolder';
import type { LoadedExtensions } from '../agent/extensions/extensionTypes';
import { loadExtensions } from '../agent/extensions/loadExtensions';
import { expandPromptCommand } from '../agent/extensions/promptCommand';
import { skillTool } from '../agent/extensions/skillTool';
import type { Workspace } from '../agent/ports';
import type { ToolRegistry } from '../agent/tools/toolRegistry';
import { userExtensionFolder, userExtensionRoot } from '../node/extensions/userExtensionFolder';
import type { CliOptions } from './cliArgs';

/** What a CLI run takes from skills, custom roles and prompt files; `usage` is a problem to stop on (exit 2). */
export type CliExtensions = { ok: true; roles: LoadedExtensions['roles']; task: string } | { ok: false; usage: string };

/**
 * Reads the user's (`~/.stepwise/…`) and the workspace's skills, roles and prompt files (the CLI
 * runs where its user pointed it, so the workspace counts as trusted, as its rules files do;
 * `--no-extensions` reads none), reports files it skipped, adds the `skill` tool to the registry
 * and turns a `/name args` task (or resume instruction) into its prompt file's text.
 */
export async function cliExtensions(options: CliOptions, workspace: Workspace, registry: ToolRegistry, io: { env: NodeJS.ProcessEnv; warn: (text: string) => void; signal?: AbortSignal }): Promise<CliExtensions> {
  if (!options.extensions) return { ok: true, roles: [], task: options.task };
  const loaded = await loadExtensions([userExtensionFolder(userExtensionRoot(io.env)), workspaceFolder(workspace)], io.signal);
  for (const problem of loaded.problems) io.warn(`stepwise: skipped ${problem}\n`);
  const tool = skillTool(loaded.skills);
  if (tool) registry.register(tool);
  // `run "/name …"` and a resume's instruction (`resume <id> "/name …"`, a follow-up) alike.
  const command = expandPromptCommand(options.task, loaded.prompts);
  if (command.kind === 'unknown') {
    const known = command.known.length ? `: ${command.known.map((n) => `/${n}`).join(', ')}` : ' (none: add .stepwise/prompts/<name>.md or .github/prompts/<name>.prompt.md)';
    return { ok: false, usage: `no prompt file named /${command.name}; the prompt files here are${known}` };
  }
  return { ok: true, roles: loaded.roles, task: command.kind === 'expanded' ? command.task : options.task };
}
