import { z } from 'zod';
import { isDone, StepRole, type Plan, type PlanStep } from '../../shared/plan';
import { flowUsage, type FlowContext } from './flowContext';
import { nextStepId, type FlowState } from './flowState';
import { languageInstruction } from './language';
import { modelFor } from './modelTiers';
import { renderPlan } from './planContext';
import { parseEstimate } from './stepBudget';
import type { StepRun, UpdateDecision } from './flowTypes';
import { structuredCall } from './structuredCall';

/** A remaining step as the updater sends it: an existing id keeps (or rewords) that step; no id adds one. */
export const RemainingStep = z.object({
  id: z.string().optional(),
  title: z.string().min(1),
  description: z.string().min(1),
  /** A built-in role, or a custom role's name (`.stepwise/agents/…`). */
  role: z.string().min(1).describe('coder, researcher, browser, reporter, or a custom member the plan names'),
  status: z.enum(['pending', 'blocked']).optional(),
  /** Optional size (small / medium / large or tokens); unusable values are dropped, never an error. */
  estimate: z.unknown().optional(),
});
export type RemainingStep = z.infer<typeof RemainingStep>;

const UpdatePlan = z.object({ reason: z.string().min(1), steps: z.array(RemainingStep) });
const KeepPlan = z.object({ reason: z.string().optional() });
const RetryStep = z.object({ reason: z.string().min(1), title: z.string().min(1).optional(), description: z.string().min(1) });
const WithReason = z.object({ reason: z.string().min(1) });
const SplitStep = z.object({ reason: z.string().min(1), steps: z.array(RemainingStep.omit({ id: true, status: true })).min(1) });

const SUCCESS_PROMPT = [
  'You keep a team\'s plan up to date. A step has just finished; its summary is below.',
  'If the remaining steps (pending or blocked) still fit, call `keep_plan`.',
  'Otherwise call `update_plan` with the reason and the COMPLETE new list of remaining steps, in order: keep a step\'s `id` to keep or reword it, omit `id` for a new step, leave a step out to remove it, status `blocked` for a step that cannot run now.',
  'Finished steps and the goal cannot change. Change the plan only for a real reason (a finding, a new problem, a step that is no longer needed).',
].join('\n');

const FAILURE_PROMPT = [
  'You keep a team\'s plan up to date. A step has just FAILED; why is below. Decide:',
  '- `retry_step`: run it again with a revised description that takes a different approach;',
  '- `skip_step`: the rest of the plan can go on without it;',
  '- `stop_task`: the task cannot succeed; say why.',
].join('\n');

const MESSAGES_HEADING = '# The user wrote to you while the step ran';
const MESSAGES_PROMPT =
  'The user wrote while the step ran (below). Their message is a request about this task: when it asks for more, less or different work, change the remaining steps to do what they asked (`update_plan`), and say in the reason what you changed for them.';

const SPLIT_CHOICE =
  '- `split_step` (offered because the step ran out of its token budget, not because its approach failed): replace it with smaller steps for the work it left, in order; they run next.';

/**
 * One model call (reasoning tier) after a step. After a completed step it may revise the remaining
 * steps (`update_plan` / `keep_plan`); after a failed one it picks retry, skip or stop. An unusable
 * answer keeps the plan (after a success) or stops the task (after a failure).
 */
export async function reviseAfterStep(ctx: FlowContext, state: FlowState, step: PlanStep, run: StepRun, messages: readonly string[] = []): Promise<UpdateDecision> {
  const decision = await decideAfterStep(ctx, state, step, run, messages);
  return decision.kind === 'update' && messages.length > 0 ? { ...decision, reason: askedReason(messages, decision.reason) } : decision;
}

/** The reason of a plan change the user's messages led to: it quotes them first (`you asked: "…"`), then the updater's own words. */
export function askedReason(messages: readonly string[], reason: string): string {
  const quoted = messages.map((m) => `"${m.length > 300 ? `${m.slice(0, 300)}…` : m}"`).join(', ');
  return `you asked: ${quoted} — ${reason}`;
}

async function decideAfterStep(ctx: FlowContext, state: FlowState, step: PlanStep, run: StepRun, messages: readonly string[]): Promise<UpdateDecision> {
  const position = state.plan.steps.indexOf(step) + 1;
  const user = [
    `# The user's task\n${state.task}`,
    `# The plan\n${renderPlan(state.plan, state.notes)}`,
    run.status === 'completed'
      ? `# Step ${position} "${step.title}" finished\n${run.summary}`
      : `# Step ${position} "${step.title}" failed\nDescription: ${step.description}\nWhat happened: ${run.summary}`,
    ...(messages.length > 0 ? [`${MESSAGES_HEADING}\n${messages.map((m) => `- ${m}`).join('\n')}`] : []),
  ].join('\n\n');
  const common = {
    model: modelFor(ctx.options.models, 'updater'),
    user,
    signal: ctx.signal,
    maxRetries: 1,
    onUsage: flowUsage(ctx),
    tokenCounter: ctx.options.tokenCounter,
  };
  const language = languageInstruction(ctx.language);
  if (run.status === 'completed') {
    const result = await structuredCall({
      ...common,
      system: [SUCCESS_PROMPT, ...(messages.length > 0 ? [MESSAGES_PROMPT] : []), language].join('\n'),
      choices: {
        keep_plan: { description: 'The remaining steps still fit.', schema: KeepPlan },
        update_plan: { description: 'Replace the remaining steps.', schema: UpdatePlan },
      },
    });
    if (!result.ok) return { kind: 'keep', notice: `The plan updater's answer was unusable (${result.error}); the plan is kept.` };
    if (result.name === 'keep_plan') return { kind: 'keep', reason: result.value.reason };
    const applied = applyRemaining(state.plan, result.value.steps, ctx.limits.maxPlanSteps, customNames(ctx));
    return { kind: 'update', reason: result.value.reason, ...applied };
  }
  return afterFailure(ctx, state.plan, step, run, common);
}

