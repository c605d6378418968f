import { taskWords } from '../shared/attachedContext';
import { appendFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EventEnvelope } from '../shared/events';
import type { HistoryEntry } from '../shared/webviewProtocol';
import { matchesQuery, searchableText, selectRunsToPrune, type HistoryPruneSettings, type StoredRun } from './historyRules';

const RUN_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * Task history: one JSON-lines file per run (`<runId>.jsonl`, one EventEnvelope per line, the same
 * form as the CLI's `--json` output) in the extension's storage folder. Appends are serialised per
 * run so lines never interleave. Only events are stored: never the API key or settings.
 */
export class HistoryStore {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    readonly folder: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** The file of one run; throws for a run id that could escape the folder (a bug or a forged id). */
  fileOf(runId: string): string {
    if (!RUN_ID.test(runId)) throw new Error(`invalid run id ${JSON.stringify(runId)}`);
    return path.join(this.folder, `${runId}.jsonl`);
  }

  /** Queues one envelope for its run's file; failures go to `onError`, never to the run. */
  append(envelope: EventEnvelope): void {
    const file = this.fileOf(envelope.runId);
    const line = JSON.stringify(envelope) + '\n';
    const previous = this.queues.get(envelope.runId) ?? mkdir(this.folder, { recursive: true }).then(() => undefined);
    const next = previous.then(() => appendFile(file, line, 'utf8')).catch(this.onError);
    this.queues.set(envelope.runId, next);
  }

  /** Resolves when every queued append has been written. */
  async flush(): Promise<void> {
    await Promise.all(this.queues.values());
  }

  /** Every envelope of a run that parses (bad lines are skipped); empty when the run is unknown. */
  async read(runId: string): Promise<EventEnvelope[]> {
    await this.queues.get(runId);
    let text: string;
    try {
      text = await readFile(this.fileOf(runId), 'utf8');
    } catch {
      return [];
    }
    const out: EventEnvelope[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const parsed = EventEnvelope.safeParse(JSON.parse(line));
        if (parsed.success) out.push(parsed.data);
      } catch {}
    }
    return out;
  }

  /** Writes a small JSON side file of a run (`<runId>.<kind>.json`), e.g. its flow state or its parent run. */
  async writeSidecar(runId: string, kind: 'state' | 'meta', value: unknown): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    await writeFile(this.fileOf(runId).replace(/\.jsonl$/, `.${kind}.json`), JSON.stringify(value), 'utf8');
  }

  /** Reads a side file; `undefined` when missing or unreadable. */
  async readSidecar(runId: string, kind: 'state' | 'meta'): Promise<unknown> {
    try {
      return JSON.parse(await readFile(this.fileOf(runId).replace(/\.jsonl$/, `.${kind}.json`), 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  /** The `seq` after the last stored envelope of a run (0 for an unknown run): where a follow-up's events continue. */
  async nextSeq(runId: string): Promise<number> {
    const envelopes = await this.read(runId);
    return envelopes.reduce((max, e) => Math.max(max, e.seq + 1), 0);
  }

  /**
   * The most recent runs first (by file time), at most `limit`; with `threads`, one entry per
   * conversation (`groupThreads`: VS Code's history), else one per stored run (the CLI's `tasks`).
   */
  async list(limit = 50, options: { threads?: boolean } = {}): Promise<HistoryEntry[]> {
    await this.flush();
    let names: string[];
    try {
      names = (await readdir(this.folder)).filter((name) => name.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const dated = await Promise.all(
      names.map(async (name) => ({ name, mtime: (await stat(path.join(this.folder, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    dated.sort((a, b) => b.mtime - a.mtime);
    const runs: ThreadRun[] = [];
    for (const { name } of dated.slice(0, limit)) {
      const runId = name.slice(0, -'.jsonl'.length);
      if (!RUN_ID.test(runId)) continue;
      const envelopes = await this.read(runId);
      const started = envelopes.find((e) => e.event.type === 'run_started');
      if (!started || started.event.type !== 'run_started') continue;
      const finished = envelopes.findLast((e) => e.event.type === 'run_finished');
      runs.push({
        runId,
        task: taskWords(started.event.task),
        ts: started.ts,
        ...(started.event.resumedFrom && started.event.resumedFrom !== runId ? { resumedFrom: started.event.resumedFrom } : {}),
        ...(finished && finished.event.type === 'run_finished' ? { outcome: finished.event.outcome } : {}),
      });
    }
    const entries = options.threads ? groupThreads(runs) : runs.map(({ resumedFrom: _r, ...entry }) => entry);
    return entries;
  }

  /** Every stored run with the time its files were last written and their total size. */
  async runs(): Promise<StoredRun[]> {
    await this.flush();
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch {
      return [];
    }
    const byRun = new Map<string, StoredRun>();
    for (const name of names) {
      const runId = /^([A-Za-z0-9_-]{1,200})\.(?:jsonl|state\.json|meta\.json)$/.exec(name)?.[1];
      if (!runId) continue;
      const info = await stat(path.join(this.folder, name)).catch(() => undefined);
      if (!info?.isFile()) continue;
      const run = byRun.get(runId) ?? { runId, lastWritten: 0, bytes: 0 };
      run.lastWritten = Math.max(run.lastWritten, info.mtimeMs);
      run.bytes += info.size;
      byRun.set(runId, run);
    }
    return [...byRun.values()];
  }

  /**
   * Removes a run's stored events and its side files; waits for queued appends first so a late
   * append cannot recreate the file. True when something was removed.
   */
  async delete(runId: string): Promise<boolean> {
    const file = this.fileOf(runId);
    await this.queues.get(runId);
    this.queues.delete(runId);
    let removed = false;
    for (const target of [file, file.replace(/\.jsonl$/, '.state.json'), file.replace(/\.jsonl$/, '.meta.json')]) {
      const existed = await stat(target).then(() => true, () => false);
      await rm(target, { force: true });
      removed ||= existed;
    }
    return removed;
  }

  /** Removes the runs `selectRunsToPrune` picks (never those in `keep`); returns their ids. */
  async prune(settings: HistoryPruneSettings, now: number, keep: ReadonlySet<string> = new Set()): Promise<string[]> {
    const chosen = selectRunsToPrune(await this.runs(), settings, now, keep);
    for (const runId of chosen) await this.delete(runId);
    return chosen;
  }

  /**
   * The runs whose task, outcome, plan, summaries, answer or report contain every word of `query`,
   * most recent first, at most `limit` (a blank query lists the most recent runs).
   */
  async search(query: string, limit = 50): Promise<HistoryEntry[]> {
    // Through `list`, so search finds exactly the entries the history list shows.
    const found: HistoryEntry[] = [];
    for (const entry of await this.list(Number.MAX_SAFE_INTEGER)) {
      if (found.length >= limit) break;
      if (matchesQuery(`${entry.task}\n${entry.outcome ?? ''}\n${searchableText(await this.read(entry.runId))}`.toLocaleLowerCase(), query)) found.push(entry);
    }
    return found;
  }
}

/** One stored run as the history list sees it (`resumedFrom`: the run it followed up, when in another file). */
export interface ThreadRun extends HistoryEntry {
  resumedFrom?: string;
}

/**
 * One entry per conversation: a follow-up continues its task's own file, but older follow-ups (and
 * the CLI's resumes) are stored as runs of their own (`run_started.resumedFrom`); those fold into
 * one entry named by the root's task, pointing at the thread's latest run (opening it shows where
 * the conversation stands; resuming it follows `resumedFrom` back to the root), with that run's
 * outcome and start time. Order (most recent first) is kept by the thread's first listed run.
 */
export function groupThreads(runs: readonly ThreadRun[]): HistoryEntry[] {
  const byId = new Map(runs.map((r) => [r.runId, r]));
  const rootOf = (run: ThreadRun): ThreadRun => {
    let current = run;
    // A cycle (a forged or broken file) stops at the run before the repeat.
    const seen = new Set([run.runId]);
    while (current.resumedFrom && byId.has(current.resumedFrom) && !seen.has(current.resumedFrom)) {
      current = byId.get(current.resumedFrom)!;
      seen.add(current.runId);
    }
    return current;
  };
  const latest = new Map<string, ThreadRun>();
  for (const run of runs) {
    const root = rootOf(run);
    const seen = latest.get(root.runId);
    if (!seen || run.ts > seen.ts) latest.set(root.runId, run);
  }
  const entries: HistoryEntry[] = [];
  const listed = new Set<string>();
  for (const run of runs) {
    const root = rootOf(run);
    if (listed.has(root.runId)) continue;
    listed.add(root.runId);
    const last = latest.get(root.runId)!;
    entries.push({ runId: last.runId, task: root.task, ts: last.ts, ...(last.outcome ? { outcome: last.outcome } : {}) });
  }
  return entries;
}
