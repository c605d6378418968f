import { z } from 'zod';
import { StepRole } from '../../shared/plan';
import { ToolError } from '../errors';
import { modelForCustomRole, toolsForCustomRole } from '../extensions/customRoles';
import type { CustomRole } from '../extensions/extensionTypes';
import { defineTool, type AnyTool } from '../tools/tool';
import { ToolRegistry } from '../tools/toolRegistry';
import { runInner, type FlowContext } from './flowContext';
import { modelFor } from './modelTiers';
import { subtaskPrompt, toolsForRole } from './roles';

/** Name of the tool a direct run hands a sub-task to a role with. */
export const DELEGATE_TOOL = 'delegate';

/** Built-in roles a direct run may delegate to (the reporter writes the plan's report, the browser needs a plan's context). */
const DELEGABLE: readonly StepRole[] = ['researcher', 'coder'];

/** Who runs a delegated sub-task: its tools (never `delegate` itself), model and prompt. */
function subAgent(ctx: FlowContext, name: string, custom: CustomRole | undefined) {
  const all = ctx.options.tools.filter((tool) => tool.name !== DELEGATE_TOOL);
  if (custom) return { tools: toolsForCustomRole(all, custom), model: modelForCustomRole(ctx.options.models, custom), systemPrompt: subtaskPrompt(custom, ctx.language) };
  const role = name as StepRole;
  return { tools: toolsForRole(all, role), model: modelFor(ctx.options.models, role), systemPrompt: subtaskPrompt(role, ctx.language) };
}

/**
 * The `delegate` tool of a direct run, offered when the task has custom roles: it runs a sub-task
 * by one role with a fresh context (only the sub-task; the role's tools, prompt and tier; the
 * step turn limit) and hands back its `finish` summary. The sub-run's events go to the task's
 * stream between `delegate_started` and `delegate_finished`, so views show it nested under the call;
 * its tool calls go through the same approvals, checkpoints and budget as the task's own.
 */
export function delegateTool(ctx: FlowContext): AnyTool | undefined {
  const roles = ctx.options.roles ?? [];
  if (roles.length === 0) return undefined;
  const names = [...DELEGABLE, ...roles.map((r) => r.name)];
  const lines = [...DELEGABLE.map((r) => `- ${r} (built in)`), ...roles.map((r) => `- ${r.name}: ${r.description.replace(/\s+/g, ' ')}`)];
  return defineTool({
    name: DELEGATE_TOOL,
    description:
      'Hand a self-contained sub-task to a team member, who works on it with a fresh context (it sees only `task`) and its own tools, ' +
      `then returns a summary. Say exactly what to do and what to report back.\nMembers:\n${lines.join('\n')}`,
    category: 'meta',
    parameters: z.object({
      role: z.string().min(1).describe(`one of: ${names.join(', ')}`),
      task: z.string().min(1).describe('the sub-task, complete in itself'),
    }),
    async execute(args, context) {
      const custom = roles.find((r) => r.name === args.role);
      if (!custom && !DELEGABLE.includes(args.role as StepRole)) throw new ToolError(`No member named "${args.role}". Members: ${names.join(', ')}.`);
      const agent = subAgent(ctx, args.role, custom);
      context.emit({ type: 'delegate_started', callId: context.callId, role: args.role, task: args.task });
      const result = await runInner(ctx, { task: args.task, ...agent, maxTurns: ctx.limits.maxTurnsPerStep, toolChoice: 'required', signal: context.signal });
      const summary = result.summary?.trim() || result.reason || '(no summary)';
      context.emit({ type: 'delegate_finished', callId: context.callId, role: args.role, outcome: result.outcome, summary });
      const done = result.outcome === 'finished';
      return { content: done ? `${args.role} finished: ${summary}` : `${args.role} did not finish (${result.outcome}): ${summary}`, ...(done ? {} : { isError: true }) };
    },
  });
}

/** The direct run's tools with `delegate` added when there are custom roles. */
export function withDelegate(ctx: FlowContext): ToolRegistry {
  const tool = delegateTool(ctx);
  if (!tool) return ctx.options.tools;
  return new ToolRegistry([...ctx.options.tools.names().filter((n) => n !== DELEGATE_TOOL).map((n) => ctx.options.tools.get(n)!), tool]);
}
