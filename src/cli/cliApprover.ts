import type { ApprovalCategory } from '../shared/events';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../agent/ports';
import type { Prompter } from './prompter';

/**
 * Approves the categories given with `--auto-approve`; asks on a TTY otherwise; without a TTY the
 * request is denied with a reason that tells the model (and the user, in the log) how to allow it.
 */
export class CliApprover implements Approver {
  constructor(
    private readonly autoApprove: ReadonlySet<ApprovalCategory>,
    private readonly prompter: Prompter | undefined,
  ) {}

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (this.autoApprove.has(request.category)) return { approved: true };
    if (!this.prompter) {
      return {
        approved: false,
        reason: `No terminal to ask for approval; ${request.category} actions are denied (run with --auto-approve ${request.category} to allow them).`,
      };
    }
    const answer = await this.prompter.ask(
      `\n${request.title}\n${request.detail}\nApprove? [y]es / [n]o / type a reason to reject: `,
      signal,
    );
    const trimmed = answer.trim();
    if (/^(y|yes)$/i.test(trimmed)) return { approved: true };
    if (/^(n|no|)$/i.test(trimmed)) return { approved: false };
    return { approved: false, reason: trimmed };
  }
}
