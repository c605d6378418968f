import { ToolOutputStore } from './toolOutputStore';

/** What the user asked of the running task's context (from the panel, the sidebar or a command). */
export type ContextRequest = { kind: 'compact' } | { kind: 'undoCompaction'; id?: string } | { kind: 'pin'; callId: string } | { kind: 'unpin'; callId: string };

/**
 * The user's handle on a running task's context: requests are queued here by the host and applied
 * by the run before its next model call (never in the middle of one). Pins and the full text of
 * cut tool outputs (for `read_output`) persist for the task: every run of the task shares them.
 */
export class ContextControl {
  /** Full text of tool outputs the model saw cut, by call id. */
  readonly outputs = new ToolOutputStore();
  private queue: ContextRequest[] = [];
  private readonly pins = new Set<string>();

  /** Queues a request for the next turn. */
  request(request: ContextRequest): void {
    if (request.kind === 'pin') this.pins.add(request.callId);
    if (request.kind === 'unpin') this.pins.delete(request.callId);
    this.queue.push(request);
  }

  /** Tool call ids pinned so far (their results survive eliding and compaction). */
  pinned(): ReadonlySet<string> {
    return this.pins;
  }

  /** Takes the queued requests. */
  drain(): ContextRequest[] {
    const out = this.queue;
    this.queue = [];
    return out;
  }
}
