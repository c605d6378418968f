import * as vscode from 'vscode';
import type { McpHost } from '../../common/mcp/mcpHost';
import type { McpConfigReview } from './mcpConfigReview';
import { refusedInRestrictedMode } from './mcpCommands';
import { serverSummary, type McpTrustStore } from './mcpTrustStore';

/**
 * "Stepwise: Manage Trusted MCP Servers": the workspace's MCP servers with a check mark on those the
 * user trusts; unchecking revokes (the server stops), checking trusts (it starts). Returns the names
 * trusted afterwards, `undefined` when dismissed or in Restricted Mode.
 */
export async function manageMcpTrustCommand(mcp: McpHost, store: McpTrustStore, review: McpConfigReview): Promise<string[] | undefined> {
  if (refusedInRestrictedMode()) return undefined;
  const configured = mcp.workspaceServers();
  const stale = store.entries().filter((entry) => !configured.some((server) => server.fingerprint === entry.fingerprint));
  const items = [
    ...configured.map((server) => ({ label: server.name, description: server.source, detail: serverSummary(server), picked: store.isTrusted(server.fingerprint), server })),
    ...stale.map((entry) => ({ label: entry.name, description: entry.source, detail: vscode.l10n.t('not in the configuration now'), picked: true, server: entry })),
  ];
  if (!items.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stepwise: this workspace configures no MCP servers.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Stepwise: Manage Trusted MCP Servers'),
    placeHolder: vscode.l10n.t('Checked workspace servers may start; uncheck one to revoke it'),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  await store.setTrusted(picked.map((item) => item.server));
  await review.review();
  return picked.map((item) => item.label);
}
