import type * as Readline from 'node:readline/promises';
import { CancelledError } from '../agent/errors';

/** Asks one line of input on a terminal. */
export interface Prompter {
  ask(prompt: string, signal: AbortSignal): Promise<string>;
}

/** A prompter on the process's TTY; each question opens and closes its own readline. */
export function ttyPrompter(input: NodeJS.ReadStream, output: NodeJS.WriteStream): Prompter {
  return {
    async ask(prompt, signal) {
      // Loaded on the first question, not at the CLI's start (most commands never ask).
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
      const { createInterface } = require('node:readline/promises') as typeof Readline;
      const rl = createInterface({ input, output, terminal: true });
      try {
        return await rl.question(prompt, { signal });
      } catch (error) {
        if (signal.aborted) throw new CancelledError();
        throw error;
      } finally {
        rl.close();
      }
    },
  };
}
