import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CancelledError, ToolError } from '../../agent/errors';
import type { FileScan, ScanPlan, ScanWork } from './fileScanner';
import { RegexMeter } from './regexMeter';
import type { SearchJob, SearchJobResult, SearchWorkerData } from './searchWorker';

/** Total time the JavaScript engine may spend matching for one search (all workers together). */
export const REGEX_DEADLINE_MS = 5_000;

/** Workers at most: the cores, up to four (reading files gains little past that). */
export const MAX_SEARCH_WORKERS = Math.max(1, Math.min(4, availableParallelism()));

/** How the pool is started. */
export interface SearchPoolOptions {
  root: string;
  plan: ScanPlan;
  /** The pattern as given, for the "backtracks" message. */
  pattern: string;
  deadlineMs?: number;
  signal?: AbortSignal;
  /** Workers at most (default MAX_SEARCH_WORKERS). */
  maxWorkers?: number;
  /** The worker script; default `search-worker.js` beside the bundle, else this folder's source through tsx. */
  script?: string;
  /** A worker came online or finished a batch: more batches can be sent. */
  onIdle: () => void;
  /** The pool failed (abort, the regex over its time, a worker's error); it is ended already. */
  onFail: (error: Error) => void;
}

/** Batches a worker holds at once (one running, one waiting). */
const JOBS_PER_WORKER = 2;

/** Search workers alive in this process (started and not yet exited): tests check that none outlives its search. */
let liveWorkers = 0;

/** Terminations asked for and not yet done. */
const ending = new Set<Promise<void>>();

/** How many search workers are alive now. */
export function liveSearchWorkers(): number {
  return liveWorkers;
}

/** Resolves when every search worker asked to end has exited. */
export async function searchWorkersEnded(): Promise<void> {
  while (ending.size) await Promise.all([...ending]);
}

interface Lane {
  worker: Worker;
  online: boolean;
  /** Batches sent and not answered, oldest first (a worker answers in order). */
  jobs: Array<{ id: number; resolve: (scans: FileScan[]) => void }>;
}

/** The worker's script: the built `search-worker.js` beside the bundle, or the TypeScript source through tsx (tests, development). */
function workerScript(given: string | undefined): { code: string; eval: boolean } {
  if (given) return { code: given, eval: false };
  const built = path.join(__dirname, 'search-worker.js');
  if (existsSync(built)) return { code: built, eval: false };
  return { code: `require('tsx/cjs'); require(${JSON.stringify(path.join(__dirname, 'searchWorker.ts'))});`, eval: true };
}

/**
 * Worker threads that read and match batches of files for one search, started only when needed
 * and one at a time as batches queue up. A regex that backtracks catastrophically blocks only its
 * worker: the pool watches the workers' regex time (`RegexMeter`, matching only) and, past the
 * deadline, ends every worker and fails with advice; the task's signal ends them at once too.
 * `dispose` must be called: it ends every worker at once (V8 stops even a running regex); the
 * promise it returns settles when their threads have exited.
 */
export class SearchPool {
  private readonly lanes: Lane[] = [];
  private readonly meter: RegexMeter;
  private readonly max: number;
  private readonly deadlineMs: number;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 0;
  private failed: Error | undefined;
  private disposal: Promise<void> | undefined;
  /** Work the workers did (files read, regex lines), summed over answered batches. */
  readonly work: ScanWork = { filesRead: 0, regexLines: 0 };
  /** Workers started (for tests and the bench). */
  started = 0;

