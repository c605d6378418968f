import { createHash } from 'node:crypto';
// Not the barrel: it re-exports the hub, which would load the MCP SDK at activation.
import { MCP_USER_SETTINGS_SOURCE, type McpServerConfig } from '../../../mcp/mcpConfig';
import { describeServer, serverInputs, type ServerInput } from '../../../mcp/serverInputs';

/**
 * A workspace MCP server (from `.vscode/mcp.json`, `.stepwise/mcp.json` or the workspace's
 * `stepwise.mcpServers`) as the user sees it when asked to trust it.
 */
export interface WorkspaceServer {
  name: string;
  source: string;
  /** The command line of a stdio server, or the URL of an HTTP one. */
  description: string;
  /** Everything else it receives (env names and their sources, headers, cwd, auto-approved tools), secrets masked. */
  inputs: ServerInput[];
  /** Identifies exactly what would run; a changed command, URL or permission is a new server. */
  fingerprint: string;
}

/** The user's decisions about workspace servers (the VS Code host keeps them per workspace). */
export interface McpServerTrust {
  /** Whether the user trusts the server with this fingerprint. */
  isTrusted(fingerprint: string): boolean;
  /** Called after each refresh with the workspace servers that wait for the user's trust (maybe none). */
  onWaiting(servers: WorkspaceServer[]): void;
}

/** True for servers whose configuration came from the workspace (every source but the user's setting). */
export function isWorkspaceServer(server: McpServerConfig): boolean {
  return server.source !== MCP_USER_SETTINGS_SOURCE;
}

/** Re-exported: the text lives in `src/mcp/serverInputs.ts`, shared with the CLI. */
export { describeServer };

/**
 * A hash of everything that decides what a server runs or may do: name, source, command, arguments,
 * working folder, environment, URL, headers, transport and auto-approval. Only the hash is stored,
 * so values expanded from `${env:…}` are never kept in plain text.
 */
export function serverFingerprint(server: McpServerConfig): string {
  const what =
    server.kind === 'stdio'
      ? { kind: server.kind, command: server.command, args: server.args, cwd: server.cwd ?? null, env: Object.entries(server.env).sort() }
      : { kind: server.kind, url: server.url, headers: Object.entries(server.headers).sort(), transport: server.transport };
  const json = JSON.stringify({ name: server.name, source: server.source, autoApprove: server.autoApprove, ...what });
  return createHash('sha256').update(json).digest('hex');
}

/** The view of a workspace server that the user is asked about. */
export function toWorkspaceServer(server: McpServerConfig): WorkspaceServer {
  return { name: server.name, source: server.source, description: describeServer(server), inputs: serverInputs(server), fingerprint: serverFingerprint(server) };
}

/**
 * Splits servers into those that may start (the user's own, and workspace servers the user trusts)
 * and the workspace servers that wait for the user. Without a trust store no workspace server starts.
 */
export function partitionByTrust(servers: McpServerConfig[], trust: McpServerTrust | undefined): { allowed: McpServerConfig[]; waiting: WorkspaceServer[] } {
  const allowed: McpServerConfig[] = [];
  const waiting: WorkspaceServer[] = [];
  for (const server of servers) {
    if (!isWorkspaceServer(server)) {
      allowed.push(server);
      continue;
    }
    const view = toWorkspaceServer(server);
    if (trust?.isTrusted(view.fingerprint)) allowed.push(server);
    else waiting.push(view);
  }
  return { allowed, waiting };
}
