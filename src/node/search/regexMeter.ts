/** Two numbers per worker in shared memory: milliseconds spent matching, and when the match running now started (0: none). */
const SLOT = 2;

/** Milliseconds since the epoch, comparable across threads (each thread's `performance.now()` has its own origin). */
const clock = (): number => performance.timeOrigin + performance.now();

/**
 * The regex time of every search worker, kept in a `SharedArrayBuffer` the workers write and the
 * search reads without a message: a worker stuck in one backtracking line cannot answer, yet the
 * time it has spent in that line is known. Only time inside the regex counts (never reading,
 * decoding, queueing or round trips), so a long search of a plain pattern never reads as "backtracks".
 */
export class RegexMeter {
  private readonly cells: Float64Array;

  /** @param buffer from `RegexMeter.buffer(workers)`, shared with the workers */
  constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Float64Array(buffer);
  }

  /** A buffer for `workers` workers. */
  static buffer(workers: number): SharedArrayBuffer {
    return new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * SLOT * Math.max(1, workers));
  }

  /** Worker side: a match starts in `slot`. */
  start(slot: number): void {
    this.cells[slot * SLOT + 1] = clock();
  }

  /** Worker side: the match in `slot` ended; its time is added. */
  stop(slot: number): void {
    const started = this.cells[slot * SLOT + 1]!;
    if (started > 0) this.cells[slot * SLOT] = this.cells[slot * SLOT]! + clock() - started;
    this.cells[slot * SLOT + 1] = 0;
  }

  /** Search side: all the workers' matching time so far, a match still running included. */
  totalMs(): number {
    const now = clock();
    let total = 0;
    for (let i = 0; i < this.cells.length; i += SLOT) {
      total += this.cells[i]!;
      const started = this.cells[i + 1]!;
      if (started > 0) total += Math.max(0, now - started);
    }
    return total;
  }
}
