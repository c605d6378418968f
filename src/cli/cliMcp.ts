import { readFile, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Approver, Asker, Logger } from '../agent/ports';
import type { Model } from '../agent/model/types';
import type { ToolRegistry } from '../agent/tools/toolRegistry';
import { createAskerElicitationHandler, createModelSamplingHandler, formatConfigError, McpHub } from '../mcp';
import { parseMcpConfigText } from '../mcp/mcpConfig';
import { describeServer, formatServerInputs, serverInputs, withheldNotes } from '../mcp/serverInputs';
import { approveSampling } from '../mcp/samplingApproval';
import type { AgentEvent } from '../shared/events';
import { UsageError } from './cliArgs';
import type { EnvironmentRules } from '../agent/secrets/secretEnv';

/** What the CLI needs to connect the servers of `--mcp-config`. */
export interface CliMcpOptions {
  configPath: string;
  workspaceRoot: string;
  env: NodeJS.ProcessEnv;
  registry: ToolRegistry;
  model: Model;
  /** The run's policy approver (tool calls and sampling requests alike). */
  approver: Approver;
  /** The run's event stream: sampling approvals are recorded there like tool calls'. */
  emit: (event: AgentEvent) => void;
  asker: Asker;
  logger: Logger;
  warn: (text: string) => void;
  /** Keeps known secrets out of stdio servers' environments. */
  environment?: EnvironmentRules;
}

/**
 * Reads the `{"mcpServers": {...}}` file, reports broken entries (the others still load), connects
 * the servers and puts their tools into the registry. An unreadable file is a usage error.
 */
export async function connectCliMcp(options: CliMcpOptions): Promise<McpHub> {
  let text: string;
  try {
    text = await readFile(options.configPath, 'utf8');
  } catch (error) {
    throw new UsageError(`--mcp-config: cannot read ${options.configPath} (${error instanceof Error ? error.message : String(error)})`);
  }
  const { servers, errors } = parseMcpConfigText(text, options.configPath, {
    env: options.env,
    workspaceFolder: options.workspaceRoot,
    userHome: os.homedir(),
    // A file outside the workspace is the user's own (it may pass a secret, through `env` only); one
    // inside it is the repository's, even when named on the command line: secrets only by --pass-env.
    userSource: !isInside(options.workspaceRoot, await realpath(options.configPath).catch(() => path.resolve(options.configPath))),
    ...(options.environment ? { secrets: options.environment } : {}),
  });
  for (const error of errors) options.warn(`stepwise: MCP config: ${formatConfigError(error)}\n`);
  for (const note of servers.flatMap(withheldNotes)) options.warn(`stepwise: MCP config: ${note}\n`);
  // The file is the user's own, so nothing asks; what each server receives is told in the same words as VS Code's trust prompt.
  for (const server of servers) {
    const inputs = formatServerInputs(serverInputs(server));
    options.logger.debug(`MCP server "${server.name}" (${server.source}) runs: ${describeServer(server)}${inputs.length ? `. It receives: ${inputs.join('; ')}` : ''}`);
  }
  const hub = new McpHub({
    registry: options.registry,
    logger: options.logger,
    roots: [options.workspaceRoot],
    defaultCwd: options.workspaceRoot,
    ...(options.environment ? { environment: options.environment } : {}),
    sampling: createModelSamplingHandler({
      model: options.model,
      // Sampling spends the user's tokens on a server's behalf: the policy decides, recorded in the run's events as in VS Code.
      approve: (request, signal) => approveSampling(request, { approver: options.approver, emit: options.emit }, signal),
    }),
    elicitation: createAskerElicitationHandler(options.asker),
    onStateChange: (state) => {
      if (state.status === 'error' && state.lastError) options.warn(`stepwise: MCP server "${state.name}": ${state.lastError}\n`);
    },
  });
  await hub.configure(servers);
  return hub;
}

/** True when `file` is `root` or inside it (`root` is already real, as the CLI resolves the workspace). */
function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
