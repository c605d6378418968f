import type { AgentState, ApprovalCategory, ContextParts, CostFigures, PlanChange, RunOutcome, StepBudgetLevel, StepStatus, Usage } from '../../src/shared/events';

/** Lifecycle of a tool card as the user sees it. */
export type ToolStatus = 'running' | 'awaiting_approval' | 'done' | 'error' | 'failed' | 'stopped' | 'rejected' | 'interrupted' | 'background' | 'ended';

interface ItemBase {
  /** Stable within a run; the views key DOM nodes by it. */
  id: string;
  /** The plan step that was running when the item arrived. */
  stepId?: string;
  /** The `delegate` call whose sub-run produced the item (shown nested under that call). */
  nestedIn?: string;
}

/** The user's task (or a follow-up) that started a run. */
export interface TaskItem extends ItemBase {
  kind: 'task';
  text: string;
  /** Images the user attached: where each was saved (workspace-relative, when it was). */
  images?: readonly { name: string; path?: string }[];
  /** What the task carries about them: the vision model's description, or why none read them. */
  imagesSection?: string;
  /** The model that read them. */
  imagesReader?: string;
}

/** A message the user sent while the task ran, where the core delivered it (a turn boundary, or the plan updater). */
export interface MessageItem extends ItemBase {
  kind: 'message';
  text: string;
  delivered: 'turn' | 'plan';
}

/** A loop iteration divider ("turn 3 of 30"). */
export interface TurnItem extends ItemBase {
  kind: 'turn';
  turn: number;
  maxTurns: number;
}

/** Assistant text; `streaming` while deltas may still arrive. */
export interface TextItem extends ItemBase {
  kind: 'text';
  text: string;
  streaming: boolean;
  /** The model's reasoning for this answer, shown collapsed above it. */
  thinking?: string;
}

/** One tool call with its arguments, streamed output (tail kept), result and duration. */
export interface ToolCard extends ItemBase {
  kind: 'tool';
  callId: string;
  name: string;
  args: unknown;
  category?: ApprovalCategory;
  /** The last `OUTPUT_KEEP_CHARS` of the streamed output. */
  output: string;
  /** Characters of streamed output dropped from the front. */
  outputOmitted: number;
  result?: string;
  /** Characters of the result dropped from the middle. */
  resultOmitted: number;
  isError: boolean;
  /** The checkpoint taken before the call ran (calls that may change files). */
  checkpointId?: string;
  /** A command's exit code once it ended (null: killed by a signal). */
  exitCode?: number | null;
  /** How a command the user sent to the background ended later (its result still tells of the moment it went there). */
  laterEnding?: 'exited' | 'stopped';
  /** Time the call ran, without the time it waited for the user (`waitedMs`). */
  durationMs?: number;
  waitedMs?: number;
  /** Images the tool produced (screenshots, MCP images), saved in the task's storage: workspace-relative paths. */
  images?: string[];
  status: ToolStatus;
  /** The user pinned this result: it survives eliding and compaction. */
  pinned?: boolean;
  /** For `read_output`: the earlier call whose cut output it reads (shown instead of a call id). */
  readsFrom?: { name: string; args: unknown };
}

/** An approval the agent asked for; answerable while `pending`. */
export interface ApprovalItem extends ItemBase {
  kind: 'approval';
  callId: string;
  category: ApprovalCategory;
  title: string;
  detail: string;
  diffPath?: string;
  state: 'pending' | 'approved' | 'rejected' | 'expired';
  reason?: string;
}

/** A question from the agent; answerable while `pending`. */
export interface QuestionItem extends ItemBase {
  kind: 'question';
  callId: string;
  question: string;
  options: string[];
  state: 'pending' | 'answered' | 'expired';
  answer?: string;
}

/** An informational or warning notice (retry, context elided, stuck...). */
export interface NoticeItem extends ItemBase {
  kind: 'notice';
  level: 'info' | 'warning';
  code: string;
  message: string;
}

/** An error event. */
export interface ErrorItem extends ItemBase {
  kind: 'error';
  code: string;
  message: string;
}

/** A plan was made or revised. */
export interface PlanNoteItem extends ItemBase {
  kind: 'planNote';
  created: boolean;
  text: string;
  stepCount: number;
  /** What changed (an update from a current history; older ones have only `text`). */
  change?: PlanChange;
}

/** The header of a plan step's section in the timeline. */
export interface StepItem extends ItemBase {
  kind: 'step';
  stepId: string;
  index: number;
  title: string;
  status: StepStatus;
  summary?: string;
  /** The checkpoint taken when the step started ("Show changes", "Restore to before this step"). */
  checkpointId?: string;
  /** The step's token spending against its budget (budgeted steps only). */
  spend?: StepSpendView;
}

