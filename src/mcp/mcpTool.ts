import type { CallToolResult, Progress, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { truncateHeadTail } from '../agent/context/truncate';
import { ToolError } from '../agent/errors';
import type { AnyTool, ToolContext, ToolResult } from '../agent/tools/tool';
import { frameMcpText, renderContent } from './mcpContent';
import { modelFacingSchema, type ArgumentsCheck } from './toolSchema';

/** How a call reaches its server; implemented by the hub's per-server connection. */
export interface McpToolInvoker {
  /**
   * Sends `tools/call`. Throws `ToolError` with a message for the model when the server is gone,
   * exits during the call or times out; cancellation propagates.
   */
  callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number; onprogress: (progress: Progress) => void },
  ): Promise<CallToolResult>;
}

/** Everything needed to expose one MCP tool through the registry. */
export interface McpToolOptions {
  server: string;
  definition: McpToolDefinition;
  exposedName: string;
  invoker: McpToolInvoker;
  /** The server's `autoApprove` lists this tool: an input to the approval policy, which decides (and records it). */
  autoApproved: boolean;
  timeoutMs: number;
  maxResultChars: number;
  /** Validates arguments before they are sent; absent when the schema could not be compiled. */
  check?: ArgumentsCheck;
}

const MAX_DESCRIPTION_CHARS = 2000;
const MAX_APPROVAL_DETAIL_CHARS = 4000;

function describe(options: McpToolOptions): string {
  const own = (options.definition.description ?? options.definition.title ?? '').trim();
  const cut = own.length > MAX_DESCRIPTION_CHARS ? `${own.slice(0, MAX_DESCRIPTION_CHARS)}…` : own;
  return `${cut}${cut ? ' ' : ''}(MCP tool "${options.definition.name}" of server "${options.server}")`;
}

/** `progress 3/10: message` */
export function formatProgress(progress: Progress): string {
  const total = progress.total !== undefined ? `/${progress.total}` : '';
  return `progress ${progress.progress}${total}${progress.message ? `: ${progress.message}` : ''}\n`;
}

/** The text a tool result shows for a `CallToolResult`, structured content used only when there is no content. */
function resultText(result: CallToolResult): { text: string; images: { mimeType: string; data: string }[] } {
  const rendered = renderContent(result.content ?? []);
  if (rendered.text.trim() === '' && result.structuredContent !== undefined) {
    return { text: JSON.stringify(result.structuredContent, null, 2), images: rendered.images };
  }
  return rendered;
}

/**
 * Wraps one MCP tool as a Stepwise tool: arguments checked against the server's schema before they
 * are sent, approval asked through the policy (category `mcp`, the server's `autoApprove` as input), the run's signal forwarded,
 * progress streamed as `tool_output`, `isError` results returned as error results, long output cut.
 */
export function createMcpTool(options: McpToolOptions): AnyTool {
  const { check } = options;
  const parameters = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const problem = check?.(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
  return {
    name: options.exposedName,
    description: describe(options),
    category: 'mcp',
    parameters,
    jsonSchema: modelFacingSchema(options.definition.inputSchema as Record<string, unknown>),
    async execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
      const problem = check?.(args);
      if (problem !== undefined) throw new ToolError(`Invalid arguments for \`${options.exposedName}\`: ${problem}. Nothing was sent to the server.`);
      // Every call goes through the one approval policy (and its events); the server's `autoApprove` is only an input to it.
      const detail = truncateHeadTail(JSON.stringify(args, null, 2), MAX_APPROVAL_DETAIL_CHARS).text;
      const decision = await context.requestApproval({
        category: 'mcp',
        title: `Call MCP tool "${options.definition.name}" of server "${options.server}"`,
        detail,
        mcp: { server: options.server, tool: options.definition.name, autoApproved: options.autoApproved },
      });
      if (!decision.approved) {
        return {
          content: `The user declined the call to \`${options.exposedName}\`${decision.reason ? `: ${decision.reason}` : ''}. Nothing was sent.`,
          isError: true,
        };
      }
      const result = await options.invoker.callTool(options.definition.name, args, {
        signal: context.signal,
        timeoutMs: options.timeoutMs,
        onprogress: (progress) => context.emit({ type: 'tool_output', callId: context.callId, stream: 'stdout', chunk: formatProgress(progress) }),
      });
      const { text, images } = resultText(result);
      const cut = truncateHeadTail(text, options.maxResultChars, 'the MCP tool output was cut').text;
      const content = cut.trim() === '' ? (result.isError ? `\`${options.exposedName}\` failed without a message.` : '(no output)') : frameMcpText('MCP tool result', options.server, options.definition.name, cut);
      return { content, ...(result.isError ? { isError: true } : {}), ...(images.length ? { images } : {}) };
    },
  };
}
