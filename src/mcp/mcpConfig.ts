import { z } from 'zod';
import type { EnvironmentRules } from '../agent/secrets/secretEnv';
import { parseJsonc } from './jsonc';
import { expandField, type ExpandedField, type McpFieldKind } from './secretExpansion';
import type { VariableContext } from './variables';

/** How an HTTP server is reached: `auto` tries Streamable HTTP first and falls back to SSE. */
export const HttpTransportKind = z.enum(['auto', 'streamable-http', 'sse']);
export type HttpTransportKind = z.infer<typeof HttpTransportKind>;

/**
 * One server entry as users write it, in any of the three sources (VS Code's `.vscode/mcp.json`,
 * the common `mcpServers` format, the `stepwise.mcpServers` setting). Unknown keys are ignored.
 */
export const McpServerEntry = z.looseObject({
  type: z.enum(['stdio', 'http', 'sse']).optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  transport: z.enum(['streamable-http', 'sse']).optional(),
  enabled: z.boolean().optional(),
  disabled: z.boolean().optional(),
  /** Tool names called without asking, or `true` for all of the server's tools. */
  autoApprove: z.union([z.array(z.string()), z.literal(true)]).optional(),
  /** Per-call timeout in seconds (reset by progress notifications). */
  timeout: z.number().positive().optional(),
});
export type McpServerEntry = z.infer<typeof McpServerEntry>;

/**
 * What expanding an entry needs: the variables, the known secrets and the user's pass-through names,
 * and whether the entries are the user's own configuration (only those may pass a secret by `env`).
 * Without `userSource` an entry is treated as the workspace's: deny by default.
 */
export interface ConfigContext extends VariableContext {
  secrets?: EnvironmentRules;
  userSource?: boolean;
}

/** A `name -> entry` map: the value of `stepwise.mcpServers`, `servers` or `mcpServers`. */
export const McpServerEntries = z.record(z.string(), z.unknown());
export type McpServerEntries = z.infer<typeof McpServerEntries>;

interface McpServerBase {
  name: string;
  /** Where the entry came from, for messages: `.vscode/mcp.json`, `settings (stepwise.mcpServers)`... */
  source: string;
  enabled: boolean;
  autoApprove: string[] | true;
  /** Per-call timeout; the hub's default when absent. */
  timeoutMs?: number;
}

/** A stdio server: a process Stepwise spawns and talks to over stdin/stdout. */
export interface McpStdioServerConfig extends McpServerBase {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Each `env` entry as written (`${env:TOKEN}`, a literal): what the trust prompt shows instead of values. */
  envFrom?: Record<string, string>;
  /** `env` entries the expansion policy let carry a secret: the child environment keeps exactly these. */
  secretEnv?: string[];
  /** Why each `env` entry the policy left out (a workspace passing a secret) was withheld; the server starts without them. */
  withheldEnv?: Record<string, string>;
}

/** A remote server reached over Streamable HTTP or SSE. */
export interface McpHttpServerConfig extends McpServerBase {
  kind: 'http';
  url: string;
  headers: Record<string, string>;
  transport: HttpTransportKind;
  /** Each header as written, for the trust prompt (values from `${env:…}` are never shown). */
  headersFrom?: Record<string, string>;
}

/** A validated server configuration with every variable expanded. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A problem with one file or entry; the other entries still load. */
export interface McpConfigError {
  source: string;
  server?: string;
  message: string;
}

/** What loading produced: the usable servers and what was wrong with the rest. */
export interface McpConfigResult {
  servers: McpServerConfig[];
  errors: McpConfigError[];
}

/** Formats an error the way users see it: `.vscode/mcp.json: server "x": "command" or "url" is required`. */
export function formatConfigError(error: McpConfigError): string {
  return `${error.source}: ${error.server !== undefined ? `server "${error.server}": ` : ''}${error.message}`;
}

/**
 * Validates a `name -> entry` map from one source. A broken entry becomes an error naming the
 * source and the entry; the others are returned. Pure: no I/O.
 */
