import { z } from 'zod';
import { Plan, StepRole } from '../../shared/plan';
import { flowUsage, runInner, type FlowContext } from './flowContext';
import { languageInstruction, type Language } from './language';
import { modelFor } from './modelTiers';
import { lookFirstPrompt, lookFirstTools } from './roles';
import { PYTHON_EXECUTE } from '../tools/python/pythonExecute';
import { parseEstimate } from './stepBudget';
import { structuredCall } from './structuredCall';
import { customRolesForPlanner } from '../extensions/customRoles';
import type { CustomRole } from '../extensions/extensionTypes';
import { ASK_BEFORE_PLANNING, askPlannerQuestions, PlannerQuestions } from './plannerQuestions';

/** A step as the planner writes it; ids and statuses are the flow's business. */
export const DraftStep = z.object({
  title: z.string().min(1),
  description: z.string().min(1),
  role: StepRole,
  /** Optional and never a reason to reject a plan: read by `parseEstimate`, anything unusable is dropped. */
  estimate: z.unknown().optional().describe('Optional size of the step: small, medium or large.'),
});

/** The arguments of `create_plan`. */
export const DraftPlan = z.object({
  goal: z.string().min(1),
  thought: z.string(),
  steps: z.array(DraftStep).min(1),
});
export type DraftPlan = z.infer<typeof DraftPlan>;

/** Attempts after the first when the plan does not parse. */
export const PLANNER_RETRIES = 2;

/** The analyst's line of the planner's prompt, sent only when `python_execute` is offered. */
const ANALYST_LINE = '- analyst: analyses data files (CSV, Excel, JSON) in a Python session with pandas; makes charts (PNG, embedded in the report) and small tables.';

/** The arguments of `create_plan` when custom roles are offered: `role` may also name one of them. */
function draftPlanFor(roles: readonly CustomRole[]) {
  if (roles.length === 0) return DraftPlan;
  const names = [...StepRole.options, ...roles.map((r) => r.name)] as [string, ...string[]];
  return DraftPlan.extend({ steps: z.array(DraftStep.extend({ role: z.enum(names) })).min(1) });
}

/** The planner's system prompt; the analyst is offered only when the run has `python_execute`, custom roles (when given) beside the built-in members. */
export function plannerPrompt(maxSteps: number, language: Language, analyst = false, roles: readonly CustomRole[] = []): string {
  return [
    'You are the planner of a small team working in the user\'s workspace (a code project). Break the task into ordered steps, each done by one member:',
    '- coder: changes files and runs commands (build, tests); checks its own changes.',
    '- researcher: reads and searches files; with web_search / web_fetch (when offered) also searches the web and reads pages; changes nothing.',
    '- browser: operates a headless web browser (navigate, click, type, read the page, screenshots) for sites that need interaction (forms, logins); changes no files.',
    '- reporter: writes documents (markdown) from what the team found.',
    ...(analyst ? [ANALYST_LINE] : []),
    ...customRolesForPlanner(roles),
    `Use as few steps as the work needs, at most ${maxSteps}. The member doing a step sees only the task, this plan and one-paragraph summaries of finished steps, so each description must say exactly what to do and what to deliver.`,
    'A final report is written automatically at the end: do not add a step just to summarise.',
    'Optionally give each step an `estimate` of its size: small, medium or large.',
    'Call `create_plan` with the goal (one sentence), your thought (why these steps) and the steps.',
    languageInstruction(language),
  ].join('\n');
}

/** A plan, or why none could be made. */
export type PlanOutcome = { ok: true; plan: Plan; notices: string[] } | { ok: false; error: string; attempts: number };

/**
 * Asks the planner (reasoning tier) for a plan through `create_plan` (or JSON in text). Unusable
 * answers go back to the model with the reason, at most `PLANNER_RETRIES` times. Plans longer
 * than `maxPlanSteps` are cut, with a notice.
 */
export async function createPlan(ctx: FlowContext, research?: string): Promise<PlanOutcome> {
  const roles = ctx.options.roles ?? [];
  let user = research
    ? `${ctx.options.task}\n\n# What a first look at the workspace found\n${research}`
    : ctx.options.task;
  const common = { model: modelFor(ctx.options.models, 'planner'), signal: ctx.signal, maxRetries: PLANNER_RETRIES, onUsage: flowUsage(ctx), tokenCounter: ctx.options.tokenCounter };
  const system = plannerPrompt(ctx.limits.maxPlanSteps, ctx.language, ctx.options.tools.get(PYTHON_EXECUTE) !== undefined, roles);
  const plan = { create_plan: { description: 'Submit the plan.', schema: draftPlanFor(roles) } };
  // The first call may ask the user (once, up to three questions); the call after the answers may only plan.
  const first = await structuredCall({ ...common, system: `${system}\n${ASK_BEFORE_PLANNING}`, user, choices: { ...plan, ask_user: { description: 'Ask the user up to three questions before planning.', schema: PlannerQuestions } } });
  let result = first;
  if (first.ok && first.name === 'ask_user') {
    user = `${user}\n\n${await askPlannerQuestions(ctx, first.value as PlannerQuestions)}`;
    result = await structuredCall({ ...common, system, user, choices: plan });
  }
  if (!result.ok) return { ok: false, error: result.error, attempts: result.attempts };
  const draft = result.value as DraftPlan;
  const notices: string[] = [];
  let steps = draft.steps;
  if (steps.length > ctx.limits.maxPlanSteps) {
    notices.push(`The plan had ${steps.length} steps; kept the first ${ctx.limits.maxPlanSteps} (the step limit).`);
    steps = steps.slice(0, ctx.limits.maxPlanSteps);
  }
  return {
    ok: true,
    notices,
    plan: {
      goal: draft.goal,
      thought: draft.thought,
      steps: steps.map(({ estimate, role, ...step }, index) => {
        const tokens = parseEstimate(estimate);
        // A custom role's step keeps `coder` as its built-in role (views, older readers) and names the role in `agent`.
        const builtin = StepRole.safeParse(role);
        const who = builtin.success ? { role: builtin.data } : { role: 'coder' as const, agent: role };
        return { ...step, ...who, id: String(index + 1), status: 'pending' as const, ...(tokens ? { estimate: tokens } : {}) };
      }),
    },
  };
}

/**
 * The optional look before planning: a read-only agent with a small turn limit. Returns its
 * summary, or `undefined` when it found nothing usable (planning goes on without it).
 */
export async function lookFirst(ctx: FlowContext): Promise<string | undefined> {
  const result = await runInner(ctx, {
    task: ctx.options.task,
    model: modelFor(ctx.options.models, 'lookFirst'),
    tools: lookFirstTools(ctx.options.tools),
    maxTurns: ctx.options.lookFirstTurns ?? 6,
    systemPrompt: lookFirstPrompt(ctx.language),
    toolChoice: 'required',
  });
  if (result.outcome === 'cancelled') return undefined;
  return result.summary?.trim() || undefined;
}
