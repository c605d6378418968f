import { z } from 'zod';
import { RUN_OUTCOMES } from './runOutcomes';

/** Version of the event envelope; bump when an event changes incompatibly. */
export const EVENT_VERSION = 1;

/** Lifecycle state of one agent run (OpenManus's IDLE / RUNNING / FINISHED / ERROR, plus CANCELLED). */
export const AgentState = z.enum(['IDLE', 'RUNNING', 'FINISHED', 'FAILED', 'CANCELLED']);
export type AgentState = z.infer<typeof AgentState>;

/** Why a run ended (the words: src/shared/runOutcomes.ts). */
export const RunOutcome = z.enum(RUN_OUTCOMES);
export type RunOutcome = z.infer<typeof RunOutcome>;

/** What a tool may do to the world; approvals are asked per category. */
export const ApprovalCategory = z.enum(['read', 'edit', 'command', 'mcp', 'web']);
export type ApprovalCategory = z.infer<typeof ApprovalCategory>;

/** Status of a plan step. */
/** `stopped`: the user stopped the step while it ran (not a failure; a resume runs it again). */
export const StepStatus = z.enum(['pending', 'in_progress', 'completed', 'failed', 'blocked', 'skipped', 'stopped']);
export type StepStatus = z.infer<typeof StepStatus>;

/** Token usage of one model call. */
export const Usage = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  /** Prompt tokens the provider served from its prompt cache (billed at a discount); part of `promptTokens`. */
  cachedTokens: z.number().int().nonnegative().optional(),
  /** Prompt tokens written to the provider's prompt cache (Anthropic bills them above the input price); part of `promptTokens`. */
  cacheWriteTokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof Usage>;

const RunStarted = z.object({
  type: z.literal('run_started'),
  task: z.string(),
  workspace: z.string(),
  model: z.string(),
  /** The run this one resumes (its events come first in the task's history). */
  resumedFrom: z.string().optional(),
});
const RunFinished = z.object({
  type: z.literal('run_finished'),
  outcome: RunOutcome,
  summary: z.string().optional(),
  reason: z.string().optional(),
  /** Think -> act -> observe turns of every agent run of the task (0 in history written before this field). */
  turns: z.number().int().nonnegative().default(0),
  /** Plan steps completed; present only when a plan ran. */
  stepsCompleted: z.number().int().nonnegative().optional(),
  /** Checks that ran after the last change and failed (the facts behind `unverified`), as recorded. */
  failedChecks: z.array(z.object({ command: z.string(), exitCode: z.number().int().nullable() })).optional(),
  /** Time the task ran, and time it waited for the user (approvals, questions, plan review), apart. */
  runningMs: z.number().nonnegative().optional(),
  waitingMs: z.number().nonnegative().optional(),
});
const StateChanged = z.object({ type: z.literal('state'), state: AgentState });
/** One think -> act -> observe iteration of the loop (called a "turn" to keep "step" for plan steps). */
const TurnStarted = z.object({ type: z.literal('turn_started'), turn: z.number().int().positive(), maxTurns: z.number().int().positive() });
const TextDelta = z.object({ type: z.literal('text_delta'), text: z.string() });
const AssistantMessage = z.object({
  type: z.literal('assistant_message'),
  text: z.string(),
  toolCalls: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      arguments: z.string(),
      /** Provider fields echoed back with the call (Gemini's thought signature). */
      extra: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  /** The model's reasoning for this answer (shown collapsed; sent back where the provider needs it). */
  thinking: z.string().optional(),
});
const ToolCallEvent = z.object({
  type: z.literal('tool_call'),
  callId: z.string(),
  name: z.string(),
  args: z.unknown(),
  category: ApprovalCategory.optional(),
});
const ToolOutputDelta = z.object({
  type: z.literal('tool_output'),
  callId: z.string(),
  stream: z.enum(['stdout', 'stderr']),
  chunk: z.string(),
});
const ToolResultEvent = z.object({
  type: z.literal('tool_result'),
  callId: z.string(),
  name: z.string(),
  isError: z.boolean(),
  content: z.string(),
  /** Time the call ran, without the time it waited for the user's approval (`waitedMs`). */
  durationMs: z.number().nonnegative(),
  /** Time the call waited for the user (approval or answer); absent when it did not wait. */
  waitedMs: z.number().nonnegative().optional(),
  /** Images the tool produced, saved under the task's storage (workspace-relative when inside it). */
  images: z.array(z.string()).optional(),
  /** A command's exit code (null: killed by a signal); absent for tools that are not commands. */
  exitCode: z.number().int().nullable().optional(),
  /** The user stopped the call (Stop, cancel): neither a success nor a failure of the tool. */
  stopped: z.boolean().optional(),
  /** The user let the command run in the background: the call returned, the command still runs. */
  background: z.boolean().optional(),
});
/**
 * A command the user sent to the background ended after its call had returned (`tool_result` with
 * `background`): it exited by itself (`exitCode`; null for a signal) or was stopped (`stopped`).
 */
