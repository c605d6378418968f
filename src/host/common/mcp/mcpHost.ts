import os from 'node:os';
import type { Logger } from '../../../agent/ports';
import type { ToolRegistry } from '../../../agent/tools/toolRegistry';
import type { EnvironmentRules } from '../../../agent/secrets/secretEnv';
// Not the barrel's values: the hub (and the MCP SDK, a third of the extension's load time) is
// imported on the first configured server, so activation without MCP servers never loads it.
import type {
  McpHub,
  ElicitationHandler,
  McpPromptInfo,
  McpPromptResult,
  McpServerState,
  SamplingHandler,
} from '../../../mcp';
import { isWorkspaceServer, partitionByTrust, toWorkspaceServer, type McpServerTrust, type WorkspaceServer } from './mcpServerTrust';
import { nodeConfigReader } from '../../../mcp/configReader';
import type * as HubModule from '../../../mcp/mcpHub';
import { formatConfigError, loadMcpConfig, type McpConfigError } from '../../../mcp/mcpConfig';
import { withheldNotes } from '../../../mcp/serverInputs';

/** Where the MCP configuration comes from, read fresh on each refresh. */
export interface McpSource {
  trusted: boolean;
  folder: string | undefined;
  /** The user's `stepwise.mcpServers` setting: these servers start as configured. */
  settings: unknown;
  /** Keeps known secrets out of stdio servers' environments (read when the hub is created). */
  environment?: EnvironmentRules;
  /** The workspace's own `stepwise.mcpServers` (a workspace source: its servers need the user's trust). */
  workspaceSettings?: unknown;
  /** The user's trust in workspace servers; without it no workspace server starts. */
  serverTrust?: McpServerTrust;
}

/** How the host answers requests servers send it; each one declares the matching client capability. */
export interface McpServerRequests {
  sampling?: SamplingHandler;
  elicitation?: ElicitationHandler;
}

/**
 * Runs the MCP servers of the user's `stepwise.mcpServers` setting and, once the user trusts each
 * one (`serverTrust`), those of the workspace (`.vscode/mcp.json`, `.stepwise/mcp.json`, the
 * workspace's `stepwise.mcpServers`); their tools join the shared registry. Only in a trusted
 * workspace: a stdio server is code the workspace asks to run, so in Restricted Mode every server is stopped.
 * Nothing connects until `start` (the sidebar or panel is shown, a task starts, an MCP command
 * runs): activation with a closed sidebar starts no server. `refresh` then applies the current
 * configuration (unchanged servers keep running; before `start` it does nothing, the configuration
 * is read when MCP starts); servers the user turned off in the sidebar stay off for the session. State changes go to `onServers`; servers'
 * sampling and elicitation requests go to `requests`.
 */