async function afterFailure(
  ctx: FlowContext,
  plan: Plan,
  step: PlanStep,
  run: StepRun,
  common: Omit<Parameters<typeof structuredCall>[0], 'system' | 'choices'>,
): Promise<UpdateDecision> {
  const choices = {
    retry_step: { description: 'Run the failed step again, differently.', schema: RetryStep },
    skip_step: { description: 'Go on without the failed step.', schema: WithReason },
    stop_task: { description: 'Stop the task.', schema: WithReason },
  };
  const split = { split_step: { description: 'Split the work the step left into smaller steps.', schema: SplitStep } };
  const result = await structuredCall({
    ...common,
    system: [FAILURE_PROMPT, ...(run.budgetReached ? [SPLIT_CHOICE] : []), languageInstruction(ctx.language)].join('\n'),
    // Typed as if `split_step` were always offered; the model can only pick it when it was.
    choices: (run.budgetReached ? { ...choices, ...split } : choices) as typeof choices & typeof split,
  });
  if (!result.ok) return { kind: 'stop', reason: `the plan updater's answer was unusable (${result.error})` };
  if (result.name === 'retry_step') return { kind: 'retry', ...result.value };
  if (result.name === 'split_step') {
    const value = result.value;
    const rest = plan.steps.filter((s) => !isDone(s) && s.id !== step.id);
    const applied = applyRemaining(plan, [...value.steps, ...rest], ctx.limits.maxPlanSteps, customNames(ctx));
    return { kind: 'split', reason: value.reason, ...applied };
  }
  return { kind: result.name === 'skip_step' ? 'skip' : 'stop', reason: result.value.reason };
}

/** The task's custom role names (the updater may assign a step to one, as the planner may). */
function customNames(ctx: FlowContext): string[] {
  return (ctx.options.roles ?? []).map((r) => r.name);
}

/** A remaining step's role: built in, or a custom role (`role: coder` + `agent`); an unknown name runs as `coder`, with a notice. */
function whoRuns(entry: { role: string; agent?: string }, custom: readonly string[], notices: string[]): Pick<PlanStep, 'role' | 'agent'> {
  if (entry.agent) return { role: 'coder', agent: entry.agent };
  const builtin = StepRole.safeParse(entry.role);
  if (builtin.success) return { role: builtin.data };
  if (custom.includes(entry.role)) return { role: 'coder', agent: entry.role };
  notices.push(`The plan updater named an unknown member "${entry.role}"; that step runs as coder.`);
  return { role: 'coder' };
}

/**
 * The plan with its remaining steps replaced by `remaining`. Enforced here, whatever the model
 * sent: the goal, the thought and every finished step stay exactly as they were (entries naming a
 * finished step are dropped, with a notice), ids stay unique, and the plan keeps at most
 * `maxSteps` steps (extra new steps are cut, with a notice).
 */
export function applyRemaining(plan: Plan, remaining: ReadonlyArray<RemainingStep & { agent?: string }>, maxSteps: number, custom: readonly string[] = []): { plan: Plan; notices: string[] } {
  const notices: string[] = [];
  const done = plan.steps.filter(isDone);
  const open = new Map(plan.steps.filter((s) => !isDone(s)).map((s) => [s.id, s]));
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const next: PlanStep[] = [];
  for (const entry of remaining) {
    const existing = entry.id === undefined ? undefined : byId.get(entry.id);
    if (existing && isDone(existing)) {
      if (existing.title !== entry.title || existing.description !== entry.description || (existing.agent ?? existing.role) !== (entry.agent ?? entry.role)) {
        notices.push(`The plan updater tried to change ${existing.status} step "${existing.title}"; finished steps cannot change, so that change was ignored.`);
      }
      continue;
    }
    const keepId = entry.id !== undefined && open.has(entry.id) && !next.some((s) => s.id === entry.id);
    const id = keepId ? entry.id! : nextStepId([...plan.steps, ...next]);
    const estimate = parseEstimate(entry.estimate) ?? (keepId ? open.get(id)?.estimate : undefined);
    const status = entry.status ?? 'pending';
    next.push({ id, title: entry.title, description: entry.description, ...whoRuns(entry, custom, notices), status, ...(estimate ? { estimate } : {}) });
  }
  const room = Math.max(0, maxSteps - done.length);
  if (next.length > room) {
    notices.push(`The revised plan had ${done.length + next.length} steps; kept ${maxSteps} (the step limit).`);
    next.length = room;
  }
  return { plan: { goal: plan.goal, thought: plan.thought, steps: [...done, ...next] }, notices };
}
