import { z } from 'zod';
import { throwIfAborted } from '../../errors';
import { defineTool } from '../tool';

/** Arguments of `ask_user`. */
export const AskUserArgs = z.object({
  question: z.string().min(1),
  options: z.array(z.string()).optional().describe('suggested answers'),
});
export type AskUserArgs = z.infer<typeof AskUserArgs>;

/** What the model is told when nobody can answer (headless run, no TTY). */
export const NO_USER_ANSWER = 'No user is available to answer; proceed with your best judgment and state your assumption.';

/**
 * `ask_user`: asks the user a question through the Asker, emitting `question_asked` and
 * `question_answered`; the answer is the result, or `NO_USER_ANSWER` when nobody can answer.
 */
export const askUserTool = defineTool({
  name: 'ask_user',
  description: 'Ask the user a question when you cannot proceed without their decision.',
  category: 'meta',
  parameters: AskUserArgs,
  async execute(args, context) {
    const options = args.options?.length ? args.options : undefined;
    context.emit({ type: 'question_asked', callId: context.callId, question: args.question, ...(options ? { options } : {}) });
    const answer = await context.asker.ask({ callId: context.callId, question: args.question, ...(options ? { options } : {}) }, context.signal);
    throwIfAborted(context.signal);
    context.emit({ type: 'question_answered', callId: context.callId, ...(answer !== undefined ? { answer } : {}) });
    if (answer === undefined) return { content: NO_USER_ANSWER };
    return { content: answer.trim() === '' ? 'The user answered with an empty message.' : `The user answered: ${answer}` };
  },
});
