import * as vscode from 'vscode';
import { expandMentions } from '../../../agent/mentions';
import { vscodeMentionResolver } from '../mentions/vscodeMentionResolver';
import { FlowState } from '../../../agent/flow/flowState';
import type { ReportSink } from '../../../agent/flow/reportSink';
import { retryRefusal, retryStep, runTask } from '../../../agent/flow/runTask';
import { resumeTask } from '../../../agent/flow/resumeTask';
import { checkTaskImages } from '../../../agent/flow/taskImages';
import type { ContextRequest } from '../../../agent/context/contextControl';
import type { ApprovalDecision } from '../../../agent/ports';
import type { UndoGuard, UndoReport } from '../editor/undoTaskEdits';
import { launchRun, taskOptions, type ActiveRun, type LaunchHost, type RunBody, type ThreadContinuation } from './runLauncher';
import { taskWords } from '../../../shared/attachedContext';
import { EVENT_VERSION, type AgentEvent, type AgentEventOf, type EventEnvelope } from '../../../shared/events';
import { RunInteractions } from './runInteractions';
import { RunRecords } from './runRecords';
import type { RunRecord, StartOptions, TaskControllerDeps } from './taskControllerTypes';
import { expandPromptCommand } from '../../../agent/extensions/promptCommand';
import type { LoadedExtensions } from '../../../agent/extensions/extensionTypes';
import type { ToolRegistry } from '../../../agent/tools/toolRegistry';
import { readHostExtensions, toolsWithSkills } from '../../common/task/hostExtensions';

/** What a run takes from the extensions: the `skill` tool among its tools, the custom roles for its planner. */
function withExtensions(tools: ToolRegistry, extensions: LoadedExtensions): { tools: ToolRegistry; roles: LoadedExtensions['roles'] } {
  return { tools: toolsWithSkills(tools, extensions), roles: extensions.roles };
}

/**
 * Runs one task at a time: starts new tasks, resumes stored ones and retries plan steps
 * (`runLauncher.ts` builds each run), and stops the running one. Approvals, questions and plan
 * review live in `RunInteractions`; the window's runs, history replay and undo in `RunRecords`.
 */
export class TaskController implements vscode.Disposable {
  readonly interactions: RunInteractions;
  private readonly records: RunRecords;
  private active: ActiveRun | undefined;
  private launching = false;
  private readonly statusListeners = new Set<() => void>();

  constructor(private readonly deps: TaskControllerDeps) {
    this.interactions = new RunInteractions({
      readConfig: deps.readConfig,
      diffReview: deps.diffReview,
      logger: deps.logger,
      showPlanForReview: (plan) => deps.views.showPlanForReview(plan),
    });
    this.records = new RunRecords(deps.history, deps.views);
  }

  /** Approvals and questions a run waits for. */
  get pending(): RunInteractions['pending'] {
    return this.interactions.pending;
  }

  /** The approver every run asks (auto-approve settings, "always allow", the UI). */
  get approver(): RunInteractions['approver'] {
    return this.interactions.approver;
  }

  /** The plan waiting for review, if any. */
  get planReview(): RunInteractions['planReview'] {
    return this.interactions.planReview;
  }

  /** True while a task runs. */
  get isRunning(): boolean {
    return this.active !== undefined;
  }

  /** Where an MCP server's sampling request is approved: this run's policy and events; `undefined` when no task runs. */
  samplingApprovalPath(): { approver: RunInteractions['approver']; emit: (event: AgentEvent) => void; signal: AbortSignal } | undefined {
    const active = this.active;
    const events = active?.events;
    if (!active || !events) return undefined;
    return { approver: this.approver, emit: (event) => void events.emit(event), signal: active.abort.signal };
  }

  /** The running run's id, if any. */
  get runningRunId(): string | undefined {
    return this.active?.runId;
  }

  /** The run the views show now (running, or reopened from history). */
  get currentRunId(): string | undefined {
    return this.records.shown;
  }

  /** The views show no run now (the user started a new task). */
  clearShown(): void {
    this.records.clearShown();
  }

  /** A run of this window (with its edit journal), by id. */
  run(runId: string): RunRecord | undefined {
    return this.records.get(runId);
  }

  /** Resolves when the running task (if any) has ended. */
  async whenIdle(): Promise<void> {
    await this.active?.done;
  }

  /** Fires when running / idle changes (the host refreshes the webview status). */
  onDidChangeState(listener: () => void): vscode.Disposable {
    this.statusListeners.add(listener);
    return new vscode.Disposable(() => this.statusListeners.delete(listener));
  }

