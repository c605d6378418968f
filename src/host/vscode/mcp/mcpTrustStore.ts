import * as vscode from 'vscode';
import type { McpServerTrust, WorkspaceServer } from '../../common/mcp/mcpServerTrust';
import { formatServerInputs, type ServerInputLabels } from '../../../mcp/serverInputs';

/** The trust prompt's words for what a server receives (the text itself is built once, in `src/mcp/serverInputs.ts`). */
function inputLabels(): ServerInputLabels {
  return {
    envLiteral: (name, value) => vscode.l10n.t('env {0} = {1}', name, JSON.stringify(value)),
    envVariable: (name, written) => vscode.l10n.t('env {0} from {1}', name, written),
    envWithheld: (name, written) => vscode.l10n.t('env {0} from {1} is withheld (a secret)', name, written),
    header: (name, value) => vscode.l10n.t('header {0}: {1}', name, value),
    cwd: (path) => vscode.l10n.t('working folder {0}', path),
    autoApprove: (tools) => vscode.l10n.t('calls without asking: {0}', tools),
    autoApproveAll: vscode.l10n.t('calls every tool without asking'),
  };
}

/** What a server runs, then everything else it receives (`node server.js. It receives: env A from ${env:A}; …`). */
export function serverSummary(server: Pick<WorkspaceServer, 'description' | 'inputs'>): string {
  const inputs = formatServerInputs(server.inputs, inputLabels());
  return inputs.length ? `${server.description}. ${vscode.l10n.t('It receives: {0}', inputs.join('; '))}` : server.description;
}

/** workspaceState key: the workspace MCP servers the user trusts in this workspace. */
const TRUSTED_KEY = 'stepwise.trustedMcpServers';

/** What is remembered of a trusted server (its fingerprint is a hash: no command line or secret is stored). */
interface TrustedEntry {
  fingerprint: string;
  name: string;
  source: string;
}

/**
 * The user's trust in this workspace's MCP servers, remembered in workspaceState. A waiting server
 * is shown once per session (name, source and what it runs) with "Trust and Start" / "Don't Start";
 * trusting it calls `onTrusted` (the host refreshes the servers). Revocable with `setTrusted`.
 */
export class McpTrustStore implements McpServerTrust {
  private readonly asked = new Set<string>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly onTrusted: () => void,
  ) {}

  /** Whether the user trusts the server with this fingerprint in this workspace. */
  isTrusted(fingerprint: string): boolean {
    return this.entries().some((entry) => entry.fingerprint === fingerprint);
  }

  /** The trusted servers (name and source). */
  entries(): TrustedEntry[] {
    return this.state.get<TrustedEntry[]>(TRUSTED_KEY, []);
  }

  /** Replaces the trusted set: `servers` are trusted, every other entry is revoked. */
  async setTrusted(servers: Array<Pick<WorkspaceServer, 'fingerprint' | 'name' | 'source'>>): Promise<void> {
    await this.state.update(
      TRUSTED_KEY,
      servers.map(({ fingerprint, name, source }) => ({ fingerprint, name, source })),
    );
  }

  /** Asks about each waiting server not asked yet in this session; never blocks the refresh. */
  onWaiting(servers: WorkspaceServer[]): void {
    for (const server of servers) {
      if (this.asked.has(server.fingerprint)) continue;
      this.asked.add(server.fingerprint);
      void this.ask(server);
    }
  }

  /** Forgets this session's answers, so "Review" asks again about servers the user let wait. */
  resetAsked(): void {
    this.asked.clear();
  }

  private async ask(server: WorkspaceServer): Promise<void> {
    const trust = vscode.l10n.t('Trust and Start');
    const keep = vscode.l10n.t("Don't Start");
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Stepwise: the workspace MCP server "{0}" ({1}) wants to run: {2}', server.name, server.source, serverSummary(server)),
      trust,
      keep,
    );
    if (answer !== trust) return;
    if (!this.isTrusted(server.fingerprint)) await this.setTrusted([...this.entries(), server]);
    this.onTrusted();
  }
}
