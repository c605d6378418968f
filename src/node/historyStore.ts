import { taskWords } from '../shared/attachedContext';
import { appendFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { envelopeJson } from '../agent/events/envelopeJson';
import type * as Events from '../shared/events';
import type { EventEnvelope } from '../shared/events';
import type { HistoryEntry } from '../shared/webviewProtocol';
import { HistoryIndex, type IndexedRun, type IndexLine } from './historyIndex';
import { matchesQuery, queryTerms, searchableText, selectRunsToPrune, type HistoryPruneSettings, type StoredRun } from './historyRules';

const RUN_ID = /^[A-Za-z0-9_-]{1,200}$/;
/** Run files a history search reads ahead of the one it checks. */
const READ_AHEAD = 8;

/**
 * The event schema, loaded on the first run file parsed: listing reads only the index and must not
 * pay for zod at the CLI's start (see parseIndexLine). The bundles keep this require lazy.
 */
function envelopeSchema(): typeof Events.EventEnvelope {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
  return (require('../shared/events') as typeof Events).EventEnvelope;
}

/**
 * Task history: one JSON-lines file per run (`<runId>.jsonl`, one EventEnvelope per line, the same
 * form as the CLI's `--json` output) in the extension's storage folder. Appends are serialised per
 * run so lines never interleave. Only events are stored: never the API key or settings.
 */
export class HistoryStore {
  private readonly queues = new Map<string, Promise<void>>();
  /** The list's index (see historyIndex.ts): kept by `append` and `delete`, read by `list`. */
  readonly index: HistoryIndex;
  /** The run's latest cost figures, written into the index with its end. */
  private readonly costs = new Map<string, { costUsd?: number; effectiveTokens?: number }>();
  /** Work done, for tests and the bench: run files parsed as events, and run files scanned as text by search. */
  readonly work = { parsed: 0, scanned: 0 };

  constructor(
    readonly folder: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.index = new HistoryIndex(folder, onError);
  }

  /** The file of one run; throws for a run id that could escape the folder (a bug or a forged id). */
  fileOf(runId: string): string {
    if (!RUN_ID.test(runId)) throw new Error(`invalid run id ${JSON.stringify(runId)}`);
    return path.join(this.folder, `${runId}.jsonl`);
  }

  /** Queues one envelope for its run's file; failures go to `onError`, never to the run. */
  append(envelope: EventEnvelope): void {
    const file = this.fileOf(envelope.runId);
    const line = envelopeJson(envelope) + '\n';
    const previous = this.queues.get(envelope.runId) ?? mkdir(this.folder, { recursive: true }).then(() => undefined);
    const indexLine = this.indexLineOf(envelope);
    // The index line follows its event: the index never names what the run's file does not hold.
    const next = previous
      .then(() => appendFile(file, line, 'utf8'))
      .then(() => (indexLine ? this.index.add(indexLine) : undefined))
      .catch(this.onError);
    this.queues.set(envelope.runId, next);
  }

  /** The index line an event makes (a start or an end), remembering the cost figures on the way. */
  private indexLineOf({ runId, ts, event }: EventEnvelope): IndexLine | undefined {
    const last = Date.now();
    if (event.type === 'usage') {
      const figures = event.task ?? event.cost;
      if (figures) this.costs.set(runId, figures);
      return undefined;
    }
    if (event.type === 'run_started') {
      return { kind: 'start', runId, task: taskWords(event.task), ts, last, workspace: event.workspace, ...(event.resumedFrom && event.resumedFrom !== runId ? { resumedFrom: event.resumedFrom } : {}) };
    }
    if (event.type === 'run_finished') return { kind: 'finish', runId, outcome: event.outcome, last, ...this.costs.get(runId) };
    return undefined;
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
    return this.parse(text);
  }

  /** The envelopes of one run file's text. */
  private parse(text: string): EventEnvelope[] {
    this.work.parsed += 1;
    const out: EventEnvelope[] = [];
    const schema = envelopeSchema();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const parsed = schema.safeParse(JSON.parse(line));
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
      names = await readdir(this.folder);
    } catch {
      return [];
    }
    const { runs, lines } = await this.index.load();
    const present: IndexedRun[] = [];
    for (const name of names) {
      const runId = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
      if (!RUN_ID.test(runId)) continue;
      const known = runs.get(runId) ?? (await this.indexRun(runId));
      if (known) present.push(known);
    }
    // Deleted runs, restarts and other processes' lines pile up: rewrite once the index is twice what it says.
    if (lines > 2 * 2 * present.length + 64) await this.index.compact(present);
    const listed = present.filter((run) => run.task !== undefined).sort((a, b) => b.last - a.last || b.ts - a.ts).slice(0, limit);
    const threadRuns: ThreadRun[] = listed.map((run) => ({
      runId: run.runId, task: run.task!, ts: run.ts,
      ...(run.resumedFrom ? { resumedFrom: run.resumedFrom } : {}),
      ...(run.outcome ? { outcome: run.outcome } : {}),
    }));
    return options.threads ? groupThreads(threadRuns) : threadRuns.map(({ resumedFrom: _r, ...entry }) => entry);
  }

  /** Reads a run the index does not know (written before the index, or moved in) and adds it to the index. */
  private async indexRun(runId: string): Promise<IndexedRun | undefined> {
    const info = await stat(this.fileOf(runId)).catch(() => undefined);
    if (!info) return undefined;
    const envelopes = await this.read(runId);
    const started = envelopes.find((e) => e.event.type === 'run_started');
    const finished = envelopes.findLast((e) => e.event.type === 'run_finished');
    const last = info.mtimeMs;
    const run: IndexedRun = { runId, ts: started?.ts ?? 0, last };
    if (started && started.event.type === 'run_started') {
      run.task = taskWords(started.event.task);
      run.workspace = started.event.workspace;
      if (started.event.resumedFrom && started.event.resumedFrom !== runId) run.resumedFrom = started.event.resumedFrom;
      await this.index.add({ kind: 'start', runId, task: run.task, ts: run.ts, last, workspace: run.workspace, ...(run.resumedFrom ? { resumedFrom: run.resumedFrom } : {}) });
    } else {
      await this.index.add({ kind: 'nostart', runId, last });
    }
    if (finished && finished.event.type === 'run_finished') {
      run.outcome = finished.event.outcome;
      await this.index.add({ kind: 'finish', runId, outcome: run.outcome, last });
    }
    return run;
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
    await this.index.add({ kind: 'gone', runId });
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
    const terms = queryTerms(query);
    if (!terms.length) return this.list(limit);
    const entries = await this.list(Number.MAX_SAFE_INTEGER);
    const found: HistoryEntry[] = [];
    // Files are read a few ahead of the one being checked (a read waits on the disk, the check on
    // the CPU), still checked newest first; at most READ_AHEAD are read past the limit.
    const reads = new Map<number, Promise<string>>();
    for (let i = 0; i < entries.length; i++) {
      if (found.length >= limit) break;
      for (let next = i; next < Math.min(entries.length, i + READ_AHEAD); next++) {
        if (!reads.has(next)) reads.set(next, readFile(this.fileOf(entries[next]!.runId), 'utf8').catch(() => ''));
      }
      const entry = entries[i]!;
      const text = await reads.get(i)!;
      reads.delete(i);
      this.work.scanned += 1;
      // Every searchable word is in the file as written (JSON keeps such words verbatim): a file
      // without one of them is skipped unparsed. Words JSON would escape are left to the full check.
      const lower = text.toLocaleLowerCase();
      if (!terms.every((term) => jsonEscapes(term) || lower.includes(term))) continue;
      if (matchesQuery(`${entry.task}\n${entry.outcome ?? ''}\n${searchableText(this.parse(text))}`.toLocaleLowerCase(), query)) found.push(entry);
    }
    return found;
  }
}

/** True when JSON.stringify writes a character of `word` as an escape: then the word is not in the file verbatim. */
function jsonEscapes(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return true;
  }
  return false;
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
