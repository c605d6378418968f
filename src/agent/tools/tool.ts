import type { TokenCounter } from '../context/tokenCounter';
import type { ToolOutputReader } from '../context/toolOutputStore';
import type { z } from 'zod';
import type { AgentEvent, ApprovalCategory } from '../../shared/events';
import type { ApprovalDecision, ApprovalRequest, Asker, CommandRunner, Logger, Workspace } from '../ports';

/** What a tool may use while it runs. Everything that touches the world goes through a port. */
export interface ToolContext {
  workspace: Workspace;
  commands: CommandRunner;
  asker: Asker;
  logger: Logger;
  signal: AbortSignal;
  callId: string;
  /** Asks the user (through the run's Approver); the decision is also emitted as events. */
  requestApproval(request: Omit<ApprovalRequest, 'callId' | 'tool'>): Promise<ApprovalDecision>;
  /** Emits an event into the run's stream (e.g. `tool_output` while a command prints). */
  emit(event: AgentEvent): void;
  /** The cap the loop puts on one result, so a tool can size its output to fit instead of being cut. */
  resultTokens?: { max: number; counter: TokenCounter };
  /** Full text of earlier outputs that reached the model cut (for `read_output`). */
  outputs?: ToolOutputReader;
}

/** What a tool hands back to the model. */
export interface ToolResult {
  content: string;
  isError?: boolean;
  /** Set only by `finish`: the run ends with this summary. */
  finish?: { summary: string };
  /** A command's exit code (null: killed by a signal); lets views show a non-zero exit as a failure. */
  exitCode?: number | null;
  /** The user stopped this call alone (e.g. "Stop this command"): neither a success nor a failure. */
  stopped?: boolean;
  /** The command goes on in the background (the user's choice); the result holds its output so far. */
  background?: boolean;
  /** Images the tool produced (MCP image content); `content` carries a short placeholder for each. */
  images?: { mimeType: string; data: string }[];
  /** Where the run saved `images` (set by the loop, shown by the hosts). */
  imagePaths?: string[];
}

/** A tool with zod parameters; the registry validates arguments before `execute` sees them. */
export interface Tool<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** What it does to the world: decides which approval is asked and what Restricted Mode keeps. */
  category: ApprovalCategory | 'meta';
  parameters: P;
  /** Sent to the model instead of the schema derived from `parameters` (MCP tools bring their own). */
  jsonSchema?: Record<string, unknown>;
  /** Throw `ToolError` for problems the model can fix; the registry turns them into error results. */
  execute(args: z.infer<P>, context: ToolContext): Promise<ToolResult>;
}

/** Declares a tool; the identity function that lets TypeScript infer `args` from `parameters`. */
export function defineTool<P extends z.ZodType>(tool: Tool<P>): Tool<P> {
  return tool;
}

/** A tool of any parameter type, as the registry stores it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

/**
 * The one rule for "read-only": the tool declares category `read` (it cannot change files or run
 * code). Roles (researcher, reporter, look-first) and Restricted Mode both use it.
 */
export function isReadOnlyTool(tool: AnyTool): boolean {
  return tool.category === 'read';
}
