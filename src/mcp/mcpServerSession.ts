import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  Progress,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool as McpToolDefinition,
} from '@modelcontextprotocol/sdk/types.js';
import { CancelledError, ToolError } from '../agent/errors';
import type { Logger } from '../agent/ports';
import { closeClient } from './closeClient';
import type { McpServerConfig } from './mcpConfig';
import { connectMcpServer, type ConnectOptions } from './mcpConnect';
import { ErrorCode, McpError, StreamableHTTPClientTransport } from './mcpSdk';
import type { McpToolInvoker } from './mcpTool';
import type { McpServerState, RestartPolicy } from './mcpTypes';

/** What a session gets from the hub. */
export interface SessionHooks {
  connectOptions: Omit<ConnectOptions, 'onStderr' | 'onToolsChanged' | 'signal'>;
  policy: RestartPolicy;
  logger: Logger;
  /** A new state snapshot. */
  onState(state: McpServerState): void;
  /** The server's current tools (empty when it disconnects); returns their model-facing names. */
  onTools(tools: McpToolDefinition[]): string[];
}

const STDERR_LINES_KEPT = 20;
const MAX_LIST_PAGES = 50;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One configured server over its lifetime: connects, lists and follows its tools, restarts it with
 * exponential backoff after a crash, and turns transport failures into messages for the model.
 */
export class McpServerSession implements McpToolInvoker {
  private current: McpServerState;
  private client: Client | undefined;
  /** Bumped on every connect and stop, so events of an old connection are ignored. */
  private generation = 0;
  private stopped = false;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshChain: Promise<void> = Promise.resolve();
  private connectAbort: AbortController | undefined;
  private connecting: Promise<void> | undefined;
  private connectedAt = 0;
  private readonly stderrTail: string[] = [];

  constructor(
    readonly config: McpServerConfig,
    private readonly hooks: SessionHooks,
  ) {
    this.current = {
      name: config.name,
      status: config.enabled ? 'connecting' : 'disabled',
      tools: [],
      restartAttempts: 0,
      source: config.source,
    };
  }

  /** True while connected to a server that offers resources. */
  get hasResources(): boolean {
    return Boolean(this.client?.getServerCapabilities()?.resources);
  }

  /** The latest snapshot. */
  get state(): McpServerState {
    return this.current;
  }

  /** Connects (unless disabled); resolves once the first attempt has succeeded or failed. */
  async start(): Promise<void> {
    if (!this.config.enabled) {
      this.hooks.onState(this.current);
      return;
    }
    this.stopped = false;
    await this.connect();
  }

  /** Closes and connects again now, with a fresh restart budget. */
  async restart(): Promise<void> {
    await this.close();
    this.stopped = false;
    this.current = { ...this.current, restartAttempts: 0 };
    await this.connect();
  }

  /** Closes the connection (a stdio server's process ends) and leaves the server in `status`. */
  async stop(status: 'disabled' | 'error' = 'disabled'): Promise<void> {
    this.stopped = true;
    await this.close();
    this.update({ status, tools: [], pid: undefined, transport: undefined });
  }

