import { canRetryStep } from '../../shared/vocabulary';
import { endRun } from '../events/runEnding';
import { errorMessage, StepwiseError } from '../errors';
import { outcomeOfStop } from '../ending/decideEnding';
import { stopCauseFromError } from '../ending/stopCause';
import { loadTaskRules } from '../loop/applyRules';
import { describeIssues } from '../tools/toolRegistry';
import { routeTask } from './coordinator';
import { createFlowContext, runInner, stopReason, type FlowContext } from './flowContext';
import { withDelegate } from './delegateTool';
import { FlowState } from './flowState';
import { detectLanguage } from './language';
import { acceptReviewedPlan, samePlan } from './planReview';
import { createPlan, lookFirst, PLANNER_RETRIES } from './planner';
import { commit, saveState, type Progress } from './planCommit';
import { continuePlan, stopEnding } from './planRunner';
import { applyRetry, applyReviewedPlan, initialState } from './planState';
import { ZERO_USAGE } from '../loop/usage';
import { readTaskImages } from './readTaskImages';
import { knownStops, taskEnding } from './taskEnding';
import { taskStartHooks, tellUndelivered } from './taskHooks';
import { taskTools } from './taskTools';
import type { RunTaskOptions, TaskResult } from './taskTypes';

/**
 * Runs a user's task: the coordinator routes it (or `planMode` forces a route); `direct` runs one
 * ReAct agent; `plan` plans (optionally after a read-only look), lets the user review the plan
 * when `review` is `ask`, runs the steps by role with the updater after each, and writes a report.
 * Emits one run_started / run_finished pair for the whole task. Never throws once started: Stop,
 * the budget, model failures and bugs (`internal`) are outcomes; throws `StepwiseError` only for
 * invalid options, before anything is emitted.
 */
export async function runTask(options: RunTaskOptions): Promise<TaskResult> {
  if (options.review === 'ask' && !options.reviewPlan) throw new StepwiseError('Review mode "ask" needs a reviewPlan hook.');
  const ctx = createFlowContext(options, detectLanguage(options.task));
  const progress: Progress = { route: 'direct', baseUsage: ZERO_USAGE };
  return settle(ctx, progress, () => planOrAnswer(ctx, progress));
}

/** Options of `retryStep`: those of `runTask` without what only a new task decides. */
export type RetryStepOptions = Omit<RunTaskOptions, 'task' | 'planMode' | 'review' | 'reviewPlan' | 'lookFirst' | 'lookFirstTurns'>;

/**
 * Re-runs a failed, blocked or skipped step from a saved flow state, then the steps still pending,
 * the updater and the report, as `runTask` would. Throws `StepwiseError` for an invalid state or
 * a step that cannot be retried.
 */
export async function retryStep(options: RetryStepOptions, saved: FlowState, stepId: string): Promise<TaskResult> {
  const parsed = FlowState.safeParse(saved);
  if (!parsed.success) throw new StepwiseError(`The saved flow state is invalid: ${describeIssues(parsed.error)}.`);
  const state = parsed.data;
  const refusal = retryRefusal(state, stepId);
  if (refusal) throw new StepwiseError(refusal);
  const full: RunTaskOptions = { ...options, task: state.task, planMode: 'always', review: 'auto' };
  const ctx = createFlowContext(full, state.language, state.changedFiles);
  const progress: Progress = { route: 'plan', state, baseUsage: state.usage };
  return settle(ctx, progress, async () => {
    commit(ctx, progress, applyRetry(state, stepId, 'retrying'));
    return continuePlan(ctx, progress);
  });
}

/** Why `retryStep` would refuse `stepId` of `state` (unknown, or not failed / blocked / skipped); `undefined` when it can run. */
export function retryRefusal(state: FlowState, stepId: string): string | undefined {
  const step = state.plan.steps.find((s) => s.id === stepId);
  if (!step) return `The plan has no step "${stepId}".`;
  if (!canRetryStep(step.status)) {
    return `Step "${step.title}" is ${step.status}; only failed, blocked or skipped steps can be retried.`;
  }
  return undefined;
}

async function planOrAnswer(ctx: FlowContext, progress: Progress): Promise<TaskResult> {
  if (ctx.options.taskImages?.length) await readTaskImages(ctx);
  const o = ctx.options;
  const route = await routeTask(ctx);
  o.logger.info(`route ${route.mode}: ${route.reason}`);
  if (route.mode === 'direct') return runDirect(ctx, progress);
  progress.route = 'plan';
  const research = o.lookFirst ? await lookFirst(ctx) : undefined;
  const stop = stopReason(ctx);
  if (stop) return stopped(ctx, progress, stop);
  const planned = await createPlan(ctx, research);
  if (!planned.ok) {
    o.events.emit({
      type: 'notice',
      level: 'warning',
      code: 'other',
      message: `Planning failed after ${PLANNER_RETRIES + 1} attempts (${planned.error}); running the task as a single agent instead.`,
    });
    return runDirect(ctx, progress);
  }
  for (const message of planned.notices) o.events.emit({ type: 'notice', level: 'warning', code: 'other', message });
  const { plan } = planned;
  commit(ctx, progress, initialState({ task: o.task, language: ctx.language, plan, research, usage: ZERO_USAGE }));
  if (o.review === 'ask') {
    const refused = await review(ctx, progress);
    if (refused) return refused;
  }
  return continuePlan(ctx, progress);
}

