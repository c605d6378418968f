import type { EventStream } from '../events/eventStream';
import { errorMessage, isCancellation } from '../errors';
import type { Clock, Logger } from '../ports';
import type { Checkpoint, CheckpointKind, CheckpointSetup, CheckpointStore, FileChange } from './checkpointTypes';

type Snapshot = Awaited<ReturnType<CheckpointStore['snapshot']>>;

/** Where in the task a checkpoint is taken. */
export interface CheckpointPlace {
  stepId?: string;
  stepNumber?: number;
  stepTitle?: string;
  callId?: string;
  tool?: string;
  label?: string;
}

/**
 * The checkpoints of one task: numbers them `c1`, `c2`, … (continuing a resumed task's list),
 * emits a `checkpoint` event for each, skips recording a snapshot equal to the previous one of the
 * same kind and place, reports skipped files once, and turns checkpoints off for the rest of the
 * task (with one warning) when the store fails. Never throws except for cancellation.
 */
export class TaskCheckpoints {
  private count = 0;
  private firstCp: Checkpoint | undefined;
  private lastCp: Checkpoint | undefined;
  private off: string | undefined;
  private readonly skippedSaid = new Set<string>();
  private readonly treeListeners: ((tree: string, callId?: string) => void)[] = [];
  private started: Promise<void> | undefined;
  /** The tree of the latest snapshot, and whether the workspace is known to be unchanged since (see `willChange`). */
  private lastSnapshot: Snapshot | undefined;
  private unchanged = false;
  /**
   * The paths written since the latest snapshot when nothing else can have changed the workspace
   * (only tools that write through `wrote` ran); `undefined`: anything may have changed.
   */
  private written: Set<string> | undefined;
  /** Writes reported so far: one reported while a snapshot runs keeps the next call from reusing it. */
  private writes = 0;
  /** Work done, for tests and the bench: snapshots taken from the workspace (those limited to the written paths among them), and those reused because nothing could have changed. */
  readonly work = { snapshots: 0, scoped: 0, reused: 0 };

  constructor(
    private readonly setup: CheckpointSetup,
    private readonly events: EventStream,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    // A shell that gives no setup at all has not opted in: checkpoints are off without a warning.
    this.off = setup.store ? undefined : (setup.offReason ?? '');
  }

  /** True while checkpoints are being taken. */
  get enabled(): boolean {
    return this.off === undefined;
  }

  /** The first checkpoint of the task (its start), if any. */
  get first(): Checkpoint | undefined {
    return this.firstCp;
  }

  /** The most recent checkpoint, if any. */
  get latest(): Checkpoint | undefined {
    return this.lastCp;
  }

  /** Called with the tree of every snapshot taken (the evidence tracker learns of changes this way). */
  onTree(listener: (tree: string, callId?: string) => void): void {
    this.treeListeners.push(listener);
  }

  /**
   * Something that may change the workspace is about to run (a tool call that writes or runs, a
   * background command): the next checkpoint takes a snapshot. Until then, a tool call's checkpoint
   * reuses the latest snapshot: a call that follows calls that wrote nothing costs no snapshot.
   */
  willChange(): void {
    this.unchanged = false;
    this.written = undefined;
  }

  /**
   * Like `willChange`, for a call that changes files only by writes reported to `wrote`: the next
   * tool call's checkpoint may look at the written paths alone.
   */
  willWrite(): void {
    this.unchanged = false;
  }

  /** A file was (or is about to be) written; `undefined`: a write whose path is not known, so anything may have changed. */
  wrote(rel: string | undefined): void {
    this.unchanged = false;
    this.writes += 1;
    if (rel === undefined) this.written = undefined;
    else this.written?.add(rel);
  }

  /** What `willChange` announced ran nothing and wrote nothing (a refused or failed edit): the latest snapshot still holds. */
  changedNothing(): void {
    if (this.lastSnapshot !== undefined) this.unchanged = true;
  }

  /**
   * Takes a checkpoint; `undefined` when checkpoints are off or the store failed (then they are
   * off). Checkpoints are taken one after another in the order asked, so the task's first one may
   * run in the background (see `TaskGuards.start`): any later one waits for it.
   */
  take(kind: CheckpointKind, place: CheckpointPlace = {}, signal?: AbortSignal): Promise<Checkpoint | undefined> {
    const mine = this.queue.then(() => this.takeNow(kind, place, signal));
    this.queue = mine.then(() => undefined, () => undefined);
    return mine;
  }

  private queue: Promise<void> = Promise.resolve();