const CommandEnded = z.object({
  type: z.literal('command_ended'),
  callId: z.string(),
  exitCode: z.number().int().nullable(),
  stopped: z.boolean(),
});
const ApprovalRequested = z.object({
  type: z.literal('approval_requested'),
  callId: z.string(),
  category: ApprovalCategory,
  title: z.string(),
  detail: z.string(),
  /** Present for edits: lets a host show a diff editor. */
  diff: z.object({ path: z.string(), before: z.string(), after: z.string() }).optional(),
});
const ApprovalAnswered = z.object({
  type: z.literal('approval_answered'),
  callId: z.string(),
  approved: z.boolean(),
  reason: z.string().optional(),
  /** Decided by the approval policy without asking a person (auto-approved, a command list, an MCP server's `autoApprove`). */
  auto: z.boolean().optional(),
});
const QuestionAsked = z.object({
  type: z.literal('question_asked'),
  callId: z.string(),
  question: z.string(),
  options: z.array(z.string()).optional(),
});
const QuestionAnswered = z.object({ type: z.literal('question_answered'), callId: z.string(), answer: z.string().optional() });
/** Money and budget figures so far; `costUsd` only when the model has a price. */
export const CostFigures = z.object({
  /** Prompt tokens not served from the cache + 0.1 x cached tokens + completion tokens: what the task budget counts. */
  effectiveTokens: z.number().nonnegative(),
  costUsd: z.number().nonnegative().optional(),
});
export type CostFigures = z.infer<typeof CostFigures>;
const UsageEvent = z.object({
  type: z.literal('usage'),
  /** This model call's tokens. */
  usage: Usage,
  /** This run's tokens so far. */
  total: Usage,
  /** This run's figures so far: what its budget counts. */
  cost: CostFigures.optional(),
  /** The task's figures so far, earlier runs of it (follow-ups, resumes) included; absent in older histories. */
  task: CostFigures.optional(),
});
/** What fills the prompt of the next model call, by part, against the model's window (the context gauge). */
export const ContextParts = z.object({
  systemAndTools: z.number().int().nonnegative(),
  rules: z.number().int().nonnegative(),
  task: z.number().int().nonnegative(),
  history: z.number().int().nonnegative(),
  toolOutputs: z.number().int().nonnegative(),
  summaries: z.number().int().nonnegative(),
});
export type ContextParts = z.infer<typeof ContextParts>;
const ContextGauge = z.object({
  type: z.literal('context'),
  /** Tokens of the prompt about to be sent. */
  used: z.number().int().nonnegative(),
  /** The prompt budget (eliding and compaction keep `used` under it). */
  budget: z.number().int().positive(),
  /** The model's context window, when known. */
  window: z.number().int().positive().optional(),
  parts: ContextParts,
  /** Tool call ids whose results the user pinned. */
  pinned: z.array(z.string()),
});
/** Older turns are being summarized; `instruction` is what the summary model is asked. */
const CompactionStarted = z.object({
  type: z.literal('compaction_started'),
  id: z.string(),
  reason: z.enum(['window', 'user']),
  messages: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  model: z.string(),
  instruction: z.string(),
});
/** The summary that replaced older turns; undoable by `id` until the run ends. */
const CompactionFinished = z.object({
  type: z.literal('compaction_finished'),
  id: z.string(),
  summary: z.string(),
  summarizedMessages: z.number().int().nonnegative(),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  /** Files the check found missing from the model's summary and added. */
  addedByCheck: z.array(z.string()),
  /** Files re-offered as outlines after the summary. */
  outlines: z.array(z.string()),
});
const CompactionUndone = z.object({ type: z.literal('compaction_undone'), id: z.string() });
/** `edits_undone`: the user undid the task's edits (noted after its last event); nothing is left to undo. */
const Notice = z.object({
  type: z.literal('notice'),
  level: z.enum(['info', 'warning']),
  code: z.enum(['retry', 'stuck', 'context_elided', 'tool_protocol', 'step_limit', 'context_compaction', 'edits_undone', 'hook', 'other']),
  message: z.string(),
  /** `retry`: which retry of the model call this is, of how many at most, and how long until it is sent (views count down). */
  retry: z.object({ attempt: z.number().int().positive(), of: z.number().int().positive().optional(), delayMs: z.number().int().nonnegative() }).optional(),
});
const ErrorEvent = z.object({
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
});
const PlanStep = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  role: z.string(),
  /** A custom role's name, when the step is assigned to one. */
  agent: z.string().optional(),
  status: StepStatus,
  /** The planner's size estimate in effective tokens: the step's token budget before it runs (none when absent). */
  estimate: z.number().int().positive().optional(),
});
const PlanCreated = z.object({
  type: z.literal('plan_created'),
  goal: z.string(),
  thought: z.string(),
  steps: z.array(PlanStep),
});
/**
 * What changed in a plan, for views to put in their own (translated) words; `step` is the step's
 * title, `why` the plan updater's (model's) own reason. `revised`, `split` and `retry_differently`
 * are re-plans (they count against the re-plan limit).
 */
export const PlanChange = z.object({
  kind: z.enum(['edited', 'revised', 'split', 'retry_differently', 'skipped', 'retrying', 'resuming']),
  step: z.string().optional(),
  why: z.string().optional(),
});
export type PlanChange = z.infer<typeof PlanChange>;