export function parseServerEntries(entries: unknown, source: string, vars: ConfigContext): McpConfigResult {
  const servers: McpServerConfig[] = [];
  const errors: McpConfigError[] = [];
  if (entries === undefined || entries === null) return { servers, errors };
  if (typeof entries !== 'object' || Array.isArray(entries)) {
    return { servers, errors: [{ source, message: 'expected an object mapping server names to server entries' }] };
  }
  for (const [name, raw] of Object.entries(entries)) {
    const result = parseServerEntry(name, raw, source, vars);
    if ('error' in result) errors.push({ source, server: name, message: result.error });
    else servers.push(result.server);
  }
  return { servers, errors };
}

/**
 * Parses the text of a config file. `.vscode/mcp.json` keeps servers under `servers`, the common
 * format under `mcpServers`; either key is accepted. `inputs` and other keys are ignored.
 */
export function parseMcpConfigText(text: string, source: string, vars: ConfigContext): McpConfigResult {
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (error) {
    return { servers: [], errors: [{ source, message: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { servers: [], errors: [{ source, message: 'expected a JSON object with a "servers" or "mcpServers" object' }] };
  }
  const record = json as Record<string, unknown>;
  const entries = record.servers ?? record.mcpServers;
  if (entries === undefined) {
    return { servers: [], errors: [{ source, message: 'no "servers" or "mcpServers" object' }] };
  }
  return parseServerEntries(entries, source, vars);
}

type Expand = (value: string, field: string, kind: McpFieldKind) => ExpandedField;

/** The value of a field that is never withheld (only `env` entries are). */
const valueOf = (field: ExpandedField): string => ('value' in field ? field.value : '');

function parseServerEntry(
  name: string,
  raw: unknown,
  source: string,
  vars: ConfigContext,
): { server: McpServerConfig } | { error: string } {
  if (name.trim() === '') return { error: 'the server name is empty' };
  const parsed = McpServerEntry.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? `"${issue.path.join('.')}": ` : '';
    return { error: `${where}${issue?.message ?? 'invalid entry'}` };
  }
  const entry = parsed.data;
  try {
    // Every value goes through the one expansion policy: a secret may only reach `env`.
    const expand: Expand = (value, field, kind) => expandField(value, vars, vars.secrets ?? {}, { server: name, field, kind, userSource: vars.userSource === true });
    const base: McpServerBase = {
      name,
      source,
      enabled: entry.enabled !== false && entry.disabled !== true,
      autoApprove: entry.autoApprove ?? [],
      ...(entry.timeout !== undefined ? { timeoutMs: Math.round(entry.timeout * 1000) } : {}),
    };
    const wantsHttp = entry.type === 'http' || entry.type === 'sse' || (entry.type === undefined && entry.url !== undefined);
    if (entry.type === undefined && entry.url !== undefined && entry.command !== undefined) {
      return { error: 'give either "command" (stdio) or "url" (HTTP), not both' };
    }
    return wantsHttp ? parseHttpEntry(entry, base, expand) : parseStdioEntry(entry, base, expand);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function parseHttpEntry(entry: McpServerEntry, base: McpServerBase, expand: Expand): { server: McpServerConfig } | { error: string } {
  if (entry.url === undefined) return { error: `"url" is required for a server of type "${entry.type}"` };
  const url = valueOf(expand(entry.url, 'url', 'url'));
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    return { error: `"url" is not a valid URL: ${url}` };
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') {
    return { error: `"url" must use http or https: ${url}` };
  }
  const headers: Record<string, string> = {};
  const headersFrom: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry.headers ?? {})) {
    headers[key] = valueOf(expand(value, `headers.${key}`, 'header'));
    headersFrom[key] = value;
  }
  const transport: HttpTransportKind = entry.type === 'sse' ? 'sse' : (entry.transport ?? 'auto');
  return { server: { ...base, kind: 'http', url, headers, transport, headersFrom } };
}

function parseStdioEntry(entry: McpServerEntry, base: McpServerBase, expand: Expand): { server: McpServerConfig } | { error: string } {
  if (entry.command === undefined || entry.command.trim() === '') {
    return { error: entry.type === 'stdio' ? '"command" is required for a stdio server' : '"command" or "url" is required' };
  }
  const command = valueOf(expand(entry.command, 'command', 'command'));
  const args = (entry.args ?? []).map((arg, i) => valueOf(expand(arg, `args[${i}]`, 'arg')));
  const env: Record<string, string> = {};
  const envFrom: Record<string, string> = {};
  const secretEnv: string[] = [];
  const withheldEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry.env ?? {})) {
    if (value === null) continue;
    const written = typeof value === 'string' ? value : String(value);
    const expanded = expand(written, `env.${key}`, 'env');
    envFrom[key] = written;
    if ('withheld' in expanded) {
      withheldEnv[key] = expanded.withheld;
      continue;
    }
    env[key] = expanded.value;
    if (expanded.secret) secretEnv.push(key);
  }
  const cwd = entry.cwd !== undefined ? valueOf(expand(entry.cwd, 'cwd', 'cwd')) : undefined;
  const withheld = Object.keys(withheldEnv).length ? { withheldEnv } : {};
  return { server: { ...base, kind: 'stdio', command, args, env, ...(cwd !== undefined ? { cwd } : {}), envFrom, secretEnv, ...withheld } };
}