/** A budgeted step's effective tokens against its budget, as the core last reported them. */
export interface StepSpendView {
  spent: number;
  budget: number;
  level: StepBudgetLevel;
  /** The core ended the step because it used up its budget. */
  reached?: boolean;
}

/** How the run ended. */
export interface OutcomeItem extends ItemBase {
  kind: 'outcome';
  outcome: RunOutcome;
  /** Absent when it would repeat the answer just shown above it. */
  summary?: string;
  reason?: string;
  /** The code of the error that ended the run (folded into this card, not shown twice). */
  code?: string;
  /** The task, for "Retry this task". */
  task?: string;
  /** Whether a tool of this run wrote files or ran commands (so there is something to undo). */
  changed: boolean;
  /** Checks that failed after the last change (command and exit code), as the core recorded them. */
  failedChecks?: { command: string; exitCode: number | null }[];
  /** Time the run ran, and time it waited for the user, apart. */
  runningMs?: number;
  waitingMs?: number;
}

/** The reporter's final report. */
export interface ReportItem extends ItemBase {
  kind: 'report';
  markdown: string;
  path?: string;
}

/** Everything a timeline shows, one entry per card. */
export type Item =
  | TaskItem
  | MessageItem
  | TurnItem
  | TextItem
  | ToolCard
  | ApprovalItem
  | QuestionItem
  | NoticeItem
  | ErrorItem
  | PlanNoteItem
  | StepItem
  | OutcomeItem
  | ReportItem
  | CompactionItem;

/** Older turns summarized into a structured state (or being summarized); undoable while the run lasts. */
export interface CompactionItem extends ItemBase {
  kind: 'compaction';
  compactionId: string;
  reason: 'window' | 'user';
  messages: number;
  state: 'running' | 'done' | 'undone';
  summary?: string;
  tokensBefore?: number;
  tokensAfter?: number;
}

/** The context gauge: the last prompt by part, against the budget and the window. */
export interface ContextView {
  used: number;
  budget: number;
  window?: number;
  parts: ContextParts;
  pinned: readonly string[];
}

/** A rules file as the task loaded it. */
export interface RulesFileView {
  path: string;
  kind: string;
  chars: number;
  truncated: boolean;
}

/** A plan step with its live status. */
export interface PlanStepView {
  id: string;
  title: string;
  description: string;
  role: string;
  /** A custom role's name, shown instead of `role`. */
  agent?: string;
  status: StepStatus;
  summary?: string;
  /** The planner's estimate in effective tokens: the step's budget before it runs. */
  estimate?: number;
  /** Its spending once it ran (budgeted steps only); cleared when the step goes back to pending. */
  spend?: StepSpendView;
}

/** The plan of the run, as last created or updated. */
export interface PlanView {
  goal: string;
  thought: string;
  steps: readonly PlanStepView[];
}

/**
 * The whole state of the shown run, rebuilt from envelopes only. Immutable: the reducer returns a
 * new object and replaces exactly the items that changed, so views can diff by reference.
 */
export interface RunView {
  runId?: string;
  task?: string;
  /** Highest `seq` applied; envelopes at or below it are ignored (replay is idempotent). */
  lastSeq: number;
  state: AgentState;
  model?: string;
  items: readonly Item[];
  plan?: PlanView;
  currentStepId?: string;
  turn?: { turn: number; maxTurns: number };
  /** Running total of the run's token usage (a follow-up's added to the task's). */
  usage?: Usage;
  /** The task's usage before the current follow-up started (its totals count from zero). */
  usageBase?: Usage;
  outcome?: { outcome: RunOutcome; summary?: string; reason?: string };
  report?: { markdown: string; path?: string };
  /** Item ids of approvals and questions still waiting for the user, oldest first. */
  pending: readonly string[];
  /** What fills the context, from the last `context` event. */
  context?: ContextView;
  /** Effective tokens and money of the task so far, follow-ups included. */
  cost?: CostFigures;
  /** The task's figures before the current follow-up, for histories whose events lack the task's figures. */
  costBase?: CostFigures;
  /** Rules files the task read into its system prompt (AGENTS.md, CLAUDE.md, ...). */
  rules?: readonly RulesFileView[];
  /** A model call waiting to be retried: which attempt, of how many, until when (ms, the host's clock). */
  retrying?: { attempt: number; of?: number; until: number; reason: string };
  /** The text item that deltas currently extend. */
  openTextId?: string;
  /** Call ids of the `delegate` sub-runs open now, innermost last. */
  delegating?: readonly string[];
  /** The text item of the current assistant message (deltas since the last turn or message). */
  turnTextId?: string;
}
