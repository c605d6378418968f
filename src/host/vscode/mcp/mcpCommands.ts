import * as vscode from 'vscode';
import type { McpPromptInfo, McpServerState, McpServerStatus } from '../../../mcp';
import type { TaskController } from '../task/taskController';
import type { McpHost } from '../../common/mcp/mcpHost';
import { promptTaskText } from '../../common/mcp/promptTaskText';

function statusLabel(status: McpServerStatus): string {
  switch (status) {
    case 'connecting':
      return vscode.l10n.t('connecting');
    case 'connected':
      return vscode.l10n.t('connected');
    case 'error':
      return vscode.l10n.t('failed');
    case 'disabled':
      return vscode.l10n.t('turned off');
    case 'restarting':
      return vscode.l10n.t('restarting');
  }
}

/** True (after saying why) when the workspace is untrusted: MCP servers are code the workspace asks to run. */
export function refusedInRestrictedMode(): boolean {
  if (vscode.workspace.isTrusted) return false;
  void vscode.window.showWarningMessage(vscode.l10n.t('Stepwise: MCP servers do not run in Restricted Mode. Trust this workspace to use them.'));
  return true;
}

/** The configured servers, loading the configuration first when nothing has been loaded yet. */
async function configuredServers(mcp: McpHost): Promise<McpServerState[]> {
  await mcp.start();
  return mcp.states();
}

/**
 * "Stepwise: Restart MCP Server": picks a configured server (or takes its name as `arg`), restarts
 * it and says whether it came back. Returns the server's state afterwards, `undefined` when nothing
 * was restarted.
 */
export async function restartMcpServerCommand(mcp: McpHost, arg?: unknown): Promise<McpServerState | undefined> {
  if (refusedInRestrictedMode()) return undefined;
  const servers = await configuredServers(mcp);
  if (!servers.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stepwise: no MCP servers are configured.'));
    return undefined;
  }
  let name = typeof arg === 'string' ? arg : undefined;
  if (name === undefined) {
    const picked = await vscode.window.showQuickPick(
      servers.map((server) => ({
        label: server.name,
        description: statusLabel(server.status),
        detail: server.lastError ?? vscode.l10n.t('{0} tools, from {1}', server.tools.length, server.source),
        name: server.name,
      })),
      { title: vscode.l10n.t('Stepwise: Restart MCP Server'), placeHolder: vscode.l10n.t('Pick the MCP server to restart') },
    );
    if (!picked) return undefined;
    name = picked.name;
  } else if (!servers.some((server) => server.name === name)) {
    throw new Error(vscode.l10n.t('No MCP server named "{0}" is configured.', name));
  }
  await mcp.restart(name);
  const state = mcp.states().find((server) => server.name === name);
  if (state?.status === 'connected') void vscode.window.showInformationMessage(vscode.l10n.t('Stepwise: MCP server "{0}" restarted.', name));
  else void vscode.window.showWarningMessage(vscode.l10n.t('Stepwise: MCP server "{0}" did not come back: {1}', name, state?.lastError ?? statusLabel(state?.status ?? 'disabled')));
  return state;
}

/** Asks each argument of `prompt` in an input box; `undefined` when one is dismissed (Escape cancels all). */
async function askPromptArguments(prompt: McpPromptInfo, label: string): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = {};
  for (const [index, argument] of prompt.arguments.entries()) {
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('{0} ({1} of {2})', label, index + 1, prompt.arguments.length),
      prompt: argument.description ? `${argument.name}: ${argument.description}` : argument.name,
      placeHolder: argument.required ? vscode.l10n.t('required') : vscode.l10n.t('optional: leave empty to skip'),
      ignoreFocusOut: true,
      validateInput: (text) => (argument.required && !text.trim() ? vscode.l10n.t('{0} is required.', argument.name) : undefined),
    });
    if (value === undefined) return undefined;
    if (value.trim()) values[argument.name] = value.trim();
  }
  return values;
}

/**
 * "Stepwise: Start Task from MCP Prompt": picks a prompt of a connected server, asks its arguments,
 * renders it and starts a task with its messages as the task text. Returns the run id, `undefined`
 * when cancelled or nothing started.
 */
export async function runMcpPromptCommand(mcp: McpHost, controller: TaskController): Promise<string | undefined> {
  if (refusedInRestrictedMode()) return undefined;
  const servers = await configuredServers(mcp);
  const prompts = await mcp.listPrompts();
  if (!prompts.length) {
    const connected = servers.some((server) => server.status === 'connected');
    void vscode.window.showInformationMessage(
      connected ? vscode.l10n.t('Stepwise: no connected MCP server offers prompts.') : vscode.l10n.t('Stepwise: no MCP server is connected.'),
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    prompts.map((prompt) => ({
      label: prompt.title ?? prompt.name,
      description: prompt.title ? `${prompt.server} · ${prompt.name}` : prompt.server,
      ...(prompt.description ? { detail: prompt.description } : {}),
      prompt,
    })),
    { title: vscode.l10n.t('Stepwise: Start Task from MCP Prompt'), placeHolder: vscode.l10n.t('Pick a prompt to start a task from'), matchOnDescription: true, matchOnDetail: true },
  );
  if (!picked) return undefined;
  const args = await askPromptArguments(picked.prompt, picked.label);
  if (!args) return undefined;
  const result = await mcp.getPrompt(picked.prompt.server, picked.prompt.name, args);
  const task = promptTaskText(result, { user: vscode.l10n.t('User'), assistant: vscode.l10n.t('Assistant') });
  if (!task) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Stepwise: the prompt "{0}" has no text to start a task with.', picked.label));
    return undefined;
  }
  return controller.start(task, { fromPalette: true });
}