  private async close(): Promise<void> {
    this.generation++;
    clearTimeout(this.restartTimer);
    clearTimeout(this.refreshTimer);
    this.restartTimer = this.refreshTimer = undefined;
    this.connectAbort?.abort();
    const client = this.client;
    const pid = this.current.pid;
    this.client = undefined;
    this.hooks.onTools([]);
    if (client) {
      const transport = client.transport;
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {});
      await closeClient(client, pid);
    }
    // A connection still being set up is torn down by its own attempt; wait so no process outlives stop().
    await this.connecting;
  }

  private connect(): Promise<void> {
    const attempt = this.attemptConnection();
    this.connecting = attempt;
    return attempt.finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
  }

  private async attemptConnection(): Promise<void> {
    const generation = ++this.generation;
    const abort = new AbortController();
    this.connectAbort = abort;
    this.stderrTail.length = 0;
    this.update({ status: 'connecting', tools: [], pid: undefined, transport: undefined });
    try {
      const connection = await connectMcpServer(this.config, {
        ...this.hooks.connectOptions,
        signal: abort.signal,
        onStderr: (line) => this.onStderr(line),
        onToolsChanged: () => {
          if (generation === this.generation) this.scheduleRefresh();
        },
      });
      if (generation !== this.generation) {
        await closeClient(connection.client, connection.pid);
        return;
      }
      this.client = connection.client;
      this.connectedAt = Date.now();
      connection.client.onclose = () => {
        if (generation === this.generation && !this.stopped) this.lost(this.exitDescription());
      };
      const tools = await this.listTools(connection.client);
      if (generation !== this.generation) return;
      this.update({
        status: 'connected',
        lastError: undefined,
        transport: connection.transport,
        pid: connection.pid,
        tools: this.hooks.onTools(tools),
      });
    } catch (error) {
      if (generation !== this.generation) return;
      const stderr = this.stderrTail.length ? ` (stderr: ${this.stderrTail.slice(-3).join(' | ')})` : '';
      this.lost(`could not connect: ${messageOf(error)}${stderr}`);
    }
  }

  private exitDescription(): string {
    const what = this.config.kind === 'stdio' ? 'the server process exited' : 'the connection closed';
    return this.stderrTail.length ? `${what}; last stderr: ${this.stderrTail.slice(-3).join(' | ')}` : what;
  }

  private onStderr(line: string): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_LINES_KEPT) this.stderrTail.shift();
    this.hooks.logger.debug(`[mcp:${this.config.name}] ${line}`);
  }

  /** The connection failed or ended unexpectedly: report, drop the tools, maybe restart later. */
  private lost(message: string): void {
    this.generation++;
    const client = this.client;
    const pid = this.current.pid;
    this.client = undefined;
    if (client) void closeClient(client, pid);
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    this.hooks.onTools([]);
    this.hooks.logger.warn(`MCP server "${this.config.name}": ${message}`);
    let attempts = this.current.restartAttempts;
    if (this.connectedAt && Date.now() - this.connectedAt >= this.hooks.policy.stableAfterMs) attempts = 0;
    this.connectedAt = 0;
    this.update({ status: 'error', lastError: message, tools: [], pid: undefined, transport: undefined, restartAttempts: attempts });
    if (this.stopped || attempts >= this.hooks.policy.maxAttempts) return;
    const { initialDelayMs, maxDelayMs } = this.hooks.policy;
    const delay = Math.min(initialDelayMs * 2 ** attempts, maxDelayMs);
    this.update({ status: 'restarting', restartAttempts: attempts + 1 });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopped) void this.connect();
    }, delay);
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer) return;
    // Servers often announce several changes in a burst; one re-list covers them.
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      const generation = this.generation;
      this.refreshChain = this.refreshChain.then(() => this.refreshTools(generation));
    }, 50);
  }

  private async refreshTools(generation: number): Promise<void> {
    const client = this.client;
    if (!client || generation !== this.generation) return;
    try {
      const tools = await this.listTools(client);
      if (generation !== this.generation) return;
      this.update({ tools: this.hooks.onTools(tools) });
    } catch (error) {
      this.hooks.logger.warn(`MCP server "${this.config.name}": re-listing tools failed`, error);
    }
  }

  private async listTools(client: Client): Promise<McpToolDefinition[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: McpToolDefinition[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.hooks.connectOptions.connectTimeoutMs });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  private update(patch: Partial<McpServerState>): void {
    const next: McpServerState = { ...this.current, ...patch };
    for (const key of Object.keys(next) as (keyof McpServerState)[]) if (next[key] === undefined) delete next[key];
    this.current = next;
    this.hooks.onState(next);
  }

  private requireClient(): Client {
    if (this.client && this.current.status === 'connected') return this.client;
    const why = this.current.lastError ? ` (${this.current.lastError})` : '';
    throw new ToolError(`MCP server "${this.config.name}" is not connected: it is ${this.current.status}${why}.`);
  }

  /** Calls a tool; see `McpToolInvoker`. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number; onprogress: (progress: Progress) => void },
  ): Promise<CallToolResult> {
    const client = this.requireClient();
    const generation = this.generation;
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: options.onprogress,
      })) as CallToolResult;
    } catch (error) {
      // The SDK reports an abort as a timeout McpError; callers expect a cancellation.
      if (options.signal.aborted) throw new CancelledError();
      throw this.callError(tool, error, generation, options.timeoutMs);
    }
  }

  private callError(tool: string, error: unknown, generation: number, timeoutMs: number): ToolError {
    const name = this.config.name;
    const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
    if (closed || generation !== this.generation) {
      const why = this.current.lastError ?? this.exitDescription();
      const restart = this.current.status === 'restarting' ? ' It is being restarted; its tools return when it is back.' : '';
      return new ToolError(`MCP server "${name}" exited during the call to "${tool}" (${why}). The call did not complete.${restart}`);
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new ToolError(`MCP tool "${tool}" of server "${name}" timed out: no answer or progress for ${Number((timeoutMs / 1000).toFixed(1))} s.`);
    }
    if (error instanceof McpError) return new ToolError(`MCP server "${name}" rejected the call to "${tool}": ${error.message}`);
    if (this.config.kind === 'http') {
      this.lost(`lost the connection: ${messageOf(error)}`);
      const retry = this.current.status === 'restarting' ? ' Reconnecting; its tools return when it is back.' : '';
      return new ToolError(`Lost the connection to MCP server "${name}" during the call to "${tool}" (${messageOf(error)}).${retry}`);
    }
    return new ToolError(`The call to "${tool}" of MCP server "${name}" failed: ${messageOf(error)}`);
  }

  /** Resources and templates, or none when the server offers no resources. */
  async listResources(signal?: AbortSignal): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }> {
    const client = this.requireClient();
    if (!client.getServerCapabilities()?.resources) return { resources: [], templates: [] };
    const options = signal ? { signal } : {};
    const resources: Resource[] = [];
    const templates: ResourceTemplate[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await client.listResources(cursor ? { cursor } : undefined, options);
      resources.push(...result.resources);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    cursor = undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const params: { cursor: string } | undefined = cursor ? { cursor } : undefined;
      const result: { resourceTemplates: ResourceTemplate[]; nextCursor?: string } | undefined = await client
        .listResourceTemplates(params, options)
        .catch(() => undefined);
      if (!result) break;
      templates.push(...result.resourceTemplates);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return { resources, templates };
  }

  /** Reads one resource. */
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.requireClient().readResource({ uri }, signal ? { signal } : {});
  }

  /** Prompts, or none when the server offers no prompts. */
  async listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    const client = this.requireClient();
    if (!client.getServerCapabilities()?.prompts) return [];
    const prompts: Prompt[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await client.listPrompts(cursor ? { cursor } : undefined, signal ? { signal } : {});
      prompts.push(...result.prompts);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return prompts;
  }

  /** Renders one prompt with its arguments. */
  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.requireClient().getPrompt({ name, arguments: args }, signal ? { signal } : {});
  }

  /** Tells a connected server that the roots changed. */
  async notifyRootsChanged(): Promise<void> {
    await this.client?.sendRootsListChanged().catch(() => {});
  }
}
