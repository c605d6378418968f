import type { RunOutcome, Usage } from '../../shared/events';
import type { Plan } from '../../shared/plan';
import type { CheckpointSetup } from '../checkpoints/checkpointTypes';
import type { PlanMode, ReviewMode } from '../../shared/vocabulary';
import type { AgentLimits, AgentRunOptions } from '../loop/runTypes';
import type { ModelPrice } from '../model/modelCatalog';
import type { VerifySettings } from '../verify/verifier';
import type { ShellSyntax } from '../policy/shellSyntax';
import type { FlowState } from './flowState';
import type { ModelTiers } from './modelTiers';
import type { ReportSink } from './reportSink';
import type { CheckedImage } from './taskImages';
import type { CustomRole } from '../extensions/extensionTypes';

/** Limits of a whole task. */
export interface FlowLimits {
  /** Steps a plan may have; longer plans are cut (with a notice). */
  maxPlanSteps: number;
  /** Revisions the plan updater may make (update, retry of a failed step). */
  maxReplans: number;
  /** Turn limit of each step's agent (default: `agentLimits.maxTurns`, else 20). */
  maxTurnsPerStep: number;
  /**
   * Effective tokens of every model call of the task (uncached prompt + 0.1 x cached prompt +
   * completion: what users pay); `undefined` or 0: no limit.
   * Each run the user starts (the task, each follow-up or resume) gets this limit afresh, as a follow-up is a new go-ahead and a task stopped by its budget must stay resumable; the figures shown (`usage.task`) add up every run.
   */
  taskTokenBudget?: number;
  /** US dollars the task may cost (needs a price for the model; afresh per run, as `taskTokenBudget`); `undefined` or 0: no limit. */
  taskCostBudgetUsd?: number;
}

/** Default token budget of a task (documented in the README; `stepwise.taskTokenBudget`, `--token-budget`). */
export const DEFAULT_TASK_TOKEN_BUDGET = 2_000_000;

/** Defaults for an interactive task. */
export const DEFAULT_FLOW_LIMITS: FlowLimits = { maxPlanSteps: 8, maxReplans: 3, maxTurnsPerStep: 40, taskTokenBudget: DEFAULT_TASK_TOKEN_BUDGET };


/** Shows the plan to the user; resolves with the plan to run (maybe edited) or `undefined` when the user cancels. */
export type ReviewPlan = (plan: Plan, signal: AbortSignal) => Promise<Plan | undefined>;

/** The ports a task acts through: those of a single agent run, without its model, limits and prompts. */
export type TaskPorts = Omit<AgentRunOptions, 'model' | 'limits' | 'toolChoice' | 'systemPrompt' | 'history' | 'pinned' | 'beforeTool' | 'judgeFinish' | 'waits'>;

/** Everything `runTask` needs. */
export interface RunTaskOptions extends TaskPorts {
  models: ModelTiers;
  planMode: PlanMode;
  review: ReviewMode;
  reviewPlan?: ReviewPlan;
  limits?: Partial<FlowLimits>;
  /** Context limits of each inner agent run (`maxTurns` applies to a direct run; steps use `maxTurnsPerStep`). */
  agentLimits?: Partial<AgentLimits>;
  /** Workspace-relative folder of reports; default `.stepwise/reports`. */
  reportDir?: string;
  /** Saves the report outside the workspace instead (Restricted Mode); the `report` event then has no path. */
  reportSink?: ReportSink;
  /** Run a short read-only look at the workspace before planning. */
  lookFirst?: boolean;
  /** Turn limit of the look-first pass; default 6. */
  lookFirstTurns?: number;
  /** The stored run this task resumes (set by `resumeTask`; recorded in `run_started`). */
  resumedFrom?: string;
  /** Prices by model id over the built-in table (see model/modelCatalog.ts), for the task's cost. */
  prices?: Record<string, ModelPrice>;
  /** Called with a copy of the flow state whenever it changes (persist it to allow `retryStep`). */
  onState?: (state: FlowState) => void;
  /** The checkpoint store (or why there is none); without it checkpoints are off, and the task says so. */
  checkpoints?: CheckpointSetup;
  /** Verification settings; default `auto` with no configured checks. */
  verify?: VerifySettings;
  /** The shell parser (the shells' `nodeShellSyntax`): checks the agent runs inside a command line count as evidence. */
  shellSyntax?: () => Promise<ShellSyntax>;
  /** Custom roles (`.stepwise/agents/…`, see extensions/loadExtensions.ts): offered to the planner beside the built-in ones. */
  roles?: readonly CustomRole[];
  /** Images the user attached (checked by `checkTaskImages`); read once by the vision model at the start (see taskImages.ts). */
  taskImages?: readonly CheckedImage[];
}

/** How a task ended. */
export interface TaskResult {
  outcome: RunOutcome;
  /** Whether a plan ran, or a single agent. */
  route: 'direct' | 'plan';
  plan?: Plan;
  /** Workspace-relative path of the saved report. */
  reportPath?: string;
  summary: string;
  /** Why the task did not finish. */
  reason?: string;
  /** Tokens used by this call of `runTask` / `retryStep`. */
  usage: Usage;
  /** The flow's state at the end (plan route only), for `retryStep`. */
  state?: FlowState;
}