/** Lets the user review the plan (`review: ask`); a result when the plan will not run. */
async function review(ctx: FlowContext, progress: Progress): Promise<TaskResult | undefined> {
  const o = ctx.options;
  const state = progress.state!;
  const plan = state.plan;
  const reviewed = await ctx.waits.measure(() => o.reviewPlan!(structuredClone(plan), ctx.signal));
  if (reviewed === undefined) {
    return { outcome: 'cancelled', route: 'plan', plan, summary: 'The plan was not accepted.', reason: 'The user cancelled the plan.', usage: ctx.budget.usage, state };
  }
  const accepted = acceptReviewedPlan(reviewed, ctx.limits.maxPlanSteps, plan);
  if (!accepted.ok) {
    o.events.emit({ type: 'error', code: 'invalid_plan', message: accepted.error });
    return { outcome: 'failed', route: 'plan', plan, summary: accepted.error, reason: accepted.error, usage: ctx.budget.usage, state };
  }
  for (const message of accepted.notices) o.events.emit({ type: 'notice', level: 'warning', code: 'other', message });
  if (!samePlan(plan, accepted.plan)) commit(ctx, progress, applyReviewedPlan(state, accepted.plan));
  return undefined;
}

/** The plain single-agent run, with runAgent's default prompt and the tools the task can use (`taskTools`; `delegate` when there are custom roles). */
async function runDirect(ctx: FlowContext, progress: Progress): Promise<TaskResult> {
  progress.route = 'direct';
  const result = await runInner(ctx, {
    task: ctx.options.task,
    model: ctx.options.models.default,
    tools: taskTools(withDelegate(ctx), { kind: 'direct', text: ctx.options.task }),
    maxTurns: ctx.agentLimits.maxTurns,
    askAtTurnLimit: true,
    verifyAtFinish: true,
    takesMessages: true,
  });
  const stop = result.outcome === 'finished' ? undefined : stopReason(ctx);
  if (stop) return stopped(ctx, progress, stop);
  return { outcome: result.outcome, route: 'direct', summary: result.summary ?? '', reason: result.reason, usage: ctx.budget.usage };
}

function stopped(ctx: FlowContext, progress: Progress, kind: 'budget' | 'cancelled'): TaskResult {
  const ending = stopEnding(ctx, kind);
  saveState(ctx, progress);
  const state = progress.state ? structuredClone(progress.state) : undefined;
  return { outcome: ending.outcome, route: progress.route, plan: state?.plan, summary: ending.reason ?? '', reason: ending.reason, usage: ctx.budget.usage, state };
}

/**
 * Wraps a task: run_started first, run_finished last (exactly once), every failure an outcome:
 * Stop and the budget, model failures (`failed`) and unexpected errors (`internal`, a bug) alike.
 * The ending of every route (direct, planned, follow-up, resume, step retry) is decided here, by
 * `taskEnding` from the facts, before the end checkpoint; the run's time is told apart from the
 * time it waited for the user.
 */
export async function settle(ctx: FlowContext, progress: Progress, body: () => Promise<TaskResult>): Promise<TaskResult> {
  const o = ctx.options;
  const started = o.clock.now();
  o.events.emit({ type: 'run_started', task: o.task, workspace: o.workspace.root, model: o.models.default.id, ...(o.resumedFrom ? { resumedFrom: o.resumedFrom } : {}) });
  o.events.emit({ type: 'state', state: 'RUNNING' });
  let raw: TaskResult;
  try {
    ctx.rules = await loadTaskRules(o.rules, { text: o.task, workspace: o.workspace, signal: ctx.signal }, (event) => o.events.emit(event));
    await ctx.guards.start(ctx.signal);
    // The user's SessionStart / UserPromptSubmit hooks; a prompt a hook refused does not run.
    const refused = await taskStartHooks(ctx, !progress.state);
    raw = refused === undefined ? await body() : { outcome: 'failed', route: progress.route, summary: '', reason: `a UserPromptSubmit hook refused the task: ${refused}`, usage: ctx.budget.usage };
  } catch (error) {
    raw = resultFromError(ctx, progress, error);
  }
  tellUndelivered(ctx);
  const ending = taskEnding(ctx, progress.route, progress.state, raw);
  const result: TaskResult = { ...raw, outcome: ending.outcome, ...(ending.reason !== undefined ? { reason: ending.reason } : {}) };
  await ctx.guards.stop().catch((error: unknown) => o.logger.error('end checkpoint failed', error));
  const steps = progress.state?.plan.steps;
  const waitingMs = ctx.waits.total();
  endRun(o.events, {
    outcome: result.outcome,
    summary: result.summary,
    reason: result.reason,
    turns: ctx.turns,
    ...(steps ? { stepsCompleted: steps.filter((s) => s.status === 'completed').length } : {}),
    ...(ending.failedChecks.length ? { failedChecks: ending.failedChecks } : {}),
    runningMs: Math.max(0, o.clock.now() - started - waitingMs),
    waitingMs,
  });
  return result;
}

/** The task's raw result from a thrown error, by the core's one error mapping (`stopCauseFromError`). */
function resultFromError(ctx: FlowContext, progress: Progress, error: unknown): TaskResult {
  const cause = stopCauseFromError(error, knownStops(ctx));
  saveState(ctx, progress);
  const base = { route: progress.route, plan: progress.state?.plan, summary: '', usage: ctx.budget.usage, state: progress.state };
  if (cause.kind === 'provider') ctx.options.events.emit({ type: 'error', code: cause.code ?? 'model', message: errorMessage(error) });
  if (cause.kind === 'internal') {
    ctx.options.logger.error('task failed unexpectedly', error);
    ctx.options.events.emit({ type: 'error', code: 'internal', message: errorMessage(error) });
  }
  const reason = cause.kind === 'user' ? (cause.reason ?? 'Stopped by the user.') : cause.reason;
  return { ...base, ...(cause.kind === 'user' || cause.kind === 'budget' ? { summary: reason } : {}), outcome: outcomeOfStop(cause), reason };
}
