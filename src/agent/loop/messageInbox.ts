/**
 * Messages the user sends while a task runs (the chat box, the CLI's `--input stream-json`),
 * queued until the core takes them at a turn boundary (a direct run) or after a step (a planned
 * task's updater). One inbox per task; the shells push, the core takes.
 */
export class MessageInbox {
  private readonly queued: string[] = [];
  private readonly listeners = new Set<() => void>();

  /** Queues a message (blank ones are ignored); listeners hear that one arrived. */
  push(text: string): void {
    const trimmed = text.trim();
    if (!trimmed) return;
    this.queued.push(trimmed);
    for (const listener of this.listeners) listener();
  }

  /** Every queued message, oldest first, removed from the queue. */
  take(): string[] {
    return this.queued.splice(0, this.queued.length);
  }

  /** The oldest queued message alone, removed (the CLI's task from stdin); undefined when none waits. */
  takeFirst(): string | undefined {
    return this.queued.shift();
  }

  /** Messages waiting. */
  get size(): number {
    return this.queued.length;
  }

  /** Calls `listener` on each new message; returns the unsubscribe. */
  onMessage(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The messages as the model reads them at a turn boundary. */
export function inboxNote(messages: readonly string[]): string {
  const body = messages.length === 1 ? messages[0]! : messages.map((m, i) => `${i + 1}. ${m}`).join('\n');
  return `The user sent ${messages.length === 1 ? 'a message' : 'messages'} while you were working. Take it into account from now on:\n\n${body}`;
}