  /** Starts a new task; returns its run id, or `undefined` when it could not start (reason shown). */
  async start(task: string, options: StartOptions = {}): Promise<string | undefined> {
    const extensions = await this.readExtensions();
    // `/name args` runs a prompt file with its arguments; an unknown name starts nothing (as in the CLI).
    const command = expandPromptCommand(task, extensions.prompts);
    if (command.kind === 'unknown') return this.unknownPrompt(command.name);
    const text = command.kind === 'expanded' ? command.task : task;
    const planMode = options.planMode ?? this.deps.readConfig().planMode;
    const images = checkTaskImages(options.images ?? []);
    if (images.refused.length) void vscode.window.showWarningMessage(vscode.l10n.t('Stepwise did not attach: {0}', images.refused.join('; ')));
    return this.launch(task, options.fromPalette ?? false, async (ctx) =>
      runTask({
        ...taskOptions(ctx),
        ...withExtensions(ctx.tools, extensions),
        taskImages: images.accepted,
        task: await expandMentions(text, vscodeMentionResolver(ctx.workspace), ctx.signal),
        planMode,
        review: ctx.config.planReview,
        reviewPlan: (plan, reviewSignal) => this.planReview.review(plan, reviewSignal),
        lookFirst: ctx.config.lookFirst,
        ...this.reportSink(),
      }),
    );
  }

  /**
   * Follows up on a stored task with a new instruction (the core's `resumeTask`: an unfinished plan
   * goes on from its plan, a finished plan or a direct task answers in the same conversation). The
   * follow-up is the same task: its events continue the task's run (same id, later `seq`), so the
   * history keeps one entry and the views keep the plan and report, the follow-up below them.
   * Refused (nothing starts) for an unknown run.
   */
  async resume(fromRunId: string, text: string): Promise<string | undefined> {
    if (this.refuseWhileRunning()) return undefined;
    const history = await this.records.taskHistory(fromRunId);
    const started = history.find((e) => e.type === 'run_started');
    if (started?.type !== 'run_started') {
      void vscode.window.showWarningMessage(vscode.l10n.t('This run has no stored events to resume from.'));
      return undefined;
    }
    // A follow-up may be `/name args` too; an unknown name changes nothing on screen.
    const extensions = await this.readExtensions();
    const command = expandPromptCommand(text, extensions.prompts);
    if (command.kind === 'unknown') return this.unknownPrompt(command.name);
    const instruction = command.kind === 'expanded' ? command.task : text;
    if (this.records.shown !== fromRunId) await this.records.reopen(fromRunId);
    const thread = { runId: fromRunId, firstSeq: await this.deps.history.nextSeq(fromRunId), title: taskWords(started.task) };
    await this.records.continueAfterCut(fromRunId, thread.firstSeq);
    return this.launch(text, false, async (ctx) =>
      resumeTask({
        ...taskOptions(ctx),
        ...withExtensions(ctx.tools, extensions),
        history,
        resumedFrom: fromRunId,
        instruction: await expandMentions(instruction, vscodeMentionResolver(ctx.workspace), ctx.signal),
        ...this.reportSink(),
      }),
    thread);
  }

