import { workspaceFolder, type ExtensionFolder } from '../../../agent/extensions/extensionFolder';
import type { LoadedExtensions, PromptFile } from '../../../agent/extensions/extensionTypes';
import { loadExtensions } from '../../../agent/extensions/loadExtensions';
import { skillTool } from '../../../agent/extensions/skillTool';
import type { Workspace } from '../../../agent/ports';
import { ToolRegistry } from '../../../agent/tools/toolRegistry';
import { userExtensionFolder, userExtensionRoot } from '../../../node/extensions/userExtensionFolder';
import type { MentionSuggestion } from '../../../shared/webviewProtocol';

/**
 * The skills, roles and prompt files a VS Code run may use: the user's own (`~/.stepwise`) always,
 * the workspace's only when the workspace is trusted. They are instructions from the repository
 * (a role even decides which tools a step gets), so Restricted Mode reads none of them, as it runs
 * no workspace MCP server.
 */
export async function readHostExtensions(workspace: Workspace | undefined, trusted: boolean, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<LoadedExtensions> {
  const folders: ExtensionFolder[] = [userExtensionFolder(userExtensionRoot(env))];
  if (trusted && workspace) folders.push(workspaceFolder(workspace));
  return loadExtensions(folders, signal);
}

/** The run's tools with the `skill` tool added when there are skills (the shared registry is not changed). */
export function toolsWithSkills(tools: ToolRegistry, extensions: LoadedExtensions): ToolRegistry {
  const tool = skillTool(extensions.skills);
  if (!tool) return tools;
  return new ToolRegistry([...tools.names().filter((name) => name !== tool.name).map((name) => tools.get(name)!), tool]);
}

/** The chat box's `/` list: prompt files whose name starts with what was typed (`query` is `/word`). */
export function promptSuggestions(prompts: readonly PromptFile[], query: string): MentionSuggestion[] {
  const typed = query.replace(/^\//, '').toLowerCase();
  return prompts
    .filter((p) => p.name.toLowerCase().startsWith(typed))
    .map((p) => ({ kind: 'command' as const, insert: p.name, label: [`/${p.name}`, p.argumentHint, p.description && `— ${p.description}`].filter(Boolean).join(' ') }));
}
