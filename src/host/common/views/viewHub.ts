import { taskWords } from '../../../shared/attachedContext';
import type { Logger } from '../../../agent/ports';
import type { EventEnvelope } from '../../../shared/events';
import type { Plan } from '../../../shared/plan';
import type { SetupState } from '../../../shared/setupProtocol';
import { parseIntent, type HistoryEntry, type HostMessage, type HostMessageOf, type HostStatus, type McpServerInfo, type MentionSuggestion, type WebviewIntent, type WebviewKind } from '../../../shared/webviewProtocol';
import { RunEventLog } from './runEventLog';

/** One connected webview as the hub sees it; `post` resolves false when the webview could not take it. */
export interface ViewPort {
  readonly kind: WebviewKind;
  post(message: HostMessage): PromiseLike<boolean> | boolean;
  /**
   * The workspace folder as this webview may load it (`webview.asWebviewUri`), put into every
   * `status` it is sent; `undefined` when there is no folder.
   */
  workspaceUri?(): string | undefined;
}

/** Which webviews are on screen now (a hidden one has no page). */
export interface ViewVisibility {
  sidebar: boolean;
  panel: boolean;
}

/**
 * The one webview that shows the run's approvals and questions: the panel while it is visible
 * (the user is looking at the task there), else the sidebar. Edits are answered in their diff editor;
 * this view only points to it.
 */
export function promptsView(visible: ViewVisibility): WebviewKind {
  return visible.panel ? 'panel' : 'sidebar';
}

/** Options of the hub; timers are injectable so tests need not wait on the wall clock. */
export interface ViewHubOptions {
  logger: Logger;
  /** Every valid intent except `ready` (which the hub answers itself). */
  onIntent: (intent: WebviewIntent, view: WebviewKind) => void;
  /** Batching delay for published envelopes (one "frame"). */
  batchMs?: number;
  /** Most envelopes in one `events` message; a long replay goes as several messages. */
  maxBatch?: number;
  /** String overrides and language sent to each webview on `ready` (omit to rely on `<html lang>`). */
  l10n?: { strings: Record<string, string>; lang: string };
  log?: RunEventLog;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

interface PortState {
  /** The webview said `ready` and has not been lost since: it takes messages. */
  ready: boolean;
  /** The run the webview shows, as far as the hub told it. */
  runId?: string;
  /** Highest `seq` sent to it for `runId`. */
  sentSeq: number;
  /** Counts `ready`s, so a late "not delivered" from before a reload does not silence the new page. */
  generation: number;
}

/**
 * The VS Code-free core of the task views: keeps runs' envelopes, tracks what each webview has,
 * answers `ready {lastSeq}` with a replay of exactly what is missing, and sends new envelopes in
 * batches (never whole-state snapshots). Messages from webviews are validated; invalid ones are
 * logged and dropped.
 */
export class ViewHub {
  readonly log: RunEventLog;
  private readonly ports = new Map<ViewPort, PortState>();
  private shownRunId: string | undefined;
  private readonly tasks = new Map<string, string>();
  private status: HostStatus | undefined;
  private mcpServers: McpServerInfo[] | undefined;
  private setupState: SetupState | undefined;
  private showSetupPending = false;
  private review: { runId?: string; plan: Plan } | undefined;
  private readonly visible: ViewVisibility = { sidebar: false, panel: false };
  /** A caret request no sidebar could take yet: delivered when one says `ready`. */
  private focusPending = false;
  private timer: unknown;
  private disposed = false;
  private readonly batchMs: number;
  private readonly maxBatch: number;
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: ViewHubOptions) {
    this.log = options.log ?? new RunEventLog();
    this.batchMs = options.batchMs ?? 16;
    this.maxBatch = options.maxBatch ?? 1000;
    this.setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  }

  /** The run the webviews show, if any. */
  get shownRun(): string | undefined {
    return this.shownRunId;
  }

  /** Registers a webview; it gets messages once it says `ready`. Returns its removal. */
  attach(port: ViewPort): () => void {
    this.ports.set(port, { ready: false, sentSeq: -1, generation: 0 });
    return () => this.detach(port);
  }

  /** The webview's content went away (hidden without retained context); it will say `ready` again. */
  markLost(port: ViewPort): void {
    const state = this.ports.get(port);
    if (state) state.ready = false;
  }

  /** Forgets a webview. */
  detach(port: ViewPort): void {
    this.ports.delete(port);
  }

  /** Handles a raw message from a webview: validates it, answers `ready`, hands other intents on. */
  receive(port: ViewPort, raw: unknown): void {
    const parsed = parseIntent(raw);
    if (!parsed.ok) {
      this.options.logger.warn(`Dropped a message from the ${port.kind} webview that is not a valid intent`, parsed.error);
      return;
    }
    const intent = parsed.intent;
    if (intent.type === 'ready') {
      this.ready(port, intent.lastSeq, intent.runId);
      return;
    }
    if (intent.type === 'runPlan' && this.review) this.showPlanForReview(undefined);
    try {
      this.options.onIntent(intent, port.kind);
    } catch (error) {
      this.options.logger.error(`Handling the ${intent.type} intent failed`, error);
    }
  }

