import type { Approver, Asker } from '../agent/ports';
import type { EventEnvelope } from '../shared/events';
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
  /**
   * A server shell's person (`stepwise serve`, `acp`): asked instead of the terminal, still behind
   * the core's `PolicyApprover` (the policy decides first, as on a terminal).
   */
  approver?: Approver;
  /** A server shell's answerer of `ask_user`, instead of the terminal. */
  asker?: Asker;
  /** A server shell's listener: each envelope `--json` would print, given instead of printed. */
  onEnvelope?: (envelope: EventEnvelope) => void;
  /** The process's stdin, read only with `--input stream-json` (messages for the running task). */
  stdin?: NodeJS.ReadableStream;
}

/** Exit codes of `stepwise`: a run's outcome maps through the shared outcome classes (`exitCodeForOutcome`); the rest are the CLI's own. */
export const EXIT = { finished: 0, failed: 1, usage: 2, incomplete: 3, conflict: 4, cancelled: 130 } as const;