  constructor(private readonly options: SearchPoolOptions) {
    this.max = Math.max(1, options.maxWorkers ?? MAX_SEARCH_WORKERS);
    this.meter = new RegexMeter(RegexMeter.buffer(this.max));
    this.deadlineMs = options.deadlineMs ?? REGEX_DEADLINE_MS;
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Workers ready for batches. */
  get online(): number {
    return this.lanes.filter((lane) => lane.online).length;
  }

  /**
   * Starts one more worker when batches wait and none is starting (up to the maximum): workers
   * start one after another, so a search that one worker finishes never pays for a second's start
   * (on two busy cores, two starting at once delay each other).
   */
  grow(waiting: number): void {
    if (this.failed || waiting <= 0 || this.lanes.length >= this.max) return;
    if (this.lanes.some((lane) => !lane.online)) return;
    this.startWorker();
  }

  /** Sends `files` to an idle worker; its scans (aligned with `files`, holes for nothing found), or `undefined` when no worker is idle. */
  tryRun(files: string[]): Promise<FileScan[]> | undefined {
    if (this.failed) return Promise.reject(this.failed);
    // Two batches per worker: the next one is there when it finishes one (no idle round trip).
    let lane: Lane | undefined;
    for (const l of this.lanes) if (l.online && l.jobs.length < JOBS_PER_WORKER && (!lane || l.jobs.length < lane.jobs.length)) lane = l;
    if (!lane) return undefined;
    const id = this.nextId++;
    const result = new Promise<FileScan[]>((resolve) => lane.jobs.push({ id, resolve }));
    lane.worker.postMessage({ id, files: files.join('\0') } satisfies SearchJob);
    this.watch();
    return result;
  }

  /** Ends every worker and waits until they are gone (idempotent: a second call waits for the same ends). */
  dispose(): Promise<void> {
    this.failed ??= new CancelledError();
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    const lanes = this.lanes.splice(0);
    const ended = Promise.all(lanes.map((lane) => lane.worker.terminate())).then(() => undefined, () => undefined);
    ending.add(ended);
    void ended.then(() => ending.delete(ended));
    this.disposal = this.disposal ? Promise.all([this.disposal, ended]).then(() => undefined) : ended;
    return this.disposal;
  }

  private startWorker(): void {
    const slot = this.lanes.length;
    const script = workerScript(this.options.script);
    const workerData: SearchWorkerData = { root: this.options.root, plan: this.options.plan, meter: this.meter.buffer, slot };
    // No inherited execArgv: a parent started with `--import tsx` (or other loaders) would make each
    // worker load them again (hundreds of ms); the script needs none (the source path requires tsx itself).
    const worker = new Worker(script.code, { eval: script.eval, workerData, execArgv: [] });
    const lane: Lane = { worker, online: false, jobs: [] };
    this.lanes.push(lane);
    this.started++;
    liveWorkers++;
    worker.once('exit', () => liveWorkers--);
    worker.once('online', () => {
      lane.online = true;
      this.options.onIdle();
    });
    worker.on('message', (result: SearchJobResult) => {
      const job = lane.jobs[0];
      if (!job || job.id !== result.id) return;
      lane.jobs.shift();
      this.work.filesRead += result.work.filesRead;
      this.work.regexLines += result.work.regexLines;
      const scans: FileScan[] = [];
      for (const [index, scan] of result.found) scans[index] = scan;
      job.resolve(scans);
      this.options.onIdle();
    });
    worker.on('error', (error: Error) => this.fail(new ToolError(`Search failed: ${error.message}`)));
  }

  private readonly onAbort = () => this.fail(new CancelledError());

  private fail(error: Error): void {
    if (this.failed) return;
    void this.dispose();
    this.failed = error;
    this.options.onFail(error);
  }

  /** The watchdog: while batches are out, the workers' regex time is checked against the deadline when it could first be reached. */
  private watch(): void {
    if (this.timer || this.failed) return;
    const left = this.deadlineMs - this.meter.totalMs();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.meter.totalMs() >= this.deadlineMs) return this.fail(this.tooSlow());
      if (this.lanes.some((lane) => lane.jobs.length)) this.watch();
    }, Math.max(1, left));
  }

  private tooSlow(): ToolError {
    return new ToolError(
      `The pattern ${JSON.stringify(this.options.pattern)} took over ${this.deadlineMs / 1000} s to match (the JavaScript engine backtracks on patterns such as nested quantifiers "(a+)+" or back-references); the search was stopped. Use a simpler pattern, or narrow it with path or glob.`,
    );
  }
}
