import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunOutcome } from '../shared/events';
import { isRunOutcome } from '../shared/runOutcomes';
import { atomicWrite } from './atomicWrite';

/**
 * One line of the history index: what a run's start or end told the list (task words, folder,
 * times, outcome, cost). `last` is the wall time the line was written: the list's "most recent".
 * `gone` forgets a run (deleted; a later run with the same id starts afresh). `nostart`: a stored
 * file without a `run_started`, remembered so the list does not read it again.
 */
export type IndexLine =
  | { kind: 'start'; runId: string; task: string; ts: number; last: number; workspace?: string; resumedFrom?: string }
  | { kind: 'finish'; runId: string; outcome: RunOutcome; last: number; costUsd?: number; effectiveTokens?: number }
  | { kind: 'nostart'; runId: string; last: number }
  | { kind: 'gone'; runId: string };

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);

/**
 * The index line `value` is, or undefined for a torn or foreign one. Checked by hand, not with a zod
 * schema: `stepwise history list` runs this at the CLI's start, where loading zod alone costs ~50 ms,
 * two thirds of Node's own start (issue 28). The line is returned as it is, not copied (thousands
 * of lines per list): keys it should not have are ignored by `foldIndexLine`, which copies only its own.
 */
export function parseIndexLine(value: unknown): IndexLine | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!isString(v.runId)) return undefined;
  switch (v.kind) {
    case 'start':
      return isString(v.task) && isNumber(v.ts) && isNumber(v.last) && optional(v.workspace, isString) && optional(v.resumedFrom, isString) ? (v as IndexLine) : undefined;
    case 'finish':
      return isRunOutcome(v.outcome) && isNumber(v.last) && optional(v.costUsd, isNumber) && optional(v.effectiveTokens, isNumber) ? (v as IndexLine) : undefined;
    case 'nostart':
      return isNumber(v.last) ? (v as IndexLine) : undefined;
    case 'gone':
      return v as IndexLine;
    default:
      return undefined;
  }
}

/** One run as the index knows it after folding its lines (`task` undefined: the file has no start). */
export interface IndexedRun {
  runId: string;
  task?: string;
  ts: number;
  last: number;
  workspace?: string;
  resumedFrom?: string;
  outcome?: RunOutcome;
  costUsd?: number;
  effectiveTokens?: number;
}

/** The index file's name: not a run's name (`<id>.jsonl`), so pruning and listing never take it for one. */
export const INDEX_FILE = 'task-index.ndjson';

/** Folds one line into the runs: the first start names the run, later starts and ends only move it forward. */
export function foldIndexLine(runs: Map<string, IndexedRun>, line: IndexLine): void {
  if (line.kind === 'gone') {
    runs.delete(line.runId);
    return;
  }
  const run = runs.get(line.runId) ?? { runId: line.runId, ts: 0, last: 0 };
  run.last = Math.max(run.last, line.last);
  if (line.kind === 'start' && run.task === undefined) {
    run.task = line.task;
    run.ts = line.ts;
    if (line.workspace) run.workspace = line.workspace;
    if (line.resumedFrom) run.resumedFrom = line.resumedFrom;
  } else if (line.kind === 'finish') {
    run.outcome = line.outcome;
    if (line.costUsd !== undefined) run.costUsd = line.costUsd;
    if (line.effectiveTokens !== undefined) run.effectiveTokens = line.effectiveTokens;
  }
  runs.set(line.runId, run);
}

/** The lines that say the same as `runs` (what a compaction writes). */
export function linesOf(runs: Iterable<IndexedRun>): IndexLine[] {
  const out: IndexLine[] = [];
  for (const run of runs) {
    if (run.task === undefined) {
      out.push({ kind: 'nostart', runId: run.runId, last: run.last });
      continue;
    }
    out.push({ kind: 'start', runId: run.runId, task: run.task, ts: run.ts, last: run.last, ...(run.workspace ? { workspace: run.workspace } : {}), ...(run.resumedFrom ? { resumedFrom: run.resumedFrom } : {}) });
    if (run.outcome) {
      out.push({ kind: 'finish', runId: run.runId, outcome: run.outcome, last: run.last, ...(run.costUsd !== undefined ? { costUsd: run.costUsd } : {}), ...(run.effectiveTokens !== undefined ? { effectiveTokens: run.effectiveTokens } : {}) });
    }
  }
  return out;
}

/**
 * The history's index: one small append-only file of start/end lines beside the runs, written as
 * the runs are written, so listing reads one file instead of every run. Appends are serialised in
 * this process; a line another process wrote at the same moment is at worst lost in a compaction,
 * and the run is then found again by the list (it reads the runs the index does not know).
 */
export class HistoryIndex {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly folder: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  get file(): string {
    return path.join(this.folder, INDEX_FILE);
  }

  /** Queues one line; the folder exists (the run's own append created it). */
  add(line: IndexLine): Promise<void> {
    this.queue = this.queue.then(() => appendFile(this.file, JSON.stringify(line) + '\n', 'utf8')).catch(this.onError);
    return this.queue;
  }

  /** Resolves when every queued line is written. */
  flush(): Promise<void> {
    return this.queue;
  }

  /** The runs the index knows and how many lines it took (a torn or foreign line is skipped). */
  async load(): Promise<{ runs: Map<string, IndexedRun>; lines: number }> {
    await this.queue;
    const runs = new Map<string, IndexedRun>();
    let text = '';
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return { runs, lines: 0 };
    }
    let lines = 0;
    for (const raw of text.split('\n')) {
      if (!raw) continue;
      lines += 1;
      try {
        const line = parseIndexLine(JSON.parse(raw));
        if (line) foldIndexLine(runs, line);
      } catch {}
    }
    return { runs, lines };
  }

  /** Rewrites the index as one line or two per live run (atomically: readers see the old or the new file). */
  compact(runs: Iterable<IndexedRun>): Promise<void> {
    const text = linesOf(runs).map((line) => JSON.stringify(line) + '\n').join('');
    this.queue = this.queue.then(() => atomicWrite(this.file, text)).catch(this.onError);
    return this.queue;
  }
}
