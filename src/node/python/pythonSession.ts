import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from '../../agent/ports';
import { silentLogger } from '../../agent/ports';
import type { PythonRequest, PythonResult, PythonRunner, PythonStatus } from '../../agent/tools/python/pythonPort';
import { BoundedOutput } from '../boundedOutput';
import { spawnGroupLeader, type GroupChild } from '../groupSpawn';
import { groupHasLiveMembers, signalGroup } from '../processGroup';
import { endTagged, nextTag, TAG_VAR } from '../processTag';
import { ensureWatchdog } from '../watchdog';
import { findPython, NO_PYTHON } from './findPython';
import { MATPLOTLIB_RC, PYTHON_DRIVER } from './pythonDriver';
import { MarkedLines } from './markedLines';

/** Options of `PythonSession`. */
export interface PythonSessionOptions {
  /** The workspace folder: the code's working directory. */
  cwd: string;
  /** Absolute folder `save_chart` writes into (the report's folder). */
  chartsDir: string;
  /** An interpreter chosen by the user (`STEPWISE_PYTHON`); else `python3`, then `python`, from PATH. */
  python?: string;
  /** How long interrupted code may take to stop before the session is ended (default 3000 ms). */
  interruptGraceMs?: number;
  /** How long the interpreter may take to start (default 30 s: a first pandas import can be slow). */
  startTimeoutMs?: number;
  logger?: Logger;
}

/** What the driver says at the end of a run (or, `ready`, once started). */
interface Marker {
  status: PythonStatus | 'ready';
  charts?: string[];
  version?: string;
  executable?: string;
  pandas?: boolean;
  matplotlib?: boolean;
}

/** The running interpreter and what the current run collects. */
interface Live {
  child: GroupChild;
  pgid: number;
  tag: string;
  /** The session's matplotlib settings folder, removed when it ends. */
  rcDir: string;
  exited: Promise<void>;
  /** Told each marker line. */
  onMarker?: (marker: Marker) => void;
  /** Where output goes during a run. */
  output?: { bounded: BoundedOutput; listener?: (chunk: string) => void };
}

/**
 * The task's one Python process (the `PythonRunner` of `python_execute`), started on the first run
 * through the same spawn helper as commands (own process group, the one child environment, a
 * process tag), so a sandbox wraps both. Runs are one at a time. A timeout sends SIGINT to the
 * interpreter (KeyboardInterrupt: the session and its variables are kept); code that does not stop
 * within the grace delay has its process group ended, and the next run starts a new session.
 * Cancellation ends the session. `dispose` ends it with the task. Never rejects.
 */
export class PythonSession implements PythonRunner {
  private live: Live | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly logger: Logger;
  private disposed = false;

  constructor(private readonly options: PythonSessionOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  /** Runs code in the session, after any run still going; see `PythonResult` for the endings. */
  run(request: PythonRequest): Promise<PythonResult> {
    const next = this.queue.then(() => this.runNow(request));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the interpreter and everything it started; later runs answer `unavailable`. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.end();
  }

  /** The pid of the interpreter while one runs (for tests that check it is gone). */
  get pid(): number | undefined {
    return this.live?.pgid;
  }

  private async runNow(request: PythonRequest): Promise<PythonResult> {
    const bounded = new BoundedOutput(request.maxOutputChars);
    const result = (status: PythonStatus, charts: string[] = [], fresh = false): PythonResult => ({ status, output: bounded.toString(), omittedChars: bounded.omittedChars, charts, fresh });
    if (request.signal.aborted) return result('cancelled');
    if (this.disposed) {
      bounded.append('The Python session has ended with its task.');
      return result('unavailable');
    }
    const fresh = this.live === undefined;
    const started = this.live ?? (await this.start(bounded, request.signal));
    if (!started) return result(request.signal.aborted ? 'cancelled' : 'unavailable');
    const live = started;
    const ended = this.waitMarker(live, request.timeoutMs, request.signal);
    live.output = { bounded, listener: request.onOutput };
    live.child.stdin?.write(`${JSON.stringify({ code: request.code })}\n`);
    try {
      let first = await ended;
      if (first === 'timeout') first = await this.interrupt(live, bounded);
      if (first === 'cancel') {
        await this.end();
        return result('cancelled');
      }
      if (first === 'exit' || first === 'timeout') {
        if (first === 'exit') bounded.append('\nThe Python process exited; the next call starts a new session (all variables lost).');
        await this.end();
        return result('restarted', [], fresh);
      }
      return result(first.status === 'ready' ? 'error' : first.status, this.relativeCharts(first.charts ?? []), fresh);
    } finally {
      live.output = undefined;
    }
  }

  /** The first of: the driver's next marker, the process's exit, `ms` passing, the signal's abort. */
  private waitMarker(live: Live, ms: number, signal?: AbortSignal): Promise<Marker | 'exit' | 'timeout' | 'cancel'> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (value: Marker | 'exit' | 'timeout' | 'cancel') => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (live.onMarker === finish) live.onMarker = undefined;
        resolve(value);
      };
      const timer = setTimeout(() => finish('timeout'), Math.max(1, ms));
      const onAbort = () => finish('cancel');
      live.onMarker = finish;
      void live.exited.then(() => finish('exit'));
      if (signal?.aborted) finish('cancel');
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** SIGINT to the interpreter; its marker if the code stops within the grace delay, else `timeout`. */
  private async interrupt(live: Live, bounded: BoundedOutput): Promise<Marker | 'timeout' | 'cancel'> {
    this.logger.info(`python_execute: interrupting pid ${live.pgid}`);
    try {
      process.kill(live.pgid, 'SIGINT');
    } catch {
      return 'timeout';
    }
    const stopped = await this.waitMarker(live, this.options.interruptGraceMs ?? 3000);
    if (stopped === 'timeout') bounded.append('\nThe code ignored the interrupt: the Python session was ended.');
    return stopped === 'exit' ? 'timeout' : stopped;
  }

