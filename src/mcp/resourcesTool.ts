import { z } from 'zod';
import { truncateHeadTail } from '../agent/context/truncate';
import { ToolError } from '../agent/errors';
import { defineTool, type AnyTool } from '../agent/tools/tool';
import { McpError } from './mcpSdk';
import { frameMcpText, type RenderedContent } from './mcpContent';
import type { McpResourceInfo } from './mcpTypes';

/** Name of the resources tool. */
export const RESOURCES_TOOL_NAME = 'mcp_resources';

/** The part of the hub the resources tool uses. */
export interface ResourceSource {
  listResources(server?: string, signal?: AbortSignal): Promise<McpResourceInfo[]>;
  readResource(uri: string, server?: string, signal?: AbortSignal): Promise<RenderedContent>;
}

const MAX_LISTED = 200;

const ResourcesArgs = z.object({
  action: z.enum(['list', 'read']).describe('`list` the resources of the MCP servers, or `read` one by its URI'),
  server: z.string().optional().describe('MCP server name; optional for `list`, and for `read` when the URI is listed by one server'),
  uri: z.string().optional().describe('Resource URI to read (required for `read`); fill in the {placeholders} of a template'),
});

function formatList(resources: McpResourceInfo[]): string {
  if (resources.length === 0) return 'No MCP resources are available.';
  const lines = resources.slice(0, MAX_LISTED).map((r) => {
    const extra = [r.mimeType, r.description].filter(Boolean).join(' - ');
    return `- [${r.server}] ${r.template ? 'template ' : ''}${r.uri} (${r.name})${extra ? `: ${extra}` : ''}`;
  });
  if (resources.length > MAX_LISTED) lines.push(`[... ${resources.length - MAX_LISTED} more not shown; pass \`server\` to narrow]`);
  return lines.join('\n');
}

/** Turns a server's protocol error (unknown resource...) into a result the model can act on. */
async function serverCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof McpError) throw new ToolError(`The MCP server refused: ${error.message}`);
    throw error;
  }
}

/** `mcp_resources {action, server?, uri?}`: lists and reads resources of the connected MCP servers. */
export function createResourcesTool(source: ResourceSource, maxResultChars: number): AnyTool {
  return defineTool({
    name: RESOURCES_TOOL_NAME,
    description:
      'List or read resources (documents, data) offered by the connected MCP servers. Use action "list" first, then "read" with a listed URI.',
    category: 'read',
    parameters: ResourcesArgs,
    async execute(args, context) {
      if (args.action === 'list') {
        return { content: formatList(await serverCall(() => source.listResources(args.server, context.signal))) };
      }
      const uri = args.uri;
      if (!uri) throw new ToolError('`uri` is required for action "read"; list the resources first.');
      const rendered = await serverCall(() => source.readResource(uri, args.server, context.signal));
      const text = truncateHeadTail(rendered.text, maxResultChars, 'the resource was cut').text;
      const content = text ? frameMcpText('MCP resource', args.server ?? '(the one listing this URI)', uri, text) : '(empty resource)';
      return { content, ...(rendered.images.length ? { images: rendered.images } : {}) };
    },
  });
}
