import type { CostFigures, Usage } from '../../shared/events';
import { isCancellation } from '../errors';
import { runAgent } from '../loop/runAgent';
import { DEFAULT_LIMITS, type AgentLimits, type AgentRunResult } from '../loop/runTypes';
import type { LoadedRule } from '../context/rulesFiles';
import { priceOf } from '../model/modelCatalog';
import { promptGuardedTiers } from '../model/promptBoundary';
import type { ChatMessage, Model, ToolChoice } from '../model/types';
import type { ToolRegistry } from '../tools/toolRegistry';
import { ChangeTracker } from './changeTracker';
import { emitUsage, innerStream } from './flowEvents';
import type { Language } from './language';
import { TaskBudget } from './taskBudget';
import { BackgroundEndings } from '../tools/backgroundEndings';
import { TaskGuards } from './taskGuards';
import { WaitLedger } from '../ending/waitLedger';
import { DEFAULT_FLOW_LIMITS, type FlowLimits, type RunTaskOptions } from './taskTypes';

/** What every part of a running flow shares: options, budget, change tracker and the task's signal. */
export interface FlowContext {
  options: RunTaskOptions;
  limits: FlowLimits;
  agentLimits: AgentLimits;
  language: Language;
  budget: TaskBudget;
  tracker: ChangeTracker;
  /** Checkpoints and the evidence of changes and checks. */
  guards: TaskGuards;
  /** Aborts on the user's Stop and when the budget runs out. */
  signal: AbortSignal;
  /** Turns of every inner agent run so far (reported by `run_finished`). */
  turns: number;
  /** Steps that continue an earlier conversation (resume), by step id; taken when the step runs. */
  resumed?: Map<string, { messages: ChatMessage[]; instruction: string }>;
  /** The task's rules files, read once at its start and given to every inner run. */
  rules?: LoadedRule[];
  /** Background commands of the task that ended: told to whichever inner run asks the model next. */
  backgroundEndings: BackgroundEndings;
  /** Time the task waited for the user (approvals, questions, the plan review). */
  waits: WaitLedger;
}

/**
 * Builds the context of one `runTask` / `retryStep` / `resumeTask` call; `earlier`: what the task's
 * earlier runs spent. This is where a run's models pass the prompt boundary: every tier is wrapped
 * so each request is redacted (the run's event redactor) right before it leaves, whichever part of
 * the flow calls it; every model call of a task goes through `ctx.options.models`.
 */
