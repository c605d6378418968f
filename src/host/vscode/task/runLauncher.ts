import * as vscode from 'vscode';
import { EventStream } from '../../../agent/events/eventStream';
import { endRunWithInternalError } from '../../../agent/events/runEnding';
import type { FlowState } from '../../../agent/flow/flowState';
import type { RetryStepOptions } from '../../../agent/flow/runTask';
import type { TaskResult } from '../../../agent/flow/taskTypes';
import type { BackgroundEnding, Clock, CommandRunner, ImageStore, Logger } from '../../../agent/ports';
import type { ToolRegistry } from '../../../agent/tools/toolRegistry';
import type { AgentEvent, EventEnvelope, RunOutcome } from '../../../shared/events';
import type { PolicyApprover } from '../../../agent/policy/policyApprover';
import type { StepwiseConfig } from '../../common/config/stepwiseConfig';
import { EditJournal } from '../../common/editor/editJournal';
import type { ResolvedModels } from '../model/modelProvider';
import { FlowStateSaver } from '../../common/task/flowStateSaver';
import { toolsForTrust } from '../../common/task/restrictedTools';
import { withRunTools } from '../../common/task/taskWebTools';
import { taskContextOptions, type TaskContextOptions } from '../../common/task/taskContextOptions';
import type { ContextControl } from '../../../agent/context/contextControl';
import { hostCheckpoints } from '../../common/task/hostCheckpoints';
import type { CheckpointSetup } from '../../../agent/checkpoints/checkpointTypes';
import { VscodeDiagnostics } from '../editor/vscodeDiagnostics';
import { VscodeWorkspace } from '../editor/vscodeWorkspace';
import type { HostAsker } from './hostAsker';
import type { RunInteractions } from './runInteractions';
import type { RunRecords } from './runRecords';
import { showRunProgress } from './runProgress';
import { flowSettings, newRunId, type RunRecord, type TaskControllerDeps } from './taskControllerTypes';
import { nodeShellSyntax } from '../../../node/shellWasm';
import { MessageInbox } from '../../../agent/loop/messageInbox';
import type { HookSource } from '../../../agent/hooks/hookConfig';

/** A run in progress. */
export interface ActiveRun extends RunRecord {
  abort: AbortController;
  fromPalette: boolean;
  onProgress?: (message: string) => void;
  done: Promise<void>;
  /** Compact now, undo, pin: applied by the core before its next model call. */
  context?: ContextControl;
  /** The run's event stream (what happens outside its turns, e.g. a background command ending, joins it). */
  events?: EventStream;
  /** Messages the user sends while it runs (the chat box stays open), delivered by the core at its next turn. */
  inbox?: MessageInbox;
}

/** The ports shared by every kind of run. */
export interface RunPorts {
  commands: CommandRunner;
  approver: PolicyApprover;
  asker: HostAsker;
  logger: Logger;
  clock: Clock;
  /** Where the run's tool images are saved (present when the run has web tools). */
  images?: ImageStore;
}

/** What a kind of run (new task, resume, retry) gets to start the core with. */
export interface RunContext {
  events: EventStream;
  models: ResolvedModels;
  workspace: VscodeWorkspace;
  tools: ToolRegistry;
  signal: AbortSignal;
  config: StepwiseConfig;
  ports: RunPorts;
  /** Saves the run's flow state beside its history (writes serialised, redacted, awaited before the run ends). */
  saveState: (state: FlowState) => void;
  /** The user's handle on the run's context, its rules files, prices, window and budgets (from the settings). */
  contextOptions: TaskContextOptions;
  /** The run's checkpoint store, or why checkpoints are off. */
  checkpoints: CheckpointSetup;
  /** The user's messages while it runs. */
  inbox: MessageInbox;
  /** The user's hooks and the workspace's trusted ones (none in Restricted Mode). */
  hooks: readonly HookSource[];
}

