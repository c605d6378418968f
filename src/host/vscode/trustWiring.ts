import path from 'node:path';
import type { ReportSink } from '../../agent/flow';
import type { StepwiseConfig } from '../common/config/stepwiseConfig';
import type { McpHost } from '../common/mcp/mcpHost';
import { endpointOrigin } from '../common/model/endpointOrigin';
import { resolveBaseUrl } from './model/modelProvider';
import { FolderReportSink } from '../common/task/folderReportSink';
import { WorkspaceSettingsConsent } from './config/workspaceConsent';
import { readConfig, workspaceMcpServers } from './config/readConfig';
import { McpConfigReview } from './mcp/mcpConfigReview';
import { McpTrustStore } from './mcp/mcpTrustStore';
import { HookTrustStore } from './hooks/hookTrustStore';
import type { CommandDeps } from './commands/registerCommands';
import type { McpChangeHandlers } from './mcp/watchMcpConfig';
import type { ApiKeyStore } from './secrets/apiKeyStore';
import type { WorkspacePlace } from './workspacePlace';
import type { TaskControllerDeps } from './task/taskControllerTypes';

/** The host's half of the trust boundary, built once in `activate` and plugged in where each part belongs. */
export interface TrustWiring {
  /** For `readConfig`: whether the user confirmed the workspace's `workspace-confirm` values with this fingerprint. */
  workspaceConfirmed: (fingerprint: string) => boolean;
  /** Before a run: asks about workspace values of the `workspace-confirm` class not yet confirmed. */
  confirmWorkspaceSettings: () => Promise<void>;
  /** Where reports go in Restricted Mode (the extension's storage). */
  restrictedReports: ReportSink;
  mcpTrust: McpTrustStore;
  mcpReview: McpConfigReview;
  /** The workspace part of the MCP source: its own `stepwise.mcpServers` and the user's trust. */
  mcpSource(): { workspaceSettings: unknown; serverTrust: McpTrustStore };
  /** Before a run: applies the MCP configuration, unless a change waits for the user's review. */
  prepareMcp(): Promise<void>;
  /**
   * What to do on MCP changes: `stepwise.mcpServers` (the user's own servers apply at once, a
   * workspace change waits for review), an `mcp.json` file (waits for review), workspace trust granted.
   */
  mcpChangeHandlers(onTrust: () => void): McpChangeHandlers;
  /** The TaskController's part: MCP refresh before a run, restricted reports, workspace settings consent. */
  taskDeps(): Pick<TaskControllerDeps, 'prepareTools' | 'restrictedReports' | 'confirmWorkspaceSettings' | 'hooks'>;
  /** The workspace hooks the user trusts (`.stepwise/settings.json`, by fingerprint). */
  hookTrust: HookTrustStore;
  /** The commands' part: trust store, review, and the endpoint in use ("Set API Key" stores the key for its origin). */
  commandDeps(config: () => StepwiseConfig): Pick<CommandDeps, 'mcpTrust' | 'mcpReview' | 'endpoint'>;
}

/**
 * Builds the trust wiring: consent to the workspace's `workspace-confirm` settings (workspaceState), the one-time move of the old single
 * API key to the user-level endpoint's origin, workspace MCP trust and review, restricted reports.
 */
export function createTrustWiring(place: WorkspacePlace, keys: ApiKeyStore, env: NodeJS.ProcessEnv, mcp: () => McpHost): TrustWiring {
  const consent = new WorkspaceSettingsConsent(place.state, env);
  void keys.migrateLegacyKey(endpointOrigin(resolveBaseUrl(readConfig(() => false, true).config, env)));
  const mcpTrust = new McpTrustStore(place.state, () => void mcp().startOrRefresh());
  const mcpReview = new McpConfigReview(async () => {
    mcpTrust.resetAsked();
    await mcp().startOrRefresh();
  });
  let workspaceServers = JSON.stringify(workspaceMcpServers() ?? null);
  const settingsChanged = (): void => {
    const now = JSON.stringify(workspaceMcpServers() ?? null);
    if (now === workspaceServers) {
      void mcp().refresh();
      return;
    }
    workspaceServers = now;
    mcpReview.changed('stepwise.mcpServers');
  };
  const restrictedReports = new FolderReportSink(path.join(place.folder, 'reports'));
  const hookTrust = new HookTrustStore(place.state);
  // A task starts MCP (activation does not); `refresh` alone does nothing until MCP has started.
  const prepareMcp = (): Promise<void> => (mcpReview.pending ? Promise.resolve() : mcp().startOrRefresh());
  return {
    workspaceConfirmed: (fingerprint) => consent.isConfirmed(fingerprint),
    confirmWorkspaceSettings: () => consent.confirmIfNeeded(),
    restrictedReports,
    mcpTrust,
    mcpReview,
    mcpSource: () => ({ workspaceSettings: workspaceMcpServers(), serverTrust: mcpTrust }),
    prepareMcp,
    mcpChangeHandlers: (onTrust) => ({
      settingsChanged,
      fileChanged: (path) => mcpReview.changed(path),
      trustGranted: () => {
        onTrust();
        void mcp().refresh();
      },
    }),
    hookTrust,
    taskDeps: () => ({ prepareTools: prepareMcp, restrictedReports, confirmWorkspaceSettings: () => consent.confirmIfNeeded(), hooks: (config, root) => hookTrust.sourcesFor(config.hooks, root) }),
    commandDeps: (config) => ({ mcpTrust, mcpReview, endpoint: () => resolveBaseUrl(config(), env) }),
  };
}