  /** Shows `runId` in every webview from its first stored envelope; later `publish` calls stream into it. */
  startRun(runId: string, task: string): void {
    this.shownRunId = runId;
    // A run is named by its first task: a follow-up (the same run, continued) keeps the title.
    if (!this.tasks.has(runId)) this.tasks.set(runId, task);
    this.updateActive();
    if (this.review && this.review.runId !== undefined && this.review.runId !== runId) this.review = undefined;
    // A webview already showing this run keeps what it has (a follow-up's events just continue below).
    for (const [port, state] of this.ports) if (state.ready && state.runId !== runId) this.resetPort(port, state);
    this.schedule();
  }

  /** Shows no run (the "new task" screen); runs keep their stored envelopes. */
  clearRun(): void {
    this.shownRunId = undefined;
    this.review = undefined;
    this.updateActive();
    for (const [port, state] of this.ports) if (state.ready) this.resetPort(port, state);
  }

  /**
   * Stores an envelope and, if its run is shown, sends it with the next batch. The first run
   * published while none is shown becomes the shown run.
   */
  publish(envelope: EventEnvelope): void {
    if (this.disposed) return;
    if (!this.log.append(envelope)) {
      this.options.logger.debug(`Ignored envelope ${envelope.runId}#${envelope.seq}: not after the last stored one`);
      return;
    }
    if (envelope.event.type === 'run_started' && !this.tasks.has(envelope.runId)) this.tasks.set(envelope.runId, taskWords(envelope.event.task));
    if (this.shownRunId === undefined) this.startRun(envelope.runId, this.tasks.get(envelope.runId) ?? '');
    if (envelope.runId === this.shownRunId) this.schedule();
  }

  /** Sends the extension's status to every webview (and to each one that becomes ready). */
  setStatus(status: HostStatus): void {
    this.status = status;
    this.updateActive();
    for (const [port, state] of this.ports) if (state.ready) this.post(port, this.statusMessage(port, status));
  }

  /** A webview came on screen or left it: the prompts move to the view the user looks at. */
  setVisible(kind: WebviewKind, visible: boolean): void {
    const before = promptsView(this.visible);
    this.visible[kind] = visible;
    if (promptsView(this.visible) !== before) this.resendStatus();
  }

  /** Sends the last status again (each webview's `workspaceUri` is recomputed, e.g. after a folder change). */
  resendStatus(): void {
    if (this.status) this.setStatus(this.status);
  }

  /** Sends the MCP servers to the sidebar (and to a sidebar that becomes ready); the panel does not show them. */
  setMcpServers(servers: readonly McpServerInfo[]): void {
    // Only the protocol's fields: the MCP hub's snapshots also carry pids and counters.
    this.mcpServers = servers.map(({ name, status, tools, lastError, transport, source }) => {
      const info: McpServerInfo = { name, status, tools: [...tools] };
      if (lastError !== undefined) info.lastError = lastError;
      if (transport !== undefined) info.transport = transport;
      if (source !== undefined) info.source = source;
      return info;
    });
    this.broadcast({ type: 'mcpServers', servers: this.mcpServers }, 'sidebar');
  }

  /** The model set-up (presets, current values) for the sidebar's set-up view and switcher; kept for reloads. */
  setSetup(state: SetupState): void {
    this.setupState = state;
    this.broadcast({ type: 'setup', state }, 'sidebar');
  }

  /** A set-up answer (model list, test result) or "show the set-up view" for the sidebar. */
  sendSetup(message: HostMessageOf<'setupModels' | 'setupTestResult' | 'showSetup'>): void {
    // A sidebar that is still loading gets "show the set-up view" once it is ready.
    if (message.type === 'showSetup' && ![...this.ports].some(([port, state]) => state.ready && port.kind === 'sidebar')) this.showSetupPending = true;
    this.broadcast(message, 'sidebar');
  }

  /** Answers the chat box's `@query` (every webview; only a composer waiting for `query` shows it). */
  sendMentionSuggestions(query: string, items: readonly MentionSuggestion[]): void {
    this.broadcast({ type: 'mentionSuggestions', query, items: items.slice(0, 50) });
  }

  /** Paths of files dropped on the chat box, for it to insert as `@mentions`. */
  sendMentionPaths(paths: readonly string[], refused: number): void {
    this.broadcast({ type: 'mentionPaths', paths: paths.slice(0, 50), refused }, 'sidebar');
  }

