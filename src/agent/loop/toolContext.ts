import type { AgentEvent } from '../../shared/events';
import type { Approver, Asker, CommandRunner, Logger, Workspace } from '../ports';
import type { ToolContext } from '../tools/tool';

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
 * request and the decision as events, so every host shows approvals the same way.
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
    async requestApproval(request) {
      let announced = false;
      const announce = () => {
        if (announced) return;
        announced = true;
        ports.emit({
          type: 'approval_requested',
          callId,
          category: request.category,
          title: request.title,
          detail: request.detail,
          ...(request.diff ? { diff: request.diff } : {}),
        });
      };
      const decision = await ports.approver.approve({ ...request, callId, tool: toolName, announce }, ports.signal);
      // Decided without a person (policy, auto-approve): requested and answered are recorded together.
      announce();
      ports.emit({
        type: 'approval_answered',
        callId,
        approved: decision.approved,
        ...(!decision.approved && decision.reason ? { reason: decision.reason } : {}),
      });
      return decision;
    },
  };
}