  /** Starts the interpreter and waits for its ready line; `undefined` (with the reason in `bounded`) when none starts. */
  private async start(bounded: BoundedOutput, signal: AbortSignal): Promise<Live | undefined> {
    const python = this.options.python ?? (await findPython());
    if (!python) {
      bounded.append(NO_PYTHON);
      return undefined;
    }
    ensureWatchdog();
    const mark = `\u001eSTEPWISE-PY-${randomBytes(6).toString('hex')}`;
    const tag = nextTag();
    const rcDir = await mkdtemp(path.join(tmpdir(), 'stepwise-mpl-'));
    await writeFile(path.join(rcDir, 'matplotlibrc'), MATPLOTLIB_RC);
    let child: GroupChild;
    try {
      ({ child } = await spawnGroupLeader(python, ['-u', '-c', PYTHON_DRIVER, mark], {
        cwd: this.options.cwd,
        explicit: { [TAG_VAR]: tag, STEPWISE_CHARTS_DIR: this.options.chartsDir, PYTHONIOENCODING: 'utf-8', MPLBACKEND: 'Agg', MATPLOTLIBRC: rcDir },
        stdin: 'pipe',
      }));
    } catch (error) {
      await rm(rcDir, { recursive: true, force: true });
      bounded.append(`Could not start Python (${python}): ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    if (child.pid === undefined) {
      await rm(rcDir, { recursive: true, force: true });
      const failure = await child;
      bounded.append(`Could not start Python (${python}): ${failure.shortMessage ?? failure.message}. ${NO_PYTHON}`);
      return undefined;
    }
    void child.catch(() => undefined);
    // Writing to an interpreter that just died fails with EPIPE: its exit is what the run reports.
    child.stdin?.on('error', (error) => this.logger.debug(`python stdin: ${error.message}`));
    const live: Live = { child, pgid: child.pid, tag, rcDir, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
    this.listen(live, mark);
    const early = new BoundedOutput(4000);
    live.output = { bounded: early };
    const ready = await this.waitMarker(live, this.options.startTimeoutMs ?? 30_000, signal);
    live.output = undefined;
    this.live = live;
    if (typeof ready === 'object' && ready.status === 'ready') {
      const missing = (['pandas', 'matplotlib'] as const).filter((m) => ready[m] === false);
      bounded.append(`[Python ${ready.version ?? '?'} at ${ready.executable ?? python}${missing.length ? `; not installed: ${missing.join(', ')}` : ''}]\n`);
      return live;
    }
    if (ready !== 'cancel') bounded.append(`Python (${python}) did not start: ${early.toString().trim() || ready}. ${NO_PYTHON}`);
    await this.end();
    return undefined;
  }

  /** Routes the interpreter's output to the current run and its markers to `onMarker`. */
  private listen(live: Live, mark: string): void {
    const lines = new MarkedLines(mark);
    const emit = (text: string) => {
      if (text === '') return;
      if (!live.output) {
        this.logger.debug(`python output outside a run: ${text.slice(0, 200)}`);
        return;
      }
      live.output.bounded.append(text);
      try {
        live.output.listener?.(text);
      } catch (error) {
        this.logger.warn('python onOutput listener threw', error);
      }
    };
    const decoder = new StringDecoder('utf8');
    live.child.stdout?.on('data', (chunk: Buffer) => {
      for (const piece of lines.push(decoder.write(chunk))) {
        if (typeof piece === 'string') emit(piece);
        else live.onMarker?.(parseMarker(piece.marker));
      }
    });
    const errors = new StringDecoder('utf8');
    live.child.stderr?.on('data', (chunk: Buffer) => emit(errors.write(chunk)));
  }

  /** Ends the interpreter's process group and tagged strays; the next run starts afresh. */
  private async end(): Promise<void> {
    const live = this.live;
    this.live = undefined;
    if (!live) return;
    live.child.stdin?.end();
    if (signalGroup(live.pgid, 'SIGTERM')) {
      for (let i = 0; i < 40 && (await groupHasLiveMembers(live.pgid)); i++) await new Promise((r) => setTimeout(r, 50));
      if (await groupHasLiveMembers(live.pgid)) signalGroup(live.pgid, 'SIGKILL');
    }
    await endTagged(live.tag, { graceMs: 1000 });
    live.child.stdout?.destroy();
    live.child.stderr?.destroy();
    await rm(live.rcDir, { recursive: true, force: true });
  }

  private relativeCharts(charts: readonly string[]): string[] {
    return charts.map((chart) => path.relative(this.options.cwd, chart).split(path.sep).join('/'));
  }
}

function parseMarker(text: string): Marker {
  try {
    return JSON.parse(text) as Marker;
  } catch {
    return { status: 'error' };
  }
}