/** The plan changes that are re-plans. */
export const REPLAN_KINDS: ReadonlySet<PlanChange['kind']> = new Set(['revised', 'split', 'retry_differently']);

/** `reason` is the change as one English sentence (logs, older readers); `change` (absent in older histories) the same in parts. */
const PlanUpdated = z.object({ type: z.literal('plan_updated'), reason: z.string(), change: PlanChange.optional(), steps: z.array(PlanStep) });
const StepStarted = z.object({ type: z.literal('step_started'), stepId: z.string() });
const StepFinished = z.object({
  type: z.literal('step_finished'),
  stepId: z.string(),
  status: StepStatus,
  summary: z.string(),
  /** The step ended because it used up its own token budget (not because its agent finished or failed). */
  budgetReached: z.literal(true).optional(),
});
/** How near a step is to its token budget: `low` from the wrap-up share (the agent was asked to wrap up), `over` past it. */
export const StepBudgetLevel = z.enum(['ok', 'low', 'over']);
export type StepBudgetLevel = z.infer<typeof StepBudgetLevel>;
/**
 * A budgeted step's effective tokens so far against its budget (its estimate capped by what the
 * task has left): sent when the step starts, as it spends (throttled), when its level changes and
 * when it ends. Steps without a budget send none.
 */
const StepUsage = z.object({
  type: z.literal('step_usage'),
  stepId: z.string(),
  spent: z.number().int().nonnegative(),
  budget: z.number().int().nonnegative(),
  level: StepBudgetLevel,
});
/** Rules files read into the system prompt of this task (AGENTS.md, CLAUDE.md, ...), in prompt order. */
const RulesLoaded = z.object({
  type: z.literal('rules_loaded'),
  files: z.array(z.object({ path: z.string(), kind: z.string(), chars: z.number().int().nonnegative(), truncated: z.boolean() })),
});
const Report = z.object({ type: z.literal('report'), markdown: z.string(), path: z.string().optional() });
/** A checkpoint of the workspace's files was taken (before a step or a tool call that may change files). */
const CheckpointTaken = z.object({
  type: z.literal('checkpoint'),
  id: z.string(),
  kind: z.string(),
  stepId: z.string().optional(),
  callId: z.string().optional(),
});

/**
 * Images the user attached to the task (pasted or dropped into the chat box): saved where `path`
 * says (when the run has an image store), and what the task carries about them (`section`: the
 * vision model's transcription, or why no model read them), which `withAttachedSection` appends
 * to the task the flow works from. Emitted once, right after `run_started`.
 */
const TaskImagesEvent = z.object({
  type: z.literal('task_images'),
  images: z.array(z.object({ name: z.string(), mimeType: z.string(), bytes: z.number().int().nonnegative(), path: z.string().optional() })),
  /** The model that read them; absent when none could. */
  reader: z.string().optional(),
  section: z.string(),
});

/**
 * A direct run handed a sub-task to a role (`delegate` tool call `callId`): the sub-run's own events
 * follow, up to `delegate_finished`, and views show them nested under that call. The sub-run has a
 * fresh context: its messages are not the outer conversation's.
 */
const DelegateStarted = z.object({ type: z.literal('delegate_started'), callId: z.string(), role: z.string(), task: z.string() });
const DelegateFinished = z.object({ type: z.literal('delegate_finished'), callId: z.string(), role: z.string(), outcome: RunOutcome, summary: z.string() });
/**
 * A message the user sent while the task ran, told where it was delivered: `turn` into the agent's
 * conversation at a turn boundary (never inside a tool call), `plan` to the plan updater after a step.
 */
const UserMessage = z.object({ type: z.literal('user_message'), text: z.string(), delivered: z.enum(['turn', 'plan']) });

/** Everything a run tells the world: the one event stream of architecture.md. */
export const AgentEvent = z.discriminatedUnion('type', [
  RunStarted,
  RunFinished,
  StateChanged,
  TurnStarted,
  TextDelta,
  AssistantMessage,
  ToolCallEvent,
  ToolOutputDelta,
  ToolResultEvent,
  CommandEnded,
  ApprovalRequested,
  ApprovalAnswered,
  QuestionAsked,
  QuestionAnswered,
  UsageEvent,
  Notice,
  ErrorEvent,
  PlanCreated,
  PlanUpdated,
  StepStarted,
  StepFinished,
  StepUsage,
  Report,
  RulesLoaded,
  ContextGauge,
  CompactionStarted,
  CompactionFinished,
  CompactionUndone,
  CheckpointTaken,
  TaskImagesEvent,
  DelegateStarted,
  DelegateFinished,
  UserMessage,
]);
export type AgentEvent = z.infer<typeof AgentEvent>;

/** Narrows the union to one event type. */
export type AgentEventOf<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/** The wire form of every event: versioned, ordered by `seq` within a run. */
export const EventEnvelope = z.object({
  v: z.literal(EVENT_VERSION),
  seq: z.number().int().nonnegative(),
  runId: z.string(),
  ts: z.number(),
  event: AgentEvent,
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;