/** What every kind of run passes the core: the run's ports and stream, and what the settings decide. */
export function taskOptions(ctx: RunContext): RetryStepOptions {
  const { events, models, workspace, tools, signal, config, ports, saveState, contextOptions: c, checkpoints, inbox, hooks } = ctx;
  const settings = flowSettings(config);
  return {
    ...ports, events, models: models.tiers, tools, workspace, signal, ...settings, onState: saveState,
    // The context the user steers (compact, undo, pin), rules files, prices and the window (issue 14).
    context: c.context, ...(c.rules ? { rules: c.rules } : {}), prices: c.prices,
    limits: { ...settings.limits, ...c.flowLimits },
    agentLimits: { ...settings.agentLimits, ...c.agentLimits },
    // Checkpoints before changes and steps, checks at finish, new errors after edits (issue 12).
    checkpoints,
    verify: { mode: config.verifyMode, commands: config.verifyCommands },
    shellSyntax: nodeShellSyntax,
    diagnostics: new VscodeDiagnostics((rel) => workspace.uriOf(rel)),
    inbox,
    ...(hooks.length ? { hooks } : {}),
  };
}

/** Starts the core for one kind of run and resolves with its result. */
export type RunBody = (ctx: RunContext) => Promise<TaskResult | { outcome: RunOutcome; summary?: string }>;

/** The launcher's view of the controller it serves. */
export interface LaunchHost {
  deps: TaskControllerDeps;
  interactions: RunInteractions;
  records: RunRecords;
  setActive(active: ActiveRun | undefined): void;
  stopIf(active: ActiveRun): void;
  changed(): void;
  /** Adds an event to a task's timeline from outside its turns (see `TaskController.noteEvent`). */
  noteEvent(runId: string, event: AgentEvent): Promise<boolean>;
}

/**
 * Launches one run: resolves the model, builds the workspace, tools and event stream, forwards
 * envelopes (redacted) to history, views and status bar, and settles the run's lifecycle. The
 * host renders and logs only: the core ends the run and emits `run_finished`.
 * Returns the run id, or `undefined` when it could not start (reason shown).
 */
/** A follow-up continues its task: same run id, events after the stored ones, the task's first words as its title. */
export interface ThreadContinuation {
  runId: string;
  firstSeq: number;
  title: string;
}

