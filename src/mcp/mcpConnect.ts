import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, CreateMessageResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  Client,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  SSEClientTransport,
  StdioClientTransport,
  StreamableHTTPClientTransport,
  ToolListChangedNotificationSchema,
  UnauthorizedError,
} from './mcpSdk';
import { basename } from 'node:path';
import { closeClient } from './closeClient';
import type { McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from './mcpConfig';
import type { ElicitationHandler, SamplingHandler } from './mcpTypes';
import { toSamplingRequest } from './samplingRequest';
import { childEnvironment, SERVER_ENV_NAMES } from '../agent/secrets/childEnvironment';
import type { EnvironmentRules } from '../agent/secrets/secretEnv';
import { egressFetch } from '../node/web/egressFetch';

/** What a connection needs besides the server's configuration. */
export interface ConnectOptions {
  clientInfo: { name: string; version: string };
  /** Current workspace folders as `file://` roots. */
  roots: () => { uri: string; name?: string }[];
  sampling?: SamplingHandler;
  elicitation?: ElicitationHandler;
  /** Extra environment for stdio servers, under the entry's own `env` (e.g. `ELECTRON_RUN_AS_NODE=1`). */
  spawnEnv?: Record<string, string>;
  /** Keeps known secrets (the model key) out of a stdio server's environment. */
  environment?: EnvironmentRules;
  /** Replaces a bare `node` command (VS Code passes its own executable). */
  nodeExecPath?: string;
  /** Working folder for stdio servers without `cwd`. */
  defaultCwd?: string;
  /** Timeout of the `initialize` handshake. */
  connectTimeoutMs: number;
  /** Each line a stdio server writes to stderr. */
  onStderr: (line: string) => void;
  /** The server announced `notifications/tools/list_changed`. */
  onToolsChanged: () => void;
  signal?: AbortSignal;
}

/** A connected client and how it got there. */
export interface McpConnection {
  client: Client;
  transport: 'stdio' | 'streamable-http' | 'sse';
  pid?: number;
}

function capabilities(options: ConnectOptions): ClientCapabilities {
  return {
    roots: { listChanged: true },
    ...(options.sampling ? { sampling: {} } : {}),
    ...(options.elicitation ? { elicitation: { form: {} } } : {}),
  };
}

/** A client with the roots, sampling and elicitation handlers wired to the options. */
function createClient(config: McpServerConfig, options: ConnectOptions): Client {
  const client = new Client(options.clientInfo, { capabilities: capabilities(options) });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: options.roots() }));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged());
  const sampling = options.sampling;
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra): Promise<CreateMessageResult> => {
      const answer = await sampling(toSamplingRequest(config.name, request.params), extra.signal);
      if (!answer.approved) throw new McpError(-1, answer.reason ? `User rejected sampling request: ${answer.reason}` : 'User rejected sampling request');
      return {
        role: 'assistant',
        content: { type: 'text', text: answer.text },
        model: answer.model,
        ...(answer.stopReason ? { stopReason: answer.stopReason } : {}),
      };
    });
  }
  const elicitation = options.elicitation;
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
      const params = request.params;
      if (params.mode === 'url') throw new McpError(ErrorCode.InvalidParams, 'URL elicitation is not supported by this client');
      return elicitation(
        { server: config.name, message: params.message, requestedSchema: params.requestedSchema as Record<string, unknown> },
        extra.signal,
      );
    });
  }
  return client;
}

function isBareNode(command: string): boolean {
  return /^node(\.exe)?$/i.test(basename(command)) && !/[\\/]/.test(command);
}

