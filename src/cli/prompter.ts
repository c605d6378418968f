import { createInterface } from 'node:readline/promises';
import { CancelledError } from '../agent/errors';

/** Asks one line of input on a terminal. */
export interface Prompter {
  ask(prompt: string, signal: AbortSignal): Promise<string>;
}

/** A prompter on the process's TTY; each question opens and closes its own readline. */
export function ttyPrompter(input: NodeJS.ReadStream, output: NodeJS.WriteStream): Prompter {
  return {
    async ask(prompt, signal) {
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
