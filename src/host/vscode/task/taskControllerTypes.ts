import type { HookSource } from '../../../agent/hooks/hookConfig';
import type { TaskImage } from '../../../shared/taskImages';
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import type { Clock, CommandRunner, Logger, Workspace } from '../../../agent/ports';
import type { ReportSink } from '../../../agent/flow';
import type { RunTaskOptions } from '../../../agent/flow/taskTypes';
import type { ToolRegistry } from '../../../agent/tools/toolRegistry';
import type { RunOutcome } from '../../../shared/events';
import type { PlanMode } from '../../../shared/vocabulary';
import type { StepwiseConfig } from '../../common/config/stepwiseConfig';
import type { DiffReview } from '../editor/diffReview';
import type { EditJournal } from '../../common/editor/editJournal';
import type { VscodeWorkspace } from '../editor/vscodeWorkspace';
import type { HistoryStore } from '../../../node/historyStore';
import type { ModelProvider } from '../model/modelProvider';
import type { RunStatusBar } from './runStatusBar';
import type { TaskWeb } from '../../../node/web/nodeWebTools';
import type { TaskPython } from '../../../node/python/taskPython';
import type { TaskViewsPort } from '../../common/task/viewsPort';

/** What the controller is built from; everything that touches VS Code or the world is passed in. */
export interface TaskControllerDeps {
  views: TaskViewsPort;
  logger: Logger;
  history: HistoryStore;
  models: ModelProvider;
  readConfig: () => StepwiseConfig;
  isTrusted: () => boolean;
  folder: () => vscode.WorkspaceFolder | undefined;
  /** Every tool (built-ins and MCP); the controller applies Restricted Mode. */
  tools: () => ToolRegistry;
  /** Called before each run (connects MCP servers when trusted). */
  prepareTools?: (trusted: boolean) => Promise<void>;
  /** Runs commands (execa, mirrored into the Stepwise terminal). */
  commands: CommandRunner;
  /** The Node workspace on a folder: path confinement, listing, search. */
  baseWorkspace: (root: string) => Workspace;
  diffReview: DiffReview;
  statusBar: RunStatusBar;
  clock: Clock;
  /** Removes secrets from text before it is shown or stored. */
  redact: (text: string) => string;
  /** Where reports go in Restricted Mode (the extension's storage: nothing is written into an untrusted folder). */
  restrictedReports?: ReportSink;
  /** Asks the user to confirm the workspace's `workspace-confirm` settings (endpoint, verify commands, …) before a run reads them. */
  confirmWorkspaceSettings?: () => Promise<void>;
  /** Builds one run's web tools (web_fetch, web_search, its own browser) and image store; closed when the run ends. */
  web?: (runId: string, root: string, config: StepwiseConfig) => Promise<TaskWeb>;
  /** Builds one run's `python_execute` over its own Python session; disposed (the interpreter ended) when the run ends. */
  python?: (runId: string, root: string, config: StepwiseConfig) => TaskPython;
  /** The hooks of a run in a trusted workspace: the user's, and the workspace's once the user trusted them (see hookSources). */
  hooks?: (config: StepwiseConfig, root: string) => Promise<HookSource[]>;
  /** Tells the UI what to do when no model is configured. */
  onNotConfigured: (error: unknown) => void;
  /** Folder of the checkpoint store (the extension's storage); checkpoints are off without it. */
  checkpointsHome?: string;
}

/** How a task is started. */
export interface StartOptions {
  planMode?: PlanMode;
  /** Started from the palette or the editor: show a progress notification and quick-input fallbacks. */
  fromPalette?: boolean;
  /** Images pasted or dropped into the chat box (unchecked: `start` checks their bytes). */
  images?: readonly TaskImage[];
}

/** A run's result as the controller keeps it. */
export interface RunRecord {
  runId: string;
  task: string;
  outcome?: RunOutcome;
  summary?: string;
  journal: EditJournal;
  workspace?: VscodeWorkspace;
}

/** A fresh, file-name-safe run id, sortable by time. */
export function newRunId(now: number): string {
  return `${now.toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** What the settings decide for every kind of run: turn and context limits, token budget, report folder. */
export function flowSettings(config: StepwiseConfig): Pick<RunTaskOptions, 'agentLimits' | 'limits' | 'reportDir'> {
  return {
    agentLimits: { maxTurns: config.maxTurns, maxInputTokens: config.maxInputTokens },
    limits: { taskTokenBudget: config.taskTokenBudget },
    reportDir: config.reportsFolder,
  };
}
