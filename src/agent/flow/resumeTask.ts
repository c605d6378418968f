import type { AgentEvent, EventEnvelope } from '../../shared/events';
import { conversationFromEvents } from '../context/conversationFromEvents';
import type { ChatMessage } from '../model/types';
import type { FlowState } from './flowState';
import { StepwiseError } from '../errors';
import { createFlowContext, runInner, type FlowContext } from './flowContext';
import { withDelegate } from './delegateTool';
import { untoldEndings } from '../tools/backgroundEndings';
import { flowStateFromEvents } from './flowStateFromEvents';
import { detectLanguage } from './language';
import { commit, type Progress } from './planCommit';
import { continuePlan } from './planRunner';
import { applyRetry, restoredState } from './planState';
import { settle } from './runTask';
import { spentByRuns } from './taskBudget';
import { taskTools, toolsUsed } from './taskTools';
import type { RunTaskOptions, TaskResult } from './taskTypes';

/** Said to an agent that resumes without a new instruction from the user. */
export const CONTINUE_NOTE = 'Continue where you stopped: finish the work, then call finish with a summary.';

/** Most runs followed back through `resumedFrom` (guards against a cycle in stored history). */
const MAX_RESUME_DEPTH = 20;

/** Options of `resumeTask`: those of `runTask` without what only a new task decides. */
export interface ResumeTaskOptions extends Omit<RunTaskOptions, 'task' | 'planMode' | 'review' | 'reviewPlan' | 'lookFirst' | 'lookFirstTurns'> {
  /** The stored task's events, oldest first, earlier resumed runs included (see `loadTaskHistory`). */
  history: readonly AgentEvent[];
  /** The run id of the stored task (recorded as `resumedFrom` of the new run). */
  resumedFrom: string;
  /** What the user adds; default `CONTINUE_NOTE`. */
  instruction?: string;
}

/**
 * Resumes a stored task. A planned task continues from its plan: the step that stopped (in
 * progress or failed) runs again with its earlier conversation and the instruction, then the
 * pending steps, the updater and the report, as `runTask` would. A direct task continues its
 * conversation with the instruction. One run_started / run_finished pair, like `runTask`; throws
 * `StepwiseError` only when the history holds no task.
 */
export async function resumeTask(options: ResumeTaskOptions): Promise<TaskResult> {
  const started = options.history.find((e) => e.type === 'run_started');
  if (!started || started.type !== 'run_started') throw new StepwiseError('The stored task has no events to resume from.');
  const instruction = options.instruction?.trim() || CONTINUE_NOTE;
  const stored = flowStateFromEvents(options.history);
  const base = { ...options, planMode: 'always' as const, review: 'auto' as const };
  if (!stored) {
    const ctx = createFlowContext({ ...base, task: options.instruction?.trim() || started.task }, detectLanguage(started.task), [], spentByRuns(options.history));
    tellUntoldEndings(ctx, options.history);
    const progress: Progress = { route: 'direct', baseUsage: ctx.budget.usage };
    return settle(ctx, progress, async () => {
      const tools = taskTools(withDelegate(ctx), { kind: 'direct', text: `${started.task}\n${instruction}`, used: calledTools(options.history) });
      const result = await runInner(ctx, { task: instruction, history: conversationFromEvents(options.history), model: ctx.options.models.default, tools, maxTurns: ctx.agentLimits.maxTurns, verifyAtFinish: true, takesMessages: true });
      return { outcome: result.outcome, route: 'direct', summary: result.summary ?? '', reason: result.reason, usage: ctx.budget.usage };
    });
  }
  const { state, stepEvents } = stored;
  if (planIsDone(state) && options.instruction?.trim()) return followUpDonePlan(options, state, instruction);
  const ctx = createFlowContext({ ...base, task: state.task }, state.language, state.changedFiles, spentByRuns(options.history));
  tellUntoldEndings(ctx, options.history);
  const progress: Progress = { route: 'plan', baseUsage: state.usage };
  return settle(ctx, progress, async () => {
    commit(ctx, progress, restoredState(state));
    const stopped = state.plan.steps.find((s) => s.status === 'in_progress' || s.status === 'failed' || s.status === 'stopped');
    if (stopped) {
      commit(ctx, progress, applyRetry(progress.state!, stopped.id, 'resuming'));
      const messages = conversationFromEvents(stepEvents.get(stopped.id) ?? []);
      ctx.resumed = new Map([[stopped.id, { messages, instruction }]]);
    }
    return continuePlan(ctx, progress);
  });
}

/** The tools a stored task's conversation called: its follow-up keeps them. */
function calledTools(history: readonly AgentEvent[]): Set<string> {
  return toolsUsed(history.flatMap((e) => (e.type === 'assistant_message' ? e.toolCalls : [])));
}

