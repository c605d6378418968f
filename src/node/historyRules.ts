import type { EventEnvelope } from '../shared/events';

/** How long and how much task history is kept (`stepwise.history.*` settings; 0 = no limit). */
export interface HistoryPruneSettings {
  /** Runs last written longer ago than this are removed; 0 keeps runs of any age. */
  maxAgeDays: number;
  /** Above this total size the oldest runs are removed until the history fits; 0 = any size. */
  maxSizeMb: number;
}

/** Defaults a user expects: a month of history, at most 200 MB. */
export const DEFAULT_HISTORY_PRUNE: HistoryPruneSettings = { maxAgeDays: 30, maxSizeMb: 200 };

/** One stored run as pruning sees it: when it was last written and how many bytes its files take. */
export interface StoredRun {
  runId: string;
  lastWritten: number;
  bytes: number;
}

const DAY_MS = 24 * 3600_000;

/** A setting value as a limit: finite and >= 0, else the default (a typo must not wipe history). */
export function historyLimit(value: unknown, fallback: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Settings from `STEPWISE_HISTORY_MAX_AGE_DAYS` / `STEPWISE_HISTORY_MAX_SIZE_MB` (invalid values: defaults). */
export function historyPruneFromEnv(env: NodeJS.ProcessEnv): HistoryPruneSettings {
  return {
    maxAgeDays: historyLimit(env.STEPWISE_HISTORY_MAX_AGE_DAYS, DEFAULT_HISTORY_PRUNE.maxAgeDays),
    maxSizeMb: historyLimit(env.STEPWISE_HISTORY_MAX_SIZE_MB, DEFAULT_HISTORY_PRUNE.maxSizeMb),
  };
}

/**
 * The runs to remove, oldest first: every run older than `maxAgeDays`, then the oldest runs while
 * the rest is larger than `maxSizeMb`. Runs in `keep` (the running one, the one being resumed) are
 * never chosen, and they still count toward the size.
 */
export function selectRunsToPrune(runs: readonly StoredRun[], settings: HistoryPruneSettings, now: number, keep: ReadonlySet<string> = new Set()): string[] {
  const oldestFirst = [...runs].sort((a, b) => a.lastWritten - b.lastWritten || a.runId.localeCompare(b.runId));
  const chosen = new Set<string>();
  if (settings.maxAgeDays > 0) {
    const cutoff = now - settings.maxAgeDays * DAY_MS;
    for (const run of oldestFirst) if (run.lastWritten < cutoff && !keep.has(run.runId)) chosen.add(run.runId);
  }
  if (settings.maxSizeMb > 0) {
    const limit = settings.maxSizeMb * 1024 * 1024;
    let total = oldestFirst.reduce((sum, run) => sum + (chosen.has(run.runId) ? 0 : run.bytes), 0);
    for (const run of oldestFirst) {
      if (total <= limit) break;
      if (chosen.has(run.runId) || keep.has(run.runId)) continue;
      chosen.add(run.runId);
      total -= run.bytes;
    }
  }
  return oldestFirst.filter((run) => chosen.has(run.runId)).map((run) => run.runId);
}

/** Longest text of one run that search looks through (the task, plan, summaries, answer, report). */
const MAX_SEARCH_CHARS = 200_000;

/**
 * What a run can be found by: its task, outcome, plan goal and step titles, step summaries, the
 * final answer and the report, lower-cased. Tool output and streamed text are left out: they are
 * large and would make nearly every run match.
 */
export function searchableText(envelopes: readonly EventEnvelope[]): string {
  const parts: string[] = [];
  for (const { event } of envelopes) {
    switch (event.type) {
      case 'run_started': parts.push(event.task); break;
      case 'run_finished': parts.push(event.outcome, event.summary ?? '', event.reason ?? ''); break;
      case 'plan_created': parts.push(event.goal, ...event.steps.map((s) => s.title)); break;
      case 'plan_updated': parts.push(...event.steps.map((s) => s.title)); break;
      case 'step_finished': parts.push(event.summary); break;
      case 'report': parts.push(event.markdown); break;
      default: break;
    }
  }
  return parts.join('\n').slice(0, MAX_SEARCH_CHARS).toLocaleLowerCase();
}

/** The query's words, lower-cased; empty for a blank query. */
export function queryTerms(query: string): string[] {
  return query.toLocaleLowerCase().split(/\s+/).filter((word) => word !== '');
}

/** True when every word of the query occurs in `text` (already lower-cased); a blank query matches all. */
export function matchesQuery(text: string, query: string): boolean {
  return queryTerms(query).every((term) => text.includes(term));
}