export async function launchRun(host: LaunchHost, task: string, fromPalette: boolean, body: RunBody, thread?: ThreadContinuation): Promise<string | undefined> {
  const { deps } = host;
  const folder = deps.folder();
  if (!folder) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Open a folder first: Stepwise works inside a workspace folder.'));
    return undefined;
  }
  // The workspace's `workspace-confirm` settings are used only once the user confirmed them (asked here, before the run reads the settings).
  await deps.confirmWorkspaceSettings?.();
  const config = deps.readConfig();
  let models: ResolvedModels;
  try {
    models = await deps.models.resolve(config);
  } catch (error) {
    deps.onNotConfigured(error);
    return undefined;
  }
  const trusted = deps.isTrusted();
  await deps.prepareTools?.(trusted);
  const runId = thread?.runId ?? newRunId(deps.clock.now());
  // A follow-up adds to its task's journal: "Undo this task's edits" covers the whole conversation.
  const journal = (thread && host.records.get(runId)?.journal) || new EditJournal();
  const workspace = new VscodeWorkspace(deps.baseWorkspace(folder.uri.fsPath), folder.uri, journal);
  // One browser per task: the web tools are built for this run and closed when it ends (Restricted Mode gets none).
  const web = trusted ? await deps.web?.(runId, folder.uri.fsPath, config).catch((error: unknown) => void deps.logger.warn('web tools unavailable', error)) : undefined;
  // One Python session per task (python_execute), ended with it; Restricted Mode gets none.
  const python = trusted ? deps.python?.(runId, folder.uri.fsPath, config) : undefined;
  const tools = toolsForTrust(withRunTools(deps.tools(), [...(web?.tools ?? []), ...(python?.tools ?? [])]), trusted);
  // The core redacts every event before any listener (history, views) sees it.
  const events = new EventStream(runId, () => deps.clock.now(), (error) => deps.logger.error('event listener failed', error), deps.redact, thread?.firstSeq ?? 0);
  let finish!: () => void;
  const inbox = new MessageInbox();
  const active: ActiveRun = { runId, task, journal, workspace, abort: new AbortController(), fromPalette, done: new Promise<void>((resolve) => (finish = resolve)), events, inbox };
  const contextOptions = taskContextOptions(config, activeFileInPlay(folder), models.contextWindow);
  active.context = contextOptions.context;
  host.setActive(active);
  host.records.add(active);
  events.subscribe((envelope) => onEnvelope(host, active, envelope));
  const states = new FlowStateSaver(
    (state) => deps.history.writeSidecar(runId, 'state', state),
    deps.redact,
    (error) => deps.logger.warn('saving flow state failed', error),
  );
  deps.logger.info(`run ${runId} started (model ${models.displayName}, ${trusted ? 'trusted' : 'Restricted Mode'}, ${tools.names().length} tools)`);
  // The panel opens when the task makes a plan (or one is up for review), not for a direct answer.
  deps.views.startRun(runId, thread?.title ?? task);
  deps.statusBar.start(task);
  host.changed();
  if (fromPalette) showRunProgress(active.task, active.done, () => host.stopIf(active), (report) => (active.onProgress = report));
  const ports: RunPorts = {
    commands: withBackgroundEndings(deps.commands, (callId, ending) => void host.noteEvent(runId, { type: 'command_ended', callId, ...ending })),
    approver: host.interactions.approver,
    asker: host.interactions.asker(() => active.fromPalette),
    logger: deps.logger,
    clock: deps.clock,
    ...(web ? { images: web.images } : {}),
  };
  void (async () => {
    try {
      const checkpoints = await hostCheckpoints(deps.checkpointsHome, config, folder.uri.fsPath, runId);
      // Hooks run commands: none in Restricted Mode; a workspace's own only once the user trusted them (hookSources).
      const hooks = trusted ? ((await deps.hooks?.(config, folder.uri.fsPath)) ?? []) : [];
      const result = await body({ events, models, workspace, tools, signal: active.abort.signal, config, ports, saveState: states.save, contextOptions, checkpoints, inbox, hooks });
      active.outcome = result.outcome;
      active.summary = result.summary;
      deps.logger.info(`run ${runId} ended: ${result.outcome}`);
    } catch (error) {
      // Only an error thrown before the core took over the run lands here (the core ends every run
      // it started, with outcome `internal` for bugs); endRunWithInternalError never ends a run twice.
      deps.logger.error(`run ${runId} failed`, error);
      active.outcome = endRunWithInternalError(events, error).outcome;
    } finally {
      host.interactions.endReview();
      await web?.dispose().catch((error: unknown) => deps.logger.warn('closing the browser failed', error));
      await python?.dispose().catch((error: unknown) => deps.logger.warn('ending the Python session failed', error));
      // The run ends only once its last state is on disk (a retry right after must find it).
      await states.settled();
      await deps.history.flush();
      host.setActive(undefined);
      deps.statusBar.stop();
      finish();
      host.changed();
    }
  })();
  return runId;
}

/** The active editor's file, workspace-relative, when it is inside `folder`: its folders' AGENTS.md apply. */
function activeFileInPlay(folder: vscode.WorkspaceFolder): string[] {
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== folder.uri.scheme || !uri.path.startsWith(`${folder.uri.path}/`)) return [];
  return [uri.path.slice(folder.uri.path.length + 1)];
}

function onEnvelope(host: LaunchHost, active: ActiveRun, envelope: EventEnvelope): void {
  host.deps.history.append(envelope);
  host.deps.views.publish(envelope);
  if (envelope.event.type === 'plan_created') host.deps.views.showPanel();
  const progress = host.deps.statusBar.onEvent(envelope.event);
  if (progress) active.onProgress?.(progress);
  host.interactions.observe(envelope.event);
}

/** The runner as this run sees it: a command of it that ends in the background says so on its timeline. */
function withBackgroundEndings(commands: CommandRunner, ended: (callId: string, ending: BackgroundEnding) => void): CommandRunner {
  return {
    sandboxMode: () => commands.sandboxMode(),
    run: (request) => {
      const callId = request.id;
      if (callId === undefined) return commands.run(request);
      return commands.run({ ...request, onBackgroundEnd: (ending) => { request.onBackgroundEnd?.(ending); ended(callId, ending); } });
    },
  };
}