async function connectStdio(config: McpStdioServerConfig, options: ConnectOptions): Promise<McpConnection> {
  const command = options.nodeExecPath && isBareNode(config.command) ? options.nodeExecPath : config.command;
  const cwd = config.cwd ?? options.defaultCwd;
  const transport = new PidStdioTransport({
    command,
    args: config.args,
    // The one builder: the SDK's few inherited names (HOME, PATH…) and the entry's own variables,
    // minus known secrets.
    env: masked(childEnvironment({ kind: 'server', parent: process.env, explicit: { ...options.spawnEnv, ...config.env }, ...(options.environment ? { rules: options.environment } : {}) })),
    stderr: 'pipe',
    ...(cwd !== undefined ? { cwd } : {}),
  });
  let pending = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    pending += chunk.toString();
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') options.onStderr(line);
  });
  const client = createClient(config, options);
  try {
    await client.connect(transport, { timeout: options.connectTimeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    await closeClient(client, transport.spawnedPid);
    throw error;
  }
  const pid = transport.spawnedPid;
  return { client, transport: 'stdio', ...(pid !== undefined ? { pid } : {}) };
}

/**
 * The SDK merges its own copy of HOME, PATH… under the env it is given: a name the builder dropped
 * (its value held a secret) is set empty so the SDK's copy cannot bring it back.
 */
function masked(env: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const name of SERVER_ENV_NAMES) if (!(name in out) && process.env[name] !== undefined) out[name] = '';
  return out;
}

/** Remembers the PID after the SDK forgets it (it clears the process on close), so a failed start can still be ended. */
class PidStdioTransport extends StdioClientTransport {
  spawnedPid: number | undefined;

  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid ?? undefined;
  }
}

async function connectWith(
  config: McpHttpServerConfig,
  options: ConnectOptions,
  make: () => Transport,
): Promise<Client> {
  const client = createClient(config, options);
  try {
    await client.connect(make(), { timeout: options.connectTimeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    return client;
  } catch (error) {
    await closeClient(client, undefined);
    throw error;
  }
}

/** Time for an MCP server's answer headers to arrive: the hub's default call timeout (a call may think before answering). */
const MCP_HEADERS_TIMEOUT_MS = 120_000;
/** Bytes of one MCP answer or event stream. */
const MCP_MAX_BYTES = 64 * 1024 * 1024;

async function connectHttp(config: McpHttpServerConfig, options: ConnectOptions): Promise<McpConnection> {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: config.headers };
  // Every request goes through the egress client: the configured server's origin is the user's
  // choice (reachable even on loopback); any other origin a redirect names is checked.
  const egress = egressFetch({
    policy: { allowHosts: [], denyHosts: [] },
    trustedOrigin: url.origin,
    // A call that streams progress has its headers at once; one answered as plain JSON within its own timeout.
    headersTimeoutMs: Math.max(options.connectTimeoutMs, config.timeoutMs ?? 0, MCP_HEADERS_TIMEOUT_MS) + 5_000,
    maxBytes: MCP_MAX_BYTES,
    name: `MCP server "${config.name}"`,
  });
  const streamable = () => new StreamableHTTPClientTransport(url, { requestInit, fetch: egress });
  const sse = () => new SSEClientTransport(url, { requestInit, fetch: egress });
  if (config.transport === 'sse') return { client: await connectWith(config, options, sse), transport: 'sse' };
  if (config.transport === 'streamable-http') return { client: await connectWith(config, options, streamable), transport: 'streamable-http' };
  try {
    return { client: await connectWith(config, options, streamable), transport: 'streamable-http' };
  } catch (streamableError) {
    if (streamableError instanceof UnauthorizedError || options.signal?.aborted) throw streamableError;
    try {
      return { client: await connectWith(config, options, sse), transport: 'sse' };
    } catch (sseError) {
      throw new Error(`Streamable HTTP failed (${messageOf(streamableError)}), then SSE failed (${messageOf(sseError)})`);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Spawns (stdio) or reaches (HTTP) one server and completes the MCP handshake. HTTP servers without
 * an explicit transport try Streamable HTTP first, then SSE. Throws when the server cannot be reached;
 * nothing is left running then.
 */
export function connectMcpServer(config: McpServerConfig, options: ConnectOptions): Promise<McpConnection> {
  return config.kind === 'stdio' ? connectStdio(config, options) : connectHttp(config, options);
}
