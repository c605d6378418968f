import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolError } from '../agent/errors';
import { silentLogger, type Logger } from '../agent/ports';
import type { ToolRegistry } from '../agent/tools/toolRegistry';
import type { McpServerConfig } from './mcpConfig';
import { renderContent, renderResourceContents, type RenderedContent } from './mcpContent';
import { McpServerSession } from './mcpServerSession';
import { createMcpTool } from './mcpTool';
import {
  DEFAULT_RESTART_POLICY,
  type ElicitationHandler,
  type McpPromptInfo,
  type McpPromptResult,
  type McpResourceInfo,
  type McpServerState,
  type RestartPolicy,
  type SamplingHandler,
} from './mcpTypes';
import { createResourcesTool, RESOURCES_TOOL_NAME } from './resourcesTool';
import { exposedToolName } from './toolNames';
import type { EnvironmentRules } from '../agent/secrets/secretEnv';
import { ToolSchemaChecker } from './toolSchema';

/** How the hub connects servers and exposes their tools. Only `registry` is required. */
export interface McpHubOptions {
  /** MCP tools are registered here as `server__tool` (and `mcp_resources` while a server has resources). */
  registry: ToolRegistry;
  logger?: Logger;
  /** Absolute paths of the workspace folders, answered to `roots/list` as `file://` URIs. */
  roots?: string[];
  clientInfo?: { name: string; version: string };
  /** Declares the sampling capability; the host asks the user, then its model. */
  sampling?: SamplingHandler;
  /** Declares the elicitation capability (form mode); the host asks the user. */
  elicitation?: ElicitationHandler;
  /** Extra environment for stdio servers (the VS Code host passes `ELECTRON_RUN_AS_NODE=1`). */
  spawnEnv?: Record<string, string>;
  /** Keeps known secrets (the model key) out of stdio servers' environments. */
  environment?: EnvironmentRules;
  /** Executable used for a bare `node` command (the VS Code host passes `process.execPath`). */
  nodeExecPath?: string;
  /** Working folder of stdio servers without `cwd`; default the first root. */
  defaultCwd?: string;
  /** Per-call timeout when the server entry has none, reset by progress; default 120 s. */
  callTimeoutMs?: number;
  /** Timeout of the handshake and of tool listing; default 30 s. */
  connectTimeoutMs?: number;
  /** Tool output above this is cut (head + tail); default 40,000 characters. */
  maxResultChars?: number;
  restartPolicy?: Partial<RestartPolicy>;
  /** Every state change of every server. */
  onStateChange?: (state: McpServerState) => void;
  /** Register `mcp_resources` while a connected server offers resources; default true. */
  resourcesTool?: boolean;
}

const DEFAULT_CALL_TIMEOUT_MS = 120_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESULT_CHARS = 40_000;

/**
 * Connects the configured MCP servers and keeps the registry in step with their tools: tools join
 * when a server connects or announces `tools/list_changed`, and leave when it disconnects. Crashed
 * servers restart with backoff. `dispose()` closes everything and ends every spawned process.
 */
