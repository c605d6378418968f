import { randomUUID } from 'node:crypto';
import { approveWithEvents } from '../agent/policy/approvalEvents';
import type { ApprovalDecision, Approver } from '../agent/ports';
import type { AgentEvent } from '../shared/events';
import type { SamplingRequest } from './mcpTypes';
import { ENGLISH_SAMPLING_LABELS, samplingPreview } from './samplingPreview';

/** Where a sampling request is approved: the run's policy approver and its event stream. */
export interface SamplingApprovalPath {
  /** The shell's `PolicyApprover` (it asks the person through the shell's usual approval UI). */
  approver: Approver;
  /** Into the running task's events, so the request shows like any other approval. */
  emit: (event: AgentEvent) => void;
  /** The task's own signal: stopping the task ends the question too. */
  signal?: AbortSignal;
}

/** Why a request is refused when no task runs (nobody could see the question in a task's view). */
export const NO_TASK_FOR_SAMPLING = 'no Stepwise task is running to ask the user in';

/**
 * Asks whether an MCP server may use the model, through the one approval policy (category `mcp`)
 * with the same `approval_requested` / `approval_answered` events as tool calls; both shells use
 * it. The policy always asks a person (neither auto-approved categories nor a server's `autoApprove`
 * cover it). Without a path (no task is running) the request is refused: deny by default.
 */
export function approveSampling(request: SamplingRequest, path: SamplingApprovalPath | undefined, signal: AbortSignal): Promise<ApprovalDecision> {
  if (!path) return Promise.resolve({ approved: false, reason: NO_TASK_FOR_SAMPLING });
  return approveWithEvents(
    path.approver,
    path.emit,
    {
      callId: `sampling-${randomUUID()}`,
      tool: 'mcp_sampling',
      category: 'mcp',
      title: `MCP server "${request.server}" asks to use the model`,
      detail: samplingPreview(request, ENGLISH_SAMPLING_LABELS),
      mcp: { server: request.server, tool: 'sampling/createMessage', autoApproved: false, sampling: true },
    },
    path.signal ? AbortSignal.any([signal, path.signal]) : signal,
  );
}
