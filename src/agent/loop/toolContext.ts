import type { AgentEvent } from '../../shared/events';
import type { Approver, Asker, CommandRunner, Logger, Workspace } from '../ports';
import type { ToolContext } from '../tools/tool';
import { approveWithEvents } from '../policy/approvalEvents';

/** What a run provides to every tool call. */
export interface ToolContextPorts {
  workspace: Workspace;
  commands: CommandRunner;
  approver: Approver;
  asker: Asker;
  logger: Logger;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  resultTokens?: ToolContext['resultTokens'];
  outputs?: ToolContext['outputs'];
}

/**
 * The context of one tool call. `requestApproval` asks the run's Approver and reports both the
 * request and the decision as events (`approveWithEvents`), so every host shows approvals the same way.
 */
export function createToolContext(ports: ToolContextPorts, callId: string, toolName: string): ToolContext {
  return {
    workspace: ports.workspace,
    commands: ports.commands,
    asker: ports.asker,
    logger: ports.logger,
    signal: ports.signal,
    callId,
    emit: ports.emit,
    ...(ports.resultTokens ? { resultTokens: ports.resultTokens } : {}),
    ...(ports.outputs ? { outputs: ports.outputs } : {}),
    // One recording of approvals for every path (tool calls here, MCP sampling in the shells).
    requestApproval: (request) => approveWithEvents(ports.approver, ports.emit, { ...request, callId, tool: toolName }, ports.signal),
  };
}