  /** Asks the sidebar to put the caret in its input (now, or as soon as it is ready). */
  focusInput(): void {
    const ready = Array.from(this.ports).some(([port, state]) => state.ready && port.kind === 'sidebar');
    if (ready) this.broadcast({ type: 'focusInput' }, 'sidebar');
    else this.focusPending = true;
  }

  /** Answers the history search box (only the sidebar has one). */
  sendHistorySearch(query: string, entries: readonly HistoryEntry[]): void {
    this.broadcast({ type: 'historySearch', query, entries: entries.slice(0, 200) }, 'sidebar');
  }

  /** Puts the panel into plan review for `plan` (the sidebar says it waits for it); `undefined` ends review. */
  showPlanForReview(plan: Plan | undefined, runId = this.shownRunId): void {
    this.review = plan ? { runId, plan } : undefined;
    this.broadcast({ type: 'planReview', runId: this.review?.runId, plan: plan ?? null });
  }

  /** Sends all pending envelopes now (normally done by the batch timer). */
  flush(): void {
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    for (const [port, state] of this.ports) if (state.ready) this.sendMissing(port, state);
  }

  /** Stops timers and forgets every webview. */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    this.ports.clear();
  }

  private ready(port: ViewPort, lastSeq: number, runId: string | undefined): void {
    const state = this.ports.get(port) ?? { ready: false, sentSeq: -1, generation: 0 };
    this.ports.set(port, state);
    state.ready = true;
    state.generation++;
    if (this.options.l10n) this.post(port, { type: 'l10n', ...this.options.l10n });
    if (this.status) this.post(port, this.statusMessage(port, this.status));
    if (this.mcpServers && port.kind === 'sidebar') this.post(port, { type: 'mcpServers', servers: this.mcpServers });
    if (this.setupState && port.kind === 'sidebar') this.post(port, { type: 'setup', state: this.setupState });
    if (this.showSetupPending && port.kind === 'sidebar') {
      this.showSetupPending = false;
      this.post(port, { type: 'showSetup' });
    }
    if (runId !== undefined && runId === this.shownRunId) {
      state.runId = runId;
      state.sentSeq = lastSeq;
    } else if (runId !== undefined || this.shownRunId !== undefined) {
      this.resetPort(port, state);
    } else {
      state.runId = undefined;
      state.sentSeq = -1;
    }
    if (this.review) this.post(port, { type: 'planReview', runId: this.review.runId, plan: this.review.plan });
    this.sendMissing(port, state);
    if (this.focusPending && port.kind === 'sidebar') {
      this.focusPending = false;
      this.post(port, { type: 'focusInput' });
    }
  }

  private resetPort(port: ViewPort, state: PortState): void {
    state.runId = this.shownRunId;
    state.sentSeq = -1;
    const task = this.shownRunId !== undefined ? this.tasks.get(this.shownRunId) : undefined;
    this.post(port, { type: 'reset', runId: this.shownRunId, task });
  }

  private sendMissing(port: ViewPort, state: PortState): void {
    if (state.runId === undefined || state.runId !== this.shownRunId) return;
    for (;;) {
      const envelopes = this.log.since(state.runId, state.sentSeq, this.maxBatch);
      if (envelopes.length === 0) return;
      state.sentSeq = envelopes[envelopes.length - 1]!.seq;
      this.post(port, { type: 'events', runId: state.runId, envelopes });
      if (!state.ready) return;
    }
  }

  private schedule(): void {
    if (this.timer !== undefined || this.disposed) return;
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.flush();
    }, this.batchMs);
  }

  private statusMessage(port: ViewPort, status: HostStatus): HostMessage {
    const workspaceUri = port.workspaceUri?.();
    const promptsIn = promptsView(this.visible);
    return { type: 'status', status: { ...status, promptsIn, ...(workspaceUri === undefined ? {} : { workspaceUri }) } };
  }

  private broadcast(message: HostMessage, only?: WebviewKind): void {
    for (const [port, state] of this.ports) if (state.ready && (only === undefined || port.kind === only)) this.post(port, message);
  }

  private post(port: ViewPort, message: HostMessage): void {
    const generation = this.ports.get(port)?.generation;
    const lost = () => {
      const state = this.ports.get(port);
      if (state && state.generation === generation) state.ready = false;
    };
    // Not delivered = the webview's content is gone (hidden, reloading): it asks for a replay when back.
    try {
      const result = port.post(message);
      if (typeof result === 'boolean') {
        if (!result) lost();
      } else {
        result.then((delivered) => delivered || lost(), (error: unknown) => {
          this.options.logger.warn(`Posting to the ${port.kind} webview failed`, error);
          lost();
        });
      }
    } catch (error) {
      this.options.logger.warn(`Posting to the ${port.kind} webview failed`, error);
      lost();
    }
  }

  private updateActive(): void {
    this.log.setActive([this.shownRunId, this.status?.running ? this.status.runId : undefined]);
  }
}
