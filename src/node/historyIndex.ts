import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { RunOutcome } from '../shared/events';
import { atomicWrite } from './atomicWrite';

/**
 * One line of the history index: what a run's start or end told the list (task words, folder,
 * times, outcome, cost). `last` is the wall time the line was written: the list's "most recent".
 * `gone` forgets a run (deleted; a later run with the same id starts afresh).
 */
export const IndexLine = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('start'), runId: z.string(), task: z.string(), ts: z.number(), last: z.number(),
    workspace: z.string().optional(), resumedFrom: z.string().optional(),
  }),
  z.object({
    kind: z.literal('finish'), runId: z.string(), outcome: RunOutcome, last: z.number(),
    costUsd: z.number().optional(), effectiveTokens: z.number().optional(),
  }),
  // A stored file without a `run_started`: remembered so the list does not read it again.
  z.object({ kind: z.literal('nostart'), runId: z.string(), last: z.number() }),
  z.object({ kind: z.literal('gone'), runId: z.string() }),
]);
export type IndexLine = z.infer<typeof IndexLine>;

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
    Object.assign(run, { task: line.task, ts: line.ts }, line.workspace ? { workspace: line.workspace } : {}, line.resumedFrom ? { resumedFrom: line.resumedFrom } : {});
  } else if (line.kind === 'finish') {
    Object.assign(run, { outcome: line.outcome }, line.costUsd !== undefined ? { costUsd: line.costUsd } : {}, line.effectiveTokens !== undefined ? { effectiveTokens: line.effectiveTokens } : {});
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
        const parsed = IndexLine.safeParse(JSON.parse(raw));
        if (parsed.success) foldIndexLine(runs, parsed.data);
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
