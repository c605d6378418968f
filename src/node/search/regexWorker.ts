import { Worker } from 'node:worker_threads';
import { CancelledError, ToolError } from '../../agent/errors';

/** Total time the JavaScript engine may spend matching for one search. */
export const REGEX_DEADLINE_MS = 5_000;

// Inline (eval) so it survives bundling into dist/cli.js and dist/extension.js unchanged.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', (lines) => {
  const started = performance.now();
  const hits = [];
  for (let i = 0; i < lines.length; i++) if (regex.test(lines[i])) hits.push(i);
  parentPort.postMessage({ hits, ms: performance.now() - started });
});
`;

/**
 * Runs a JavaScript regex over lines in a worker thread, so that a pattern that backtracks
 * catastrophically (`^(a+)+\1$`) never blocks the event loop: an abort terminates the worker at
 * once (V8 interrupts a running regex), and matching that takes longer than the deadline in total
 * ends the search with a `ToolError` asking for a simpler pattern. Only matching counts toward the
 * deadline (the worker times each batch; a batch still running is judged by the worker's busy
 * time), never the round trips: a long search of a plain pattern is not a "backtracking" one.
 * `dispose` must be called.
 */
export class RegexWorker {
  private worker: Worker | undefined;
  private spentMs = 0;
  /** Batches of lines sent to the worker (work done, for tests and the bench). */
  batches = 0;

  constructor(
    private readonly regex: RegExp,
    private readonly signal?: AbortSignal,
    private readonly deadlineMs = REGEX_DEADLINE_MS,
  ) {}

  /** Indices of the lines that match. Throws `CancelledError` on abort, `ToolError` past the deadline. */
  async matchingLines(lines: string[]): Promise<number[]> {
    if (lines.length === 0) return [];
    if (this.signal?.aborted) throw new CancelledError();
    const worker = (this.worker ??= new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: this.regex.source, flags: this.regex.flags.replace(/[gy]/g, '') },
    }));
    this.batches += 1;
    const busyBefore = worker.performance.eventLoopUtilization();
    return new Promise<number[]>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cleanup = () => {
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const fail = (error: Error) => {
        cleanup();
        this.dispose();
        reject(error);
      };
      const onMessage = (answer: { hits: number[]; ms: number }) => {
        cleanup();
        this.spentMs += answer.ms;
        resolve(answer.hits);
      };
      const onError = (error: Error) => fail(new ToolError(`Search failed: ${error.message}`));
      const onAbort = () => fail(new CancelledError());
      // The watchdog: when it fires, the batch is judged by how long the worker has been busy since
      // it was sent; time spent waiting for the message (a loaded machine) re-arms it.
      const watch = (waitMs: number) => {
        timer = setTimeout(() => {
          const busy = worker.performance.eventLoopUtilization(busyBefore).active;
          const left = this.deadlineMs - this.spentMs - busy;
          if (left > 0) return watch(left);
          fail(new ToolError(
            `The pattern ${JSON.stringify(this.regex.source)} took over ${this.deadlineMs / 1000} s to match (the JavaScript engine backtracks on patterns such as nested quantifiers "(a+)+" or back-references); the search was stopped. Use a simpler pattern, or narrow it with path or glob.`,
          ));
        }, Math.max(1, waitMs));
      };
      watch(this.deadlineMs - this.spentMs);
      this.signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage(lines);
    });
  }

  /** Ends the worker (idempotent). */
  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
