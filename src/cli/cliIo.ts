import type { Prompter } from './prompter';

/** The process around the CLI, injectable for tests. */
export interface CliIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  /** Present only when a person can answer on a terminal. */
  prompter?: Prompter;
  signal: AbortSignal;
  /** The process's stdin, read only with `--input stream-json` (messages for the running task). */
  stdin?: NodeJS.ReadableStream;
}

/** Exit codes of `stepwise`: a run's outcome maps through the shared outcome classes (`exitCodeForOutcome`); the rest are the CLI's own. */
export const EXIT = { finished: 0, failed: 1, usage: 2, incomplete: 3, conflict: 4, cancelled: 130 } as const;
