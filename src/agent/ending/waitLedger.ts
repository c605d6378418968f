import type { Approver, Asker, Clock } from '../ports';

/**
 * Counts the time a task waits for the user (approvals, questions, the plan review), so durations
 * show running time and waiting time apart: a 1.3 s `npm test` that waited 97 s for its approval
 * is shown as 1.3 s run and 97 s waiting, not 98 s. One per task, shared by its inner runs.
 */
export class WaitLedger {
  private waited = 0;

  constructor(private readonly clock: Clock) {}

  /** Milliseconds waited so far. */
  total(): number {
    return this.waited;
  }

  /** Runs `wait` (something only the user ends) and counts its time. */
  async measure<T>(wait: () => Promise<T>): Promise<T> {
    const start = this.clock.now();
    try {
      return await wait();
    } finally {
      this.waited += Math.max(0, this.clock.now() - start);
    }
  }

  /** `approver` with its answers timed (a policy that answers at once adds next to nothing). */
  approver(approver: Approver): Approver {
    return { approve: (request, signal) => this.measure(() => approver.approve(request, signal)) };
  }

  /** `asker` with its answers timed. */
  asker(asker: Asker): Asker {
    return { ask: (question, signal) => this.measure(() => asker.ask(question, signal)) };
  }
}