export function createFlowContext(given: RunTaskOptions, language: Language, changedFiles: readonly string[] = [], earlier?: CostFigures): FlowContext {
  const options: RunTaskOptions = { ...given, models: promptGuardedTiers(given.models, given.events.redactor) };
  // One turn limit for the user to set: it bounds a direct run and each plan step alike, unless a
  // shell sets a separate per-step limit.
  const stepTurns = options.limits?.maxTurnsPerStep ?? options.agentLimits?.maxTurns;
  const limits = { ...DEFAULT_FLOW_LIMITS, ...stripUndefined({ ...options.limits, maxTurnsPerStep: stepTurns }) };
  const budget = new TaskBudget(limits.taskTokenBudget, {
    price: priceOf(options.models.default.id, options.prices),
    limitUsd: limits.taskCostBudgetUsd,
  }, earlier);
  return {
    options,
    limits,
    agentLimits: { ...DEFAULT_LIMITS, ...stripUndefined(options.agentLimits ?? {}) },
    language,
    budget,
    tracker: new ChangeTracker(changedFiles),
    guards: new TaskGuards(options),
    signal: AbortSignal.any([options.signal, budget.signal]),
    turns: 0,
    backgroundEndings: new BackgroundEndings(),
    waits: new WaitLedger(options.clock),
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Counts a flow call's usage (coordinator, planner, updater, report) against the task. */
export function flowUsage(ctx: FlowContext): (usage: Usage) => void {
  return (usage) => emitUsage(ctx.options.events, ctx.budget, usage);
}

/** One inner agent run of the flow. */
export interface InnerRun {
  task: string;
  model: Model;
  tools: ToolRegistry;
  maxTurns: number;
  systemPrompt?: string;
  pinned?: ChatMessage[];
  /** `required` for step agents, which end only through `finish`; runAgent's default otherwise. */
  toolChoice?: ToolChoice;
  /** Earlier messages the run continues from (resume). */
  history?: ChatMessage[];
  /** Ask the user to continue at the turn limit (the direct run; a step re-plans instead). */
  askAtTurnLimit?: boolean;
  /** Judge `finish` against the evidence (direct runs, and the step that ends the plan). */
  verifyAtFinish?: boolean;
  /** Stops this run alone (a step's own budget); the task's signal always stops it too. */
  signal?: AbortSignal;
  /** The user's own agent (direct runs): their messages reach it at its turn boundaries (a plan's go to its updater), Stop hooks apply. */
  takesMessages?: boolean;
}

/**
 * Runs `runAgent` inside the task: its events relay into the task's stream, its usage counts
 * against the task budget (also when the run reports usage only in its result), and the task's
 * signal stops it. A cancellation thrown by the run comes back as outcome `cancelled`.
 */
export async function runInner(ctx: FlowContext, run: InnerRun): Promise<AgentRunResult> {
  const o = ctx.options;
  const relay = innerStream(o.events, ctx.budget, ctx.tracker);
  try {
    const result = await runAgent({
      task: withCheckNote(ctx, run.task),
      model: run.model,
      tools: run.tools,
      // Tracked: the checkpoints learn which files the agents' own writes touched.
      workspace: ctx.guards.workspace,
      commands: o.commands,
      approver: o.approver,
      asker: o.asker,
      logger: o.logger,
      clock: o.clock,
      events: relay.stream,
      signal: run.signal ? AbortSignal.any([ctx.signal, run.signal]) : ctx.signal,
      limits: { ...ctx.agentLimits, maxTurns: run.maxTurns },
      systemPrompt: run.systemPrompt,
      pinned: run.pinned,
      toolChoice: run.toolChoice,
      history: run.history,
      tokenCounter: o.tokenCounter,
      images: o.images,
      ...(ctx.rules ? { rules: { loaded: ctx.rules } } : {}),
      ...(o.context ? { context: o.context } : {}),
      summaryModel: o.models.basic ?? o.models.default,
      ...(run.askAtTurnLimit ? { askAtTurnLimit: true } : {}),
      beforeTool: ctx.guards.beforeTool,
      ...(o.diagnostics ? { diagnostics: o.diagnostics } : {}),
      ...(run.verifyAtFinish ? { judgeFinish: ctx.guards.judgeFinish } : {}),
      backgroundEndings: ctx.backgroundEndings,
      waits: ctx.waits,
      ...(o.hooks ? { hooks: o.hooks } : {}),
      ...(run.takesMessages && o.inbox ? { inbox: o.inbox } : {}),
      ...(run.takesMessages ? { mainAgent: true } : {}),
    });
    ctx.turns += result.turns;
    const missing = result.usage.totalTokens - relay.counted().totalTokens;
    if (missing > 0) {
      const counted = relay.counted();
      emitUsage(o.events, ctx.budget, {
        promptTokens: Math.max(0, result.usage.promptTokens - counted.promptTokens),
        completionTokens: Math.max(0, result.usage.completionTokens - counted.completionTokens),
        totalTokens: missing,
      });
    }
    return result;
  } catch (error) {
    if (!isCancellation(error)) throw error;
    return { outcome: 'cancelled', reason: 'Cancelled', turns: 0, messages: [], usage: relay.counted() };
  } finally {
    relay.close();
  }
}

/** The task with the note naming the workspace's check after it (the task stays the message's start). */
function withCheckNote(ctx: FlowContext, task: string): string {
  const note = ctx.guards.contextNote();
  return note ? `${task}\n\n${note}` : task;
}

/** `budget` when the budget stopped the task, `cancelled` when the user did, else undefined. */
export function stopReason(ctx: FlowContext): 'budget' | 'cancelled' | undefined {
  if (ctx.options.signal.aborted) return 'cancelled';
  if (ctx.budget.exceeded) return 'budget';
  return undefined;
}