  private async takeNow(kind: CheckpointKind, place: CheckpointPlace, signal?: AbortSignal): Promise<Checkpoint | undefined> {
    const store = this.setup.store;
    if (!store || this.off !== undefined) {
      this.sayOffOnce();
      return undefined;
    }
    try {
      await this.loadExisting(store);
      // Only a tool call's checkpoint is reused: steps, finish and the end (few per task) always look,
      // so what the flow itself writes between calls (reports, checks' output) is never missed.
      // With only reported writes since the latest snapshot, their paths alone decide: none, nothing changed.
      const pending = this.written;
      const reuse = kind === 'tool' && (pending ? pending.size === 0 : this.unchanged) ? this.lastSnapshot : undefined;
      const written = kind === 'tool' && this.lastSnapshot ? pending : undefined;
      // Taken before the snapshot starts: a write reported while it runs must count for the next one.
      this.written = new Set();
      const writesBefore = this.writes;
      const snapshot = reuse ?? (await store.snapshot(signal, written && [...written]).catch((error: unknown) => {
        this.written = undefined;
        throw error;
      }));
      if (reuse) this.work.reused += 1;
      else this.work.snapshots += 1;
      if (!reuse && written) this.work.scoped += 1;
      this.lastSnapshot = snapshot;
      this.unchanged = this.writes === writesBefore;
      this.sayRecoveredOnce();
      const secrets = snapshot.skipped.filter((s) => s.secret);
      if (secrets.length) this.saySecretsOnce(secrets.map((s) => s.path));
      for (const skipped of snapshot.skipped) if (!skipped.secret) this.saySkipped(skipped.path, skipped.reason);
      for (const listener of this.treeListeners) listener(snapshot.tree, place.callId);
      // An end or finish checkpoint equal to the one before it adds nothing to the list.
      const last = this.lastCp;
      if ((kind === 'task_end' || kind === 'finish') && last && last.tree === snapshot.tree && (last.kind === 'task_end' || last.kind === 'finish')) return last;
      const id = `c${++this.count}`;
      const envelope = this.events.emit({
        type: 'checkpoint',
        id,
        kind,
        ...(place.stepId ? { stepId: place.stepId } : {}),
        ...(place.callId ? { callId: place.callId } : {}),
      });
      const large = snapshot.large && Object.keys(snapshot.large).length ? { large: snapshot.large } : {};
      const checkpoint: Checkpoint = { id, tree: snapshot.tree, kind, time: this.clock.now(), seq: envelope.seq, ...place, ...large };
      await store.record(checkpoint);
      this.firstCp ??= checkpoint;
      this.lastCp = checkpoint;
      return checkpoint;
    } catch (error) {
      if (isCancellation(error) || signal?.aborted) throw error;
      this.off = `the checkpoint store failed (${errorMessage(error)})`;
      this.logger.error('checkpoint failed', error);
      this.sayOffOnce();
      return undefined;
    }
  }

  /** Files changed from the task's first checkpoint to its latest; `undefined` without checkpoints. */
  async changedFiles(): Promise<FileChange[] | undefined> {
    const store = this.setup.store;
    if (!store || !this.firstCp || !this.lastCp || this.off !== undefined) return undefined;
    try {
      return await store.changes(this.firstCp.tree, this.lastCp.tree);
    } catch (error) {
      this.logger.error('checkpoint diff failed', error);
      return undefined;
    }
  }

  /** A resumed task continues its numbering and keeps its first checkpoint. */
  private loadExisting(store: CheckpointStore): Promise<void> {
    this.started ??= store.list().then((list) => {
      this.count = Math.max(this.count, ...list.map((c) => Number(c.id.slice(1)) || 0));
      this.firstCp ??= list[0];
    });
    return this.started;
  }

  private sayOffOnce(): void {
    if (!this.off || this.skippedSaid.has('\0off')) return;
    this.skippedSaid.add('\0off');
    this.events.emit({
      type: 'notice',
      level: 'warning',
      code: 'other',
      message: `Checkpoints are off: ${this.off}. Changes cannot be restored, and commands' changes are not listed.`,
    });
  }

  /** One notice per task for all secret files (the first snapshot that saw any names them). */
  private saySecretsOnce(paths: readonly string[]): void {
    if (this.skippedSaid.has('\0secrets')) return;
    this.skippedSaid.add('\0secrets');
    const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
    this.events.emit({
      type: 'notice',
      level: 'info',
      code: 'other',
      message: `Secret files are never copied into checkpoints, so a restore leaves them as they are: ${shown} (and any other .env, key or credentials file).`,
    });
  }

  private sayRecoveredOnce(): void {
    const recovered = this.setup.recovered;
    if (!recovered || this.skippedSaid.has('\0recovered')) return;
    this.skippedSaid.add('\0recovered');
    this.events.emit({ type: 'notice', level: 'warning', code: 'other', message: recovered });
  }

  private saySkipped(path: string, reason: string): void {
    if (this.skippedSaid.has(path)) return;
    this.skippedSaid.add(path);
    this.events.emit({ type: 'notice', level: 'info', code: 'other', message: `Not in checkpoints: ${path} (${reason}).` });
  }
}
