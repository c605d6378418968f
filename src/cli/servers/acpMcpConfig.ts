import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';

let folder: string | undefined;

/** The folder of this process's session configs; removed when the process exits (it may hold servers' `env`). */
function configFolder(): string {
  if (!folder) {
    folder = mkdtempSync(path.join(tmpdir(), 'stepwise-acp-'));
    const made = folder;
    process.on('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return folder;
}

/** One ACP MCP server as an entry of Stepwise's `mcpServers` config (the same reader as `--mcp-config`). */
export function mcpEntry(server: McpServer): [string, Record<string, unknown>] {
  const pairs = (list: { name: string; value: string }[]) => Object.fromEntries(list.map((p) => [p.name, p.value]));
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) return [server.name, { type: server.type, url: server.url, headers: pairs(server.headers) }];
  const stdio = server as Extract<McpServer, { command: string }>;
  return [stdio.name, { command: stdio.command, args: stdio.args, env: pairs(stdio.env) }];
}

/**
 * The client's MCP servers of a session as a config file for the run (`--mcp-config`), so they go
 * through the same reader, environment rules and approvals as the CLI's; `undefined` when none.
 */
export async function acpMcpConfig(servers: readonly McpServer[], sessionId: string): Promise<string | undefined> {
  if (!servers.length) return undefined;
  const file = path.join(configFolder(), `${sessionId.replace(/[^\w-]/g, '_')}.json`);
  await writeFile(file, JSON.stringify({ mcpServers: Object.fromEntries(servers.map(mcpEntry)) }), { mode: 0o600 });
  return file;
}
