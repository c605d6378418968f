import { z } from 'zod';
import { defineTool } from '../tool';

/** Arguments of `finish`. */
export const FinishArgs = z.object({
  summary: z.string().min(1).describe('what was done and how it was checked'),
});
export type FinishArgs = z.infer<typeof FinishArgs>;

/** `finish`: ends the run with the summary the user will read. */
export const finishTool = defineTool({
  name: 'finish',
  description: 'End the task when it is done (or cannot be done), with a summary for the user.',
  category: 'meta',
  parameters: FinishArgs,
  async execute(args) {
    return { content: 'Finished.', finish: { summary: args.summary } };
  },
});