/** Background commands that ended after the model's last turn: the follow-up's first model call hears of them. */
function tellUntoldEndings(ctx: FlowContext, history: readonly AgentEvent[]): void {
  for (const ending of untoldEndings(history)) ctx.backgroundEndings.record(ending);
}

/** A plan with nothing left to run (no pending, running or failed step): a follow-up cannot continue it. */
export function planIsDone(state: FlowState): boolean {
  return !state.plan.steps.some((s) => s.status === 'pending' || s.status === 'in_progress' || s.status === 'failed' || s.status === 'stopped');
}

/**
 * A follow-up on a finished plan is the next turn of the same conversation: the model gets the task,
 * what the plan did (each step's summary) and its report as its earlier answer, the conversation of
 * earlier follow-ups, then the new instruction, and answers it directly. Re-running a finished plan
 * would only write its report again and ignore what the user asked.
 */
async function followUpDonePlan(options: ResumeTaskOptions, state: FlowState, instruction: string): Promise<TaskResult> {
  const ctx = createFlowContext({ ...options, planMode: 'never', review: 'auto', task: instruction }, state.language, state.changedFiles, spentByRuns(options.history));
  tellUntoldEndings(ctx, options.history);
  const progress: Progress = { route: 'direct', baseUsage: ctx.budget.usage };
  return settle(ctx, progress, async () => {
    const history = [...planDigest(options.history, state), ...conversationFromEvents(afterLastPlanRun(options.history))];
    const tools = taskTools(options.tools, { kind: 'direct', text: `${state.task}\n${instruction}`, used: calledTools(options.history) });
    const result = await runInner(ctx, { task: instruction, history, model: ctx.options.models.default, tools, maxTurns: ctx.agentLimits.maxTurns, verifyAtFinish: true, takesMessages: true });
    return { outcome: result.outcome, route: 'direct', summary: result.summary ?? '', reason: result.reason, usage: ctx.budget.usage };
  });
}

/** The planned task as two messages: the user's task, and the plan's steps, summaries and report as the answer. */
function planDigest(events: readonly AgentEvent[], state: FlowState): ChatMessage[] {
  const report = events.findLast((e) => e.type === 'report');
  const lines = [`Plan: ${state.plan.goal}`, ...state.plan.steps.map((s, i) => `${i + 1}. ${s.title} [${s.status}]${state.notes[s.id] ? `: ${state.notes[s.id]}` : ''}`)];
  if (report?.type === 'report') lines.push('', `Report${report.path ? ` (${report.path})` : ''}:`, report.markdown);
  return [{ role: 'user', content: state.task }, { role: 'assistant', content: lines.join('\n') }];
}

/** The events after the run that made (or last continued) the plan: the conversation of earlier follow-ups. */
function afterLastPlanRun(events: readonly AgentEvent[]): AgentEvent[] {
  const lastPlan = events.findLastIndex((e) => e.type === 'plan_created' || e.type === 'plan_updated' || e.type === 'step_finished' || e.type === 'report');
  const end = events.findIndex((e, i) => i > lastPlan && e.type === 'run_finished');
  return end < 0 ? [] : events.slice(end + 1);
}

/** Stored events left out of a conversation: from a `seq` on, or `[from, to)` windows (a restore, then follow-ups). */
export type ConversationCut = number | ReadonlyArray<readonly [number, number]>;

/**
 * A task's whole history for `resumeTask`: the events of `runId` with, first, those of the runs it
 * resumed (followed through `run_started.resumedFrom`). `read` returns a run's stored envelopes;
 * `cutOf` where a run's conversation was restored to a checkpoint (a `seq`: everything from it on
 * is dropped; or windows `[from, to)` when follow-ups continued the run after such a restore).
 */
export async function loadTaskHistory(
  read: (runId: string) => Promise<readonly EventEnvelope[]>,
  runId: string,
  cutOf?: (runId: string) => Promise<ConversationCut | undefined>,
): Promise<AgentEvent[]> {
  const chain: AgentEvent[][] = [];
  let next: string | undefined = runId;
  for (let depth = 0; next !== undefined && depth < MAX_RESUME_DEPTH; depth++) {
    // A conversation restored to a checkpoint ends where that checkpoint was taken.
    const cut = (await cutOf?.(next)) ?? Infinity;
    const windows = typeof cut === 'number' ? [[cut, Infinity] as const] : cut;
    const events: AgentEvent[] = (await read(next)).filter((e) => !windows.some(([from, to]) => e.seq >= from && e.seq < to)).map((e) => e.event);
    chain.unshift(events);
    const started: AgentEvent | undefined = events.find((e) => e.type === 'run_started');
    next = started?.type === 'run_started' ? started.resumedFrom : undefined;
  }
  return chain.flat();
}
