import path from 'node:path';
import { CancelledError } from '../../agent/errors';
import { FileScanner, type FileScan, type ScanPlan } from './fileScanner';
import { SearchPool, type SearchPoolOptions } from './searchPool';

/** Files per batch: one round trip to a worker for many small files. */
export const BATCH_FILES = 64;
/** Batches the search's own thread scans before it starts workers: a small tree is done before one would be up. */
const OWN_THREAD_WARMUP = 16;
/** Batches waiting for a thread at most: the walk pauses there, so a search that stops early has not walked the whole tree. */
const HIGH_WATER = 16;

/** A batch of files in tree order; `scans` once it is done. */
export interface Batch {
  files: string[];
  scans?: FileScan[];
}

/** A part of a batch the search's own thread could not finish (the regex must run): done by a worker, then put back. */
interface Part {
  files: string[];
  parent: Batch;
  /** The parent's scans so far, and where the part's files sit in them. */
  scans: FileScan[];
  at: number[];
}

/**
 * The batches of one search, in tree order, scanned by a `SearchPool` and, when the pattern holds a
 * required text, by the search's own thread too until the first worker is up (a plain text needs
 * no worker at all; a regex's files without its text are settled without one). `results` yields
 * the batches in order as they are done; `dispose` ends the workers.
 */
export class SearchBatches {
  private readonly all: Batch[] = [];
  private readonly waiting: Batch[] = [];
  private readonly parts: Part[] = [];
  private readonly own: FileScanner | undefined;
  private readonly pool: SearchPool;
  private ownDone = 0;
  private ownScheduled = false;
  private walkDone = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private roomWaiter: (() => void) | undefined;

  private readonly signal: AbortSignal | undefined;

  constructor(
    private readonly root: string,
    plan: ScanPlan,
    pool: Omit<SearchPoolOptions, 'plan' | 'root' | 'onIdle' | 'onFail'>,
  ) {
    this.signal = pool.signal;
    this.own = plan.required !== undefined ? new FileScanner(plan) : undefined;
    this.pool = new SearchPool({ ...pool, root, plan, onIdle: () => this.pump(), onFail: (error) => this.fail(error) });
    pool.signal?.addEventListener('abort', this.onAbort, { once: true });
    // A regex will most likely need a worker: it boots while the walk and the required-text check run.
    if (plan.regex) this.pool.grow(1);
  }

  /** Work done: files read and regex lines (both threads), workers started. */
  get work(): { filesRead: number; regexLines: number; workersStarted: number } {
    return {
      filesRead: (this.own?.work.filesRead ?? 0) + this.pool.work.filesRead,
      regexLines: this.pool.work.regexLines,
      workersStarted: this.pool.started,
    };
  }

  /** A batch from the walk. */
  add(files: string[]): void {
    const batch: Batch = { files };
    this.all.push(batch);
    this.waiting.push(batch);
    this.pump();
  }

  /** Resolves when fewer than HIGH_WATER batches wait (at once when they do): the walk awaits it between folders. */
  room(): Promise<void> | undefined {
    if (this.failure || this.waiting.length + this.parts.length < HIGH_WATER) return undefined;
    return new Promise<void>((resolve) => (this.roomWaiter = resolve));
  }

  /** The walk is over. */
  finish(): void {
    this.walkDone = true;
    this.notify();
  }

  /** Ends the search with `error` (the walk failed, the task was cancelled, a worker failed). */
  fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  /** The batches in tree order as each is done; throws the search's failure. */
  async *results(): AsyncGenerator<Batch> {
    for (let i = 0; ; i++) {
      while (!this.failure && (i < this.all.length ? !this.all[i]!.scans : !this.walkDone)) {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
      if (this.failure) throw this.failure;
      if (i >= this.all.length) return;
      yield this.all[i]!;
    }
  }

  /** Ends the workers at once; the promise settles when their threads have exited. */
  dispose(): Promise<void> {
    this.failure ??= new CancelledError();
    this.signal?.removeEventListener('abort', this.onAbort);
    // A walk paused for room goes on, sees it is stopped, and ends.
    this.notify();
    return this.pool.dispose();
  }

  private readonly onAbort = () => this.fail(new CancelledError());

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
    if (this.failure || this.waiting.length + this.parts.length < HIGH_WATER) {
      const waiter = this.roomWaiter;
      this.roomWaiter = undefined;
      waiter?.();
    }
  }

  /** Sends what waits to idle workers, starts workers as needed, and lets the own thread take a batch while none is up. */
  private pump(): void {
    if (this.failure) return;
    const ownThread = this.own !== undefined && this.pool.online === 0;
    let sent = false;
    for (;;) {
      const part = this.parts[0];
      const batch = part ? undefined : ownThread ? undefined : this.waiting[0];
      const files = part?.files ?? batch?.files;
      if (!files) break;
      const running = this.pool.tryRun(files);
      if (!running) break;
      if (part) this.parts.shift();
      else this.waiting.shift();
      sent = true;
      running.then((scans) => this.settle(part, batch, scans), (error: Error) => this.fail(error));
    }
    if (sent) this.notify();
    const forWorkers = this.parts.length + (ownThread ? 0 : this.waiting.length);
    const warm = this.ownDone >= OWN_THREAD_WARMUP && (this.waiting.length > 0 || !this.walkDone);
    if (forWorkers > 0 || warm) this.pool.grow(Math.max(1, forWorkers));
    if (ownThread && this.waiting.length > 0 && !this.ownScheduled) {
      this.ownScheduled = true;
      // One batch per turn of the event loop: the walk, the workers' "online" and the abort get their turns.
      setImmediate(() => this.ownStep());
    }
  }

  private settle(part: Part | undefined, batch: Batch | undefined, scans: FileScan[]): void {
    if (part) {
      // The worker may stop early (the limit reached inside the part): the files after it are never needed.
      part.at.forEach((index, i) => (part.scans[index] = scans[i]));
      part.parent.scans = part.scans;
    } else if (batch) {
      batch.scans = scans;
    }
    this.notify();
  }

  /** The own thread scans one waiting batch; files that need the regex go on to the workers as a part. */
  private ownStep(): void {
    this.ownScheduled = false;
    if (this.failure || !this.own) return;
    if (this.pool.online > 0) return this.pump();
    const batch = this.waiting.shift();
    if (!batch) return;
    this.ownDone++;
    let scans: FileScan[];
    try {
      scans = this.own.scanAll(batch.files.map((rel) => path.join(this.root, rel)), batch.files, false);
    } catch (error) {
      // A bug, not a file's fault (those are values): it ends the search instead of the process.
      return this.fail(error instanceof Error ? error : new Error(String(error)));
    }
    const at = scans.flatMap((scan, index) => (scan === 'regex' ? [index] : []));
    if (at.length === 0) batch.scans = scans;
    else this.parts.push({ files: at.map((index) => batch.files[index]!), parent: batch, scans, at });
    this.notify();
    this.pump();
  }
}