export class McpHub {
  private readonly sessions = new Map<string, McpServerSession>();
  /** server -> (MCP tool name -> model-facing name) */
  private readonly exposed = new Map<string, Map<string, string>>();
  private readonly checker = new ToolSchemaChecker();
  private readonly logger: Logger;
  private readonly policy: RestartPolicy;
  private roots: string[];
  private disposed = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: McpHubOptions) {
    this.logger = options.logger ?? silentLogger;
    this.policy = { ...DEFAULT_RESTART_POLICY, ...options.restartPolicy };
    this.roots = [...(options.roots ?? [])];
  }

  /**
   * Applies a configuration: removed or changed servers are stopped, new or changed ones started.
   * Resolves when every started server has connected or failed its first attempt (see `states()`).
   */
  configure(servers: readonly McpServerConfig[]): Promise<void> {
    return this.serialized(() => this.apply(servers));
  }

  /** Runs configuration changes one at a time (a settings change may arrive while servers start). */
  private serialized(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }

  private async apply(servers: readonly McpServerConfig[]): Promise<void> {
    if (this.disposed) throw new Error('McpHub is disposed');
    const wanted = new Map(servers.map((server) => [server.name, server]));
    const stops: Promise<void>[] = [];
    for (const [name, session] of this.sessions) {
      const next = wanted.get(name);
      if (next && JSON.stringify(next) === JSON.stringify(session.config)) {
        wanted.delete(name);
        continue;
      }
      this.sessions.delete(name);
      stops.push(session.stop());
    }
    await Promise.all(stops);
    if (this.disposed) return;
    const starts: Promise<void>[] = [];
    for (const config of wanted.values()) {
      const session = this.createSession(config);
      this.sessions.set(config.name, session);
      starts.push(session.start());
    }
    await Promise.all(starts);
  }

  /** Snapshots of every configured server (a server removed by `configure` or `dispose` last reports `disabled`). */
  states(): McpServerState[] {
    return [...this.sessions.values()].map((session) => session.state);
  }

  /** The snapshot of one server. */
  state(name: string): McpServerState | undefined {
    return this.sessions.get(name)?.state;
  }

  /** Restarts a server now (also one that gave up after its automatic attempts, or a disabled one). */
  async restart(name: string): Promise<void> {
    const session = this.sessions.get(name);
    if (!session) throw new Error(`No MCP server named "${name}"`);
    await session.restart();
  }

  /** Replaces the workspace folders and tells connected servers (`notifications/roots/list_changed`). */
  async setRoots(paths: readonly string[]): Promise<void> {
    this.roots = [...paths];
    await Promise.all([...this.sessions.values()].map((session) => session.notifyRootsChanged()));
  }

  /** Prompts of all connected servers; a server that fails to answer is logged and skipped. */
  async listPrompts(signal?: AbortSignal): Promise<McpPromptInfo[]> {
    const lists = await Promise.all(
      this.connected().map(async (session) => {
        try {
          const prompts = await session.listPrompts(signal);
          return prompts.map((prompt) => ({
            server: session.config.name,
            name: prompt.name,
            ...(prompt.title !== undefined ? { title: prompt.title } : {}),
            ...(prompt.description !== undefined ? { description: prompt.description } : {}),
            arguments: (prompt.arguments ?? []).map((arg) => ({
              name: arg.name,
              required: arg.required === true,
              ...(arg.description !== undefined ? { description: arg.description } : {}),
            })),
          }));
        } catch (error) {
          this.logger.warn(`MCP server "${session.config.name}": listing prompts failed`, error);
          return [];
        }
      }),
    );
    return lists.flat();
  }

  /** Renders a prompt; throws `ToolError` when the server is unknown, not connected or refuses. */
  async getPrompt(server: string, name: string, args: Record<string, string> = {}, signal?: AbortSignal): Promise<McpPromptResult> {
    const result = await this.session(server).getPrompt(name, args, signal);
    return {
      ...(result.description !== undefined ? { description: result.description } : {}),
      messages: result.messages.map((message) => ({ role: message.role, text: renderContent([message.content]).text })),
    };
  }

  /** Resources and templates of one server, or of every connected server. */
  async listResources(server?: string, signal?: AbortSignal): Promise<McpResourceInfo[]> {
    const sessions = server !== undefined ? [this.session(server)] : this.connected().filter((s) => s.hasResources);
    const lists = await Promise.all(
      sessions.map(async (session) => {
        const { resources, templates } = await session.listResources(signal);
        const name = session.config.name;
        return [
          ...resources.map((r) => ({ server: name, uri: r.uri, name: r.name, template: false, ...optional(r.description, r.mimeType) })),
          ...templates.map((t) => ({ server: name, uri: t.uriTemplate, name: t.name, template: true, ...optional(t.description, t.mimeType) })),
        ];
      }),
    );
    return lists.flat();
  }

  /** Reads a resource; without `server`, the one connected server with resources, or the one listing `uri`. */
  async readResource(uri: string, server?: string, signal?: AbortSignal): Promise<RenderedContent> {
    const session = server !== undefined ? this.session(server) : await this.serverForUri(uri, signal);
    const result = await session.readResource(uri, signal);
    return renderResourceContents(result.contents);
  }

  /** Stops every server (spawned processes end) and removes all MCP tools. Idempotent. */
  dispose(): Promise<void> {
    this.disposed = true;
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    // Stop at once (not queued): a server still connecting is aborted; a queued configure then finds the hub disposed.
    return Promise.all(sessions.map((session) => session.stop())).then(() => this.updateResourcesTool());
  }

  private async serverForUri(uri: string, signal?: AbortSignal): Promise<McpServerSession> {
    const candidates = this.connected().filter((s) => s.hasResources);
    if (candidates.length === 1) return candidates[0]!;
    if (candidates.length === 0) throw new ToolError('No connected MCP server offers resources.');
    const listed = await this.listResources(undefined, signal);
    const owner = listed.find((r) => !r.template && r.uri === uri);
    if (owner) return this.session(owner.server);
    throw new ToolError(`No server lists "${uri}"; pass \`server\` (one of: ${candidates.map((s) => s.config.name).join(', ')}).`);
  }

  private session(name: string): McpServerSession {
    const session = this.sessions.get(name);
    if (!session) throw new ToolError(`No MCP server named "${name}". Configured: ${[...this.sessions.keys()].join(', ') || 'none'}.`);
    return session;
  }

  private connected(): McpServerSession[] {
    return [...this.sessions.values()].filter((session) => session.state.status === 'connected');
  }

  private createSession(config: McpServerConfig): McpServerSession {
    const defaultCwd = this.options.defaultCwd ?? this.roots[0];
    const session: McpServerSession = new McpServerSession(config, {
      connectOptions: {
        clientInfo: this.options.clientInfo ?? { name: 'stepwise', version: '0.1.0' },
        roots: () => this.roots.map((path) => ({ uri: pathToFileURL(path).href, name: basename(path) })),
        connectTimeoutMs: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        ...(this.options.sampling ? { sampling: this.options.sampling } : {}),
        ...(this.options.elicitation ? { elicitation: this.options.elicitation } : {}),
        ...(this.options.spawnEnv ? { spawnEnv: this.options.spawnEnv } : {}),
        ...(this.options.environment ? { environment: sessionEnvironment(this.options.environment, config) } : {}),
        ...(this.options.nodeExecPath ? { nodeExecPath: this.options.nodeExecPath } : {}),
        ...(defaultCwd !== undefined ? { defaultCwd } : {}),
      },
      policy: this.policy,
      logger: this.logger,
      onState: (state) => {
        if (this.sessions.get(config.name) === session || state.status === 'disabled') {
          this.updateResourcesTool();
          this.options.onStateChange?.(state);
        }
      },
      onTools: (tools) => this.syncTools(session, tools),
    });
    return session;
  }

  /** Replaces a server's tools in the registry, keeping the names of tools that stay. */
  private syncTools(session: McpServerSession, tools: readonly McpToolDefinition[]): string[] {
    const config = session.config;
    const registry = this.options.registry;
    const previous = this.exposed.get(config.name) ?? new Map<string, string>();
    for (const name of previous.values()) registry.unregister(name);
    const next = new Map<string, string>();
    for (const definition of tools) {
      if (next.has(definition.name)) {
        this.logger.warn(`MCP server "${config.name}" lists tool "${definition.name}" twice; the first is kept`);
        continue;
      }
      const kept = previous.get(definition.name);
      const exposedName =
        kept !== undefined && !registry.get(kept) ? kept : exposedToolName(config.name, definition.name, (candidate) => registry.get(candidate) !== undefined);
      const { check, problem } = this.checker.compile(definition.inputSchema as Record<string, unknown>);
      if (problem) this.logger.warn(`MCP tool "${definition.name}" of "${config.name}": schema not checked locally (${problem})`);
      const autoApproved = config.autoApprove === true || config.autoApprove.includes(definition.name) || config.autoApprove.includes(exposedName);
      registry.register(
        createMcpTool({
          server: config.name,
          definition,
          exposedName,
          invoker: session,
          autoApproved,
          timeoutMs: config.timeoutMs ?? this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
          maxResultChars: this.options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
          ...(check ? { check } : {}),
        }),
      );
      next.set(definition.name, exposedName);
    }
    if (next.size) this.exposed.set(config.name, next);
    else this.exposed.delete(config.name);
    return [...next.values()];
  }

  /** `mcp_resources` is offered only while some connected server has resources. */
  private updateResourcesTool(): void {
    if (this.options.resourcesTool === false) return;
    const registry = this.options.registry;
    const wanted = !this.disposed && this.connected().some((session) => session.hasResources);
    const present = registry.get(RESOURCES_TOOL_NAME) !== undefined;
    if (wanted && !present) registry.register(createResourcesTool(this, this.options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS));
    else if (!wanted && present) registry.unregister(RESOURCES_TOOL_NAME);
  }
}

/**
 * The environment rules of one server: the hub's, plus the `env` entries the expansion policy let
 * carry a secret (the user passed them on purpose), so the child environment keeps exactly those.
 */
function sessionEnvironment(rules: EnvironmentRules, config: McpServerConfig): EnvironmentRules {
  const passed = config.kind === 'stdio' ? (config.secretEnv ?? []) : [];
  return passed.length ? { ...rules, passThrough: [...(rules.passThrough ?? []), ...passed] } : rules;
}

function optional(description: string | undefined, mimeType: string | undefined): { description?: string; mimeType?: string } {
  return { ...(description !== undefined ? { description } : {}), ...(mimeType !== undefined ? { mimeType } : {}) };
}
