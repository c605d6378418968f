import type { ApprovalDecision, ApprovalRequest, Approver, Logger } from '../../../agent/ports';
import type { PendingInteractions } from './pendingInteractions';

/** Shows a proposed edit beside the current file while its approval is pending. */
export interface DiffPreview {
  open(callId: string, diff: NonNullable<ApprovalRequest['diff']>): Promise<void>;
  close(callId: string): Promise<void>;
}

/**
 * The host's "ask the user" UI: the core's `PolicyApprover` decides what runs without asking and
 * calls this only when a person must answer. An edit opens its diff; the answer comes from the
 * webview's buttons, the diff editor's actions or a quick pick, through `PendingInteractions`.
 */
export class HostApprover implements Approver {
  constructor(
    private readonly pending: PendingInteractions,
    private readonly diffs: DiffPreview,
    private readonly logger: Logger,
  ) {}

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    request.announce?.();
    if (request.diff) {
      try {
        await this.diffs.open(request.callId, request.diff);
      } catch (error) {
        this.logger.warn('could not open the review diff', error);
      }
    }
    try {
      return await this.pending.waitForApproval(request.callId, signal);
    } finally {
      void this.diffs.close(request.callId).then(undefined, () => {});
    }
  }
}