  /**
   * Re-runs a failed, blocked or skipped plan step of a stored run, from the flow state saved beside
   * its history (so it works after a restart). Refused with a warning, starting nothing, while a task
   * runs, without a saved state, or for a step that is unknown or cannot be retried.
   */
  async retryStep(fromRunId: string, stepId: string): Promise<string | undefined> {
    if (this.refuseWhileRunning()) return undefined;
    const saved = FlowState.safeParse(await this.deps.history.readSidecar(fromRunId, 'state'));
    if (!saved.success) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This run has no saved plan to retry a step from.'));
      return undefined;
    }
    const refusal = retryRefusal(saved.data, stepId);
    if (refusal) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Stepwise: {0}', refusal));
      return undefined;
    }
    return this.launch(saved.data.task, false, async (ctx) => retryStep({ ...taskOptions(ctx), ...withExtensions(ctx.tools, await this.readExtensions()), ...this.reportSink() }, saved.data, stepId));
  }

  /** Says that `/name` names no prompt file; nothing starts. */
  private unknownPrompt(name: string): undefined {
    void vscode.window.showWarningMessage(vscode.l10n.t('Stepwise has no prompt file named /{0} (prompt files: .stepwise/prompts/*.md and .github/prompts/*.prompt.md in a trusted workspace, ~/.stepwise/prompts/*.md).', name));
    return undefined;
  }

  /** The skills, custom roles and prompt files of a new run: the user's always, the workspace's only when it is trusted. */
  async readExtensions(): Promise<LoadedExtensions> {
    const folder = this.deps.folder();
    const loaded = await readHostExtensions(folder ? this.deps.baseWorkspace(folder.uri.fsPath) : undefined, this.deps.isTrusted(), process.env);
    for (const problem of loaded.problems) this.deps.logger.warn(`skipped ${problem}`);
    return loaded;
  }

  /** Passes the user's context request (compact now, undo, pin) to the running task; false when none runs. */
  requestContext(request: ContextRequest): boolean {
    if (!this.active?.context) return false;
    this.active.context.request(request);
    return true;
  }

  /** Queues the user's message for the running task (delivered at its next turn); false when none runs. */
  sendMessage(text: string): boolean {
    if (!this.active?.inbox) return false;
    this.active.inbox.push(text);
    return true;
  }

  /** Stops the running task: aborts the model call, kills the command's process tree, ends waits. */
  stop(): boolean {
    if (!this.active) return false;
    this.deps.logger.info(`stop requested for run ${this.active.runId}`);
    this.active.abort.abort();
    return true;
  }

  /** Resolves a pending approval from any UI; `always` also allows its category for this session. */
  decideApproval(callId: string, decision: ApprovalDecision, always = false): boolean {
    return this.interactions.decideApproval(callId, decision, always);
  }

  /**
   * Restores the files a run changed (default: the run shown now, else the last run with edits),
   * from its journal, leaving `keep` (the task's report) alone, once `ask` answered with the files
   * it would change and, apart, those the user changed since: `keep-mine` leaves the user's, and
   * `take-all` undoes them too. `'declined'` when the user closed the question.
   */
  async undo(runId: string | undefined, guard: UndoGuard): Promise<UndoReport | 'declined' | undefined> {
    const record = this.records.undoTarget(runId);
    if (!record) return undefined;
    const paths = record.journal.list().map((e) => e.path).filter((p) => !guard.keep.includes(p));
    if (paths.length === 0) return undefined;
    const changed = await this.records.changedByUser(record, guard.keep);
    const answer = await guard.ask(paths, changed);
    if (!answer) return 'declined';
    if (this.active?.runId === record.runId) {
      this.stop();
      await this.whenIdle();
    }
    return this.records.undo(record, guard.keep, answer === 'take-all' ? changed : []);
  }

  /**
   * Adds a note to a stored task's timeline (its history and the views), after its last event:
   * e.g. which files an undo put back (`code` says what the note means to the views). Not while the
   * task runs (its own events own the sequence).
   */
  async noteOnTask(runId: string, message: string, code: AgentEventOf<'notice'>['code'] = 'other'): Promise<boolean> {
    if (this.active?.runId === runId) return false;
    return this.appendToStored(runId, { type: 'notice', level: 'info', code, message });
  }

  /**
   * Tells a task's timeline something that happened outside its turns (a background command of it
   * ended): into its stream while it (or a follow-up of it) runs, else after its stored events.
   */
  async noteEvent(runId: string, event: AgentEvent): Promise<boolean> {
    const active = this.active;
    if (active?.runId === runId && active.events) {
      active.events.emit(event);
      return true;
    }
    return this.appendToStored(runId, event);
  }

  private async appendToStored(runId: string, event: AgentEvent): Promise<boolean> {
    const seq = await this.deps.history.nextSeq(runId);
    if (seq === 0) return false;
    const envelope: EventEnvelope = { v: EVENT_VERSION, seq, runId, ts: this.deps.clock.now(), event };
    this.deps.history.append(envelope);
    this.deps.views.publish(envelope);
    await this.deps.history.flush();
    return true;
  }

  /** Shows a stored run in the views (read-only replay of its events). */
  reopen(runId: string): Promise<boolean> {
    return this.records.reopen(runId);
  }

  /** True (after telling the user) when a task runs or is starting. */
  private refuseWhileRunning(): boolean {
    if (!this.active && !this.launching) return false;
    void vscode.window.showWarningMessage(vscode.l10n.t('A Stepwise task is already running. Stop it first.'));
    return true;
  }

  private async launch(task: string, fromPalette: boolean, body: RunBody, thread?: ThreadContinuation): Promise<string | undefined> {
    if (this.refuseWhileRunning()) return undefined;
    this.launching = true;
    try {
      return await launchRun(this.launchHost(), task, fromPalette, body, thread);
    } finally {
      this.launching = false;
    }
  }

  private launchHost(): LaunchHost {
    return {
      deps: this.deps,
      interactions: this.interactions,
      records: this.records,
      setActive: (active) => (this.active = active),
      stopIf: (active) => {
        if (this.active === active) this.stop();
      },
      changed: () => this.changed(),
      noteEvent: (runId, event) => this.noteEvent(runId, event),
    };
  }

  /** In Restricted Mode the report goes to the extension's storage, never into the untrusted folder. */
  private reportSink(): { reportSink?: ReportSink } {
    return !this.deps.isTrusted() && this.deps.restrictedReports ? { reportSink: this.deps.restrictedReports } : {};
  }

  private changed(): void {
    for (const listener of this.statusListeners) listener();
  }

  dispose(): void {
    this.active?.abort.abort();
    this.statusListeners.clear();
  }
}