/** Reads a file's text; `undefined` when it does not exist. Injected so loading stays testable. */
export type ConfigFileReader = (absolutePath: string) => Promise<string | undefined>;

/** Where and how to load the server configuration. */
export interface LoadMcpConfigOptions {
  /** Absolute path of the workspace folder; its `.vscode/mcp.json` and `.stepwise/mcp.json` are read. */
  workspaceFolder?: string;
  /** The user's `stepwise.mcpServers` setting (a `name -> entry` map). */
  settings?: unknown;
  /** The workspace's own `stepwise.mcpServers` value (a workspace source, like the files). */
  workspaceSettings?: unknown;
  readFile: ConfigFileReader;
  /** Environment for `${env:VAR}`; usually `process.env`. */
  env: Record<string, string | undefined>;
  /** For `${userHome}`. */
  userHome?: string;
  /** Known secrets and the user's pass-through names (`stepwise.env.passThrough`): what expansion refuses. */
  secrets?: EnvironmentRules;
}

/** `source` of servers from the user's `stepwise.mcpServers` setting (the only source that is not the workspace's). */
export const MCP_USER_SETTINGS_SOURCE = 'settings (stepwise.mcpServers)';

/** `source` of servers from the workspace's `stepwise.mcpServers` (`.vscode/settings.json`). */
export const MCP_WORKSPACE_SETTINGS_SOURCE = 'workspace settings (stepwise.mcpServers)';

/** The workspace-relative config files, in increasing precedence. */
export const MCP_CONFIG_FILES = ['.vscode/mcp.json', '.stepwise/mcp.json'] as const;

/**
 * Loads servers from the user's setting, the workspace's setting, then `.vscode/mcp.json`, then `.stepwise/mcp.json`; a later source
 * replaces a same-named server of an earlier one. Never throws for bad configuration: a missing
 * file is skipped, an unreadable or broken one is reported in `errors`.
 */
export async function loadMcpConfig(options: LoadMcpConfigOptions): Promise<McpConfigResult> {
  const vars: ConfigContext = {
    env: options.env,
    ...(options.workspaceFolder !== undefined ? { workspaceFolder: options.workspaceFolder } : {}),
    ...(options.userHome !== undefined ? { userHome: options.userHome } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  };
  const results: McpConfigResult[] = [
    // Only the user's own setting may pass a secret (by `env`); every other source is the workspace's.
    parseServerEntries(options.settings, MCP_USER_SETTINGS_SOURCE, { ...vars, userSource: true }),
    parseServerEntries(options.workspaceSettings, MCP_WORKSPACE_SETTINGS_SOURCE, vars),
  ];
  if (options.workspaceFolder !== undefined) {
    for (const file of MCP_CONFIG_FILES) {
      const path = `${options.workspaceFolder.replace(/[\\/]+$/, '')}/${file}`;
      let text: string | undefined;
      try {
        text = await options.readFile(path);
      } catch (error) {
        results.push({ servers: [], errors: [{ source: file, message: `cannot read: ${error instanceof Error ? error.message : String(error)}` }] });
        continue;
      }
      if (text !== undefined) results.push(parseMcpConfigText(text, file, vars));
    }
  }
  const byName = new Map<string, McpServerConfig>();
  const errors: McpConfigError[] = [];
  for (const result of results) {
    for (const server of result.servers) byName.set(server.name, server);
    errors.push(...result.errors);
  }
  return { servers: [...byName.values()], errors };
}
