import { z } from 'zod';
import { flowUsage, type FlowContext } from './flowContext';
import { modelFor } from './modelTiers';
import { structuredCall } from './structuredCall';

/** The coordinator's decision: answer with one agent, or plan a team's steps. */
export const Route = z.object({
  mode: z.enum(['direct', 'plan']),
  reason: z.string(),
});
export type Route = z.infer<typeof Route>;

/** The coordinator's system prompt (kept tiny: this call should cost a few hundred tokens). */
export const COORDINATOR_PROMPT = [
  'You route requests for a coding agent working in the user\'s workspace. Call `route` once.',
  '- `direct`: a question, an explanation, or a small change one agent can do in a few actions (one file, one command).',
  '- `plan`: work with several distinct parts: investigate then change then document, several files or features, a written report.',
  'Give a one-sentence reason.',
].join('\n');

/**
 * Decides `direct` or `plan` with one cheap call (basic tier). `planMode` `always` / `never`
 * decide without a call. An unusable answer (after one retry) routes `direct`: the plain agent is
 * the safe default.
 */
export async function routeTask(ctx: FlowContext): Promise<Route> {
  const mode = ctx.options.planMode;
  if (mode === 'always') return { mode: 'plan', reason: 'planning was requested' };
  if (mode === 'never') return { mode: 'direct', reason: 'planning is off' };
  const result = await structuredCall({
    model: modelFor(ctx.options.models, 'coordinator'),
    system: COORDINATOR_PROMPT,
    user: ctx.options.task,
    choices: { route: { description: 'Route the request: direct or plan.', schema: Route } },
    signal: ctx.signal,
    maxRetries: 1,
    maxOutputTokens: 200,
    onUsage: flowUsage(ctx),
    tokenCounter: ctx.options.tokenCounter,
  });
  if (result.ok) return result.value;
  ctx.options.logger.warn(`coordinator answer unusable: ${result.error}`);
  return { mode: 'direct', reason: `the coordinator's answer was unusable (${result.error})` };
}
