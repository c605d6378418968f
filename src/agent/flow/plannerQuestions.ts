import { z } from 'zod';
import { throwIfAborted } from '../errors';
import type { FlowContext } from './flowContext';

/** Questions the planner may ask at most, once, before it plans. */
export const MAX_PLANNER_QUESTIONS = 3;

/** The planner's `ask_user` call: why it asks, and up to three questions, each with options to pick from. */
export const PlannerQuestions = z.object({
  why: z.string().min(1).describe('what in the request is ambiguous and how the answer changes the plan'),
  questions: z
    .array(z.object({ question: z.string().min(1), options: z.array(z.string().min(1)).max(6).optional().describe('answers to pick from') }))
    .min(1)
    .describe(`at most ${MAX_PLANNER_QUESTIONS}; extra ones are not asked`),
});
export type PlannerQuestions = z.infer<typeof PlannerQuestions>;

/** Added to the planner's prompt when it may ask (the first planning call of a task). */
export const ASK_BEFORE_PLANNING =
  `If, and only if, the request is ambiguous in a way that changes the plan (which of two approaches, what is in scope, what counts as done), call \`ask_user\` once with up to ${MAX_PLANNER_QUESTIONS} short questions, each with options. Do not ask what reading the workspace would tell, and never ask when the request is clear: then call \`create_plan\` at once.`;

/**
 * Asks the user the planner's questions (at most `MAX_PLANNER_QUESTIONS`), one after the other,
 * each as a `question_asked` / `question_answered` pair on the timeline; the time waited is the
 * user's (the wait ledger). Returns the section the planner then plans from: the answers, or that
 * nobody could answer (headless) and it must plan on stated assumptions.
 */
export async function askPlannerQuestions(ctx: FlowContext, asked: PlannerQuestions): Promise<string> {
  const o = ctx.options;
  const lines: string[] = [];
  let answered = 0;
  for (const [index, { question, options }] of asked.questions.slice(0, MAX_PLANNER_QUESTIONS).entries()) {
    const callId = `planner-question-${index + 1}`;
    const choices = options?.length ? options : undefined;
    o.events.emit({ type: 'question_asked', callId, question, ...(choices ? { options: choices } : {}) });
    const answer = await ctx.waits.measure(() => o.asker.ask({ callId, question, ...(choices ? { options: choices } : {}) }, ctx.signal));
    throwIfAborted(ctx.signal);
    o.events.emit({ type: 'question_answered', callId, ...(answer !== undefined ? { answer } : {}) });
    if (answer !== undefined) answered++;
    lines.push(`Q: ${question}\nA: ${answer === undefined ? '(no answer)' : answer.trim() || '(an empty answer)'}`);
  }
  const heading = answered > 0 ? '# The user\'s answers to your questions' : '# Nobody could answer your questions: plan with your best judgment and state your assumptions in the thought';
  return `${heading}\n${lines.join('\n\n')}`;
}
