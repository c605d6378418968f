import type { AgentEvent } from '../../shared/events';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../ports';

/**
 * Asks `approver` (the policy) and records the request and the decision as events: the one way an
 * approval is recorded, for tool calls and for MCP servers' sampling requests alike, so every host
 * shows them the same way. `approval_requested` is emitted when a person is about to be asked (the
 * approver calls `announce`), else together with the answer after the decision; an answer reached
 * without a person (auto-approved, allow or deny list, a server's `autoApprove`) carries `auto`.
 */
export async function approveWithEvents(
  approver: Approver,
  emit: (event: AgentEvent) => void,
  request: Omit<ApprovalRequest, 'announce'>,
  signal: AbortSignal,
): Promise<ApprovalDecision> {
  let announced = false;
  const announce = (): void => {
    if (announced) return;
    announced = true;
    emit({
      type: 'approval_requested',
      callId: request.callId,
      category: request.category,
      title: request.title,
      detail: request.detail,
      ...(request.diff ? { diff: request.diff } : {}),
    });
  };
  const decision = await approver.approve({ ...request, announce }, signal);
  const auto = !announced;
  announce();
  emit({
    type: 'approval_answered',
    callId: request.callId,
    approved: decision.approved,
    ...(!decision.approved && decision.reason ? { reason: decision.reason } : {}),
    ...(auto ? { auto: true } : {}),
  });
  return decision;
}
