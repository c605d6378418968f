import { loadTaskHistory } from '../../../agent/flow/resumeTask';
import type { HistoryStore } from '../../../node/historyStore';
import { taskWords } from '../../../shared/attachedContext';
import type { AgentEvent } from '../../../shared/events';
import type { TaskViewsPort } from '../../common/task/viewsPort';
import { changedSinceTask, undoTaskEdits, type UndoReport } from '../editor/undoTaskEdits';
import type { RunRecord } from './taskControllerTypes';

/**
 * The runs of this window and the task history: which run the views show, reopening a stored run,
 * a stored task's events (for resume), and undoing the edits a run made (journals live in memory, per window).
 */
export class RunRecords {
  private readonly runs = new Map<string, RunRecord>();
  private shownRunId: string | undefined;

  constructor(
    private readonly history: HistoryStore,
    private readonly views: TaskViewsPort,
  ) {}

  /** The run the views show now (running, or reopened from history). */
  get shown(): string | undefined {
    return this.shownRunId;
  }

  /** Records a new run of this window and shows it. */
  add(record: RunRecord): void {
    this.runs.set(record.runId, record);
    this.shownRunId = record.runId;
  }

  /** The views show no run now (the user started a new task). */
  clearShown(): void {
    this.shownRunId = undefined;
  }

  /** A run of this window (with its edit journal), by id. */
  get(runId: string): RunRecord | undefined {
    return this.runs.get(runId);
  }

  /** Shows a stored run in the views (read-only replay of its events). */
  async reopen(runId: string): Promise<boolean> {
    const envelopes = await this.history.read(runId);
    const started = envelopes.find((e) => e.event.type === 'run_started');
    if (!started || started.event.type !== 'run_started') return false;
    this.shownRunId = runId;
    this.views.startRun(runId, taskWords(started.event.task));
    for (const envelope of envelopes) this.views.publish(envelope);
    return true;
  }

  /** The events of a stored task, with those of the runs it resumed first. */
  taskHistory(runId: string): Promise<AgentEvent[]> {
    return loadTaskHistory((id) => this.history.read(id), runId, async (id) => {
      const meta = (await this.history.readSidecar(id, 'meta')) as { cutAtSeq?: unknown; cuts?: unknown } | undefined;
      const windows = Array.isArray(meta?.cuts) ? meta.cuts.filter((w): w is [number, number] => Array.isArray(w) && typeof w[0] === 'number' && typeof w[1] === 'number') : [];
      if (typeof meta?.cutAtSeq === 'number') windows.push([meta.cutAtSeq, Infinity]);
      return windows.length ? windows : undefined;
    });
  }

  /**
   * A follow-up continues `runId` from `firstSeq`: a conversation cut by a restore becomes a window,
   * so the follow-up's own events (after the cut) stay in the conversation.
   */
  async continueAfterCut(runId: string, firstSeq: number): Promise<void> {
    const meta = ((await this.history.readSidecar(runId, 'meta')) ?? {}) as { cutAtSeq?: unknown; cuts?: unknown };
    if (typeof meta.cutAtSeq !== 'number') return;
    const cuts = Array.isArray(meta.cuts) ? meta.cuts : [];
    const { cutAtSeq, ...rest } = meta;
    await this.history.writeSidecar(runId, 'meta', { ...rest, cuts: [...cuts, [cutAtSeq, firstSeq]] });
  }

  /** The run whose edits "undo" targets: the given one, the shown one, else the last with edits. */
  undoTarget(runId?: string): RunRecord | undefined {
    const id = runId ?? this.shownRunId ?? [...this.runs.keys()].reverse().find((k) => (this.runs.get(k)?.journal.size ?? 0) > 0);
    const record = id ? this.runs.get(id) : undefined;
    return record?.workspace && record.journal.size > 0 ? record : undefined;
  }

  /** Restores the files a run changed, from its journal; `overwrite` names user-changed files to undo too. */
  async undo(record: RunRecord, keep: readonly string[] = [], overwrite: readonly string[] = []): Promise<UndoReport | undefined> {
    const workspace = record.workspace;
    if (!workspace) return undefined;
    return undoTaskEdits(record.journal, (rel) => workspace.uriOf(rel), keep, overwrite);
  }

  /** The files of a run's journal the user changed since it wrote them. */
  async changedByUser(record: RunRecord, keep: readonly string[] = []): Promise<string[]> {
    const workspace = record.workspace;
    return workspace ? changedSinceTask(record.journal, (rel) => workspace.uriOf(rel), keep) : [];
  }
}