export class McpHost {
  private hub: McpHub | undefined;
  private readonly disabled = new Set<string>();
  private workspace: WorkspaceServer[] = [];
  /** Entries that did not load (a secret refused in a header, a broken entry): shown as servers in error. */
  private broken: McpServerState[] = [];
  private refreshing: Promise<void> = Promise.resolve();
  private started = false;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly logger: Logger,
    private readonly source: () => McpSource,
    private readonly onServers: (servers: McpServerState[]) => void,
    private readonly requests: McpServerRequests = {},
  ) {}

  /** Starts MCP on first use: loads the configuration and connects its servers. Later calls wait for the current refresh. */
  start(): Promise<void> {
    if (this.started) return this.refreshing;
    this.started = true;
    return this.refresh();
  }

  /** Starts MCP, or applies the configuration again once started: a task about to start, the user's review of a change. */
  startOrRefresh(): Promise<void> {
    return this.started ? this.refresh() : this.start();
  }

  /** Once started: loads the configuration and (re)connects servers; problems are logged, never thrown. Calls are serialised. */
  refresh(): Promise<void> {
    if (!this.started) return this.refreshing;
    this.refreshing = this.refreshing.then(() => this.apply()).catch((error) => this.logger.error('MCP servers could not be configured', error));
    return this.refreshing;
  }

  /** Restarts one server now (also one that gave up). */
  async restart(name: string): Promise<void> {
    await this.start();
    if (!this.source().trusted || !this.hub) return;
    await this.hub.restart(name);
  }

  /** Turns one server on or off for this session. */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    if (enabled) this.disabled.delete(name);
    else this.disabled.add(name);
    await this.startOrRefresh();
  }

  /** The workspace's servers of the last refresh, trusted or waiting (for "Manage Trusted MCP Servers"). */
  workspaceServers(): WorkspaceServer[] {
    return [...this.workspace];
  }

  /** The servers' current states (`[]` when none is configured or the workspace is untrusted). */
  states(): McpServerState[] {
    return [...(this.hub?.states() ?? []), ...this.broken];
  }

  /** Prompt templates of the connected servers (`[]` when none runs). */
  async listPrompts(signal?: AbortSignal): Promise<McpPromptInfo[]> {
    await this.start();
    if (!this.source().trusted || !this.hub) return [];
    return this.hub.listPrompts(signal);
  }

  /** Renders one server's prompt with `args`; throws when the server is not running or refuses. */
  async getPrompt(server: string, name: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptResult> {
    await this.start();
    if (!this.source().trusted || !this.hub) throw new Error(`MCP server "${server}" is not running`);
    return this.hub.getPrompt(server, name, args, signal);
  }

  private async apply(): Promise<void> {
    const { trusted, folder, settings, workspaceSettings, serverTrust } = this.source();
    if (!trusted) {
      this.workspace = [];
      this.broken = [];
      await this.stop();
      return;
    }
    const loaded = await loadMcpConfig({
      ...(folder ? { workspaceFolder: folder } : {}),
      settings,
      workspaceSettings,
      readFile: nodeConfigReader,
      env: process.env,
      userHome: os.homedir(),
      // The expansion policy: a secret reaches a server only through `env` of the user's own setting (or a passed-through name).
      ...(this.source().environment ? { secrets: this.source().environment } : {}),
    });
    for (const error of loaded.errors) this.logger.warn(`MCP configuration: ${formatConfigError(error)}`);
    for (const note of loaded.servers.flatMap(withheldNotes)) this.logger.warn(`MCP configuration: ${note}`);
    this.broken = loaded.errors.flatMap((error) => (error.server !== undefined ? [brokenState(error)] : []));
    // A workspace server is code the repository asks to run: it starts only once the user trusts it.
    const { allowed, waiting } = partitionByTrust(loaded.servers, serverTrust);
    this.workspace = loaded.servers.filter(isWorkspaceServer).map(toWorkspaceServer);
    for (const server of waiting) this.logger.info(`MCP server ${server.name} (${server.source}) waits for the user's trust: ${server.description}`);
    serverTrust?.onWaiting(waiting);
    const config = { servers: allowed };
    if (!config.servers.length && !this.hub) {
      this.onServers(this.states());
      return;
    }
    // A lazy require (not `import()`): bundled, it stays synchronous and evaluates the SDK only now.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { McpHub } = require('../../../mcp/mcpHub') as typeof HubModule;
    this.hub ??= new McpHub({
      registry: this.registry,
      logger: this.logger,
      roots: folder ? [folder] : [],
      clientInfo: { name: 'stepwise-vscode', version: '0.1.0' },
      // In VS Code the runtime is the editor's: a bare `node` must run it as plain Node.
      spawnEnv: { ELECTRON_RUN_AS_NODE: '1' },
      ...(this.source().environment ? { environment: this.source().environment } : {}),
      nodeExecPath: process.execPath,
      ...(this.requests.sampling ? { sampling: this.requests.sampling } : {}),
      ...(this.requests.elicitation ? { elicitation: this.requests.elicitation } : {}),
      onStateChange: (state) => {
        this.logger.info(`MCP server ${state.name}: ${state.status}${state.lastError ? ` (${state.lastError})` : ''}${state.tools.length ? `, ${state.tools.length} tools` : ''}`);
        if (this.hub) this.onServers(this.states());
      },
    });
    await this.hub.configure(config.servers.map((server) => (this.disabled.has(server.name) ? { ...server, enabled: false } : server)));
    this.onServers(this.states());
  }

  /** Stops every server (their tools leave the registry). */
  async stop(): Promise<void> {
    const hub = this.hub;
    this.hub = undefined;
    await hub?.dispose();
    this.onServers(this.states());
  }
}

/** A server whose entry did not load, as the views show it: in error, with the reason (it never started). */
function brokenState(error: McpConfigError): McpServerState {
  return { name: error.server!, status: 'error', tools: [], lastError: formatConfigError(error), restartAttempts: 0, source: error.source };
}
