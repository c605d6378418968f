import type { AgentEvent } from '../../../shared/events';

/** What the running task is doing that the user should know of, most pressing first. */
export type RunWait =
  | { kind: 'approval' }
  | { kind: 'question' }
  | { kind: 'command'; command: string }
  | undefined;

/**
 * Follows a run's events and says whether it waits for the user (an approval or an answer not
 * given yet) or runs a command (approved, no result yet). Several can be open at once (parallel
 * calls); an approval that was answered never counts again, so a command that runs after its
 * approval is "running", not "waiting for your approval".
 */
export class RunWaits {
  private readonly approvals = new Set<string>();
  private readonly questions = new Set<string>();
  private readonly commands = new Map<string, string>();

  /** Takes one event into account. */
  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'approval_requested': this.approvals.add(event.callId); break;
      case 'approval_answered': this.approvals.delete(event.callId); break;
      case 'question_asked': this.questions.add(event.callId); break;
      case 'question_answered': this.questions.delete(event.callId); break;
      case 'tool_call': {
        const command = (event.args as { command?: unknown } | undefined)?.command;
        if (event.name === 'run_command' && typeof command === 'string') this.commands.set(event.callId, command);
        break;
      }
      case 'tool_result':
        this.commands.delete(event.callId);
        this.approvals.delete(event.callId);
        break;
      case 'run_finished':
        this.approvals.clear();
        this.questions.clear();
        this.commands.clear();
        break;
      default: break;
    }
  }

  /** True while the approval of `callId` has not been answered. */
  awaitingApproval(callId: string): boolean {
    return this.approvals.has(callId);
  }

  /** The most pressing wait: an approval, then a question, then the latest running command. */
  current(): RunWait {
    if (this.approvals.size > 0) return { kind: 'approval' };
    if (this.questions.size > 0) return { kind: 'question' };
    const running = [...this.commands].filter(([callId]) => !this.approvals.has(callId));
    const last = running[running.length - 1];
    return last ? { kind: 'command', command: last[1] } : undefined;
  }
}
