import type { RunOutcome } from '../../shared/events';
import type { AgentRunResult } from '../loop/runTypes';
import type { StepRun } from './flowTypes';
import { runInner, stopReason, type FlowContext } from './flowContext';
import { modelFor } from './modelTiers';
import { commit, type Progress } from './planCommit';
import { applyStepResult, applyStepStart } from './planState';
import { clipNote, stepContext, stepTask } from './planContext';
import { customRolePrompt, rolePrompt } from './roles';
import { modelForCustomRole, toolsForCustomRole } from '../extensions/customRoles';
import type { PlanStep } from '../../shared/plan';
import type { Model } from '../model/types';
import type { ToolRegistry } from '../tools/toolRegistry';
import { taskTools, toolsUsed, type ToolUse } from './taskTools';
import { StepBudget, stepTokenBudget } from './stepBudget';

/**
 * Runs one step with its role's agent: the role's tools, short prompt and model tier, the step's
 * own turn limit, and a context of only the task, the plan (statuses and summaries) and the step.
 * The step completes when the agent calls `finish`; anything else is a failure. A step being
 * resumed (`ctx.resumed`) continues its earlier conversation. A step with an estimate has its own
 * token budget (`StepBudget`): the agent is told to wrap up near it, and the step ends failed
 * (`budgetReached`, for the updater to split) past it. State changes go through `commit`.
 */
export async function runStep(ctx: FlowContext, progress: Progress, stepId: string): Promise<StepRun> {
  commit(ctx, progress, applyStepStart(progress.state!, stepId));
  const state = progress.state!;
  const step = state.plan.steps.find((s) => s.id === stepId)!;
  const resumed = ctx.resumed?.get(stepId);
  ctx.resumed?.delete(stepId);
  const stepNumber = state.plan.steps.indexOf(step) + 1;
  await ctx.guards.checkpoints.take('step', { stepId: step.id, stepNumber, stepTitle: step.title }, ctx.signal);
  const limit = stepTokenBudget(step.estimate, ctx.budget);
  const stepBudget = limit === undefined ? undefined : new StepBudget(limit, ctx.budget, (event) => ctx.options.events.emit(event), step.id);
  const used = resumed ? toolsUsed(resumed.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls ?? [] : []))) : undefined;
  const who = stepAgent(ctx, step, { text: `${state.task}\n${step.title}\n${step.description}`, ...(used ? { used } : {}) });
  const tools = who.tools;
  const result = await runInner(ctx, {
    task: resumed ? resumed.instruction : stepTask(state, step),
    ...(resumed ? { history: [{ role: 'user' as const, content: stepTask(state, step) }, ...resumed.messages] } : {}),
    pinned: stepContext(state, step),
    model: who.model,
    tools: stepBudget ? stepBudget.wrap(tools) : tools,
    maxTurns: ctx.limits.maxTurnsPerStep,
    systemPrompt: who.systemPrompt,
    toolChoice: 'required',
    // Only the step that ends the plan is asked for evidence: earlier steps hand over to later ones.
    verifyAtFinish: !state.plan.steps.some((s) => s.status === 'pending'),
    ...(stepBudget ? { signal: stepBudget.signal } : {}),
  }).finally(() => stepBudget?.close());
  // A step whose agent finished is done even if the budget ran out on its last call.
  const completed = result.outcome === 'finished';
  const stop = stopReason(ctx);
  const budgetReached = !completed && !stop && stepBudget?.exceeded === true;
  const outcome: RunOutcome = completed ? 'finished' : (stop ?? (budgetReached ? 'failed' : result.outcome));
  const why = budgetReached ? budgetNote(stepBudget!, result) : failureNote(result, outcome, ctx);
  const summary = clipNote(completed ? result.summary?.trim() || '(no summary)' : why);
  // The user's Stop is not the step's failure: it shows as stopped, and a resume runs it again.
  const status = completed ? 'completed' : stop === 'cancelled' ? 'stopped' : 'failed';
  commit(ctx, progress, applyStepResult(progress.state!, stepId, { status, summary, ...(budgetReached ? { budgetReached } : {}) }));
  return { status, summary, outcome, ...(budgetReached ? { budgetReached } : {}) };
}

/**
 * Who runs a step: its custom role (exactly the role's tools, its prompt and tier) when the step
 * names one the task still has, else its built-in role.
 */
function stepAgent(ctx: FlowContext, step: PlanStep, use: Pick<Extract<ToolUse, { kind: 'role' }>, 'text' | 'used'>): { tools: ToolRegistry; model: Model; systemPrompt: string } {
  const custom = step.agent ? ctx.options.roles?.find((r) => r.name === step.agent) : undefined;
  if (custom) {
    return { tools: toolsForCustomRole(ctx.options.tools, custom), model: modelForCustomRole(ctx.options.models, custom), systemPrompt: customRolePrompt(custom, ctx.language) };
  }
  return { tools: taskTools(ctx.options.tools, { kind: 'role', role: step.role, ...use }), model: modelFor(ctx.options.models, step.role), systemPrompt: rolePrompt(step.role, ctx.language) };
}

function budgetNote(stepBudget: StepBudget, result: AgentRunResult): string {
  const last = result.summary?.trim();
  return `Failed: ${stepBudget.reason()}.${last ? ` Last words: ${last}` : ''}`;
}

function failureNote(result: AgentRunResult, outcome: RunOutcome, ctx: FlowContext): string {
  if (outcome === 'cancelled') return 'Stopped by the user.';
  if (outcome === 'budget') return ctx.budget.reason();
  const why = result.reason ?? (outcome === 'step_limit' ? `reached the limit of ${ctx.limits.maxTurnsPerStep} turns` : outcome);
  return result.summary ? `Failed (${outcome}): ${why}. Last words: ${result.summary}` : `Failed (${outcome}): ${why}`;
}
