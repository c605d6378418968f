import { truncateHeadTail } from '../context/truncate';
import type { EventStream } from '../events/eventStream';
import type { CommandRunner } from '../ports';
import type { Evidence } from './evidence';

/** `auto`: tell the agent the check, ask for it once at `finish`, run configured checks; `off`: nothing. */
export type VerifyMode = 'auto' | 'off';

/** The user's verification settings (`stepwise.verify.*`, CLI `--verify` / `--verify-mode`). */
export interface VerifySettings {
  mode: VerifyMode;
  /** Checks Stepwise runs itself at `finish` when files changed. */
  commands: readonly string[];
}

/** The answer to a `finish` call: let it end the run, or send this note back instead. */
export type FinishVerdict = { accept: true } | { accept: false; content: string };

/** Rounds a failing configured check is fed back before the task ends `unverified`. */
export const MAX_VERIFY_ROUNDS = 3;
const CHECK_TIMEOUT_MS = 10 * 60_000;
const CHECK_OUTPUT_CHARS = 8_000;

/** What the verifier runs checks through. */
export interface VerifierPorts {
  commands: CommandRunner;
  root: string;
  events: EventStream;
}

/**
 * Decides whether a `finish` may end the run. When the task changed files: configured checks that
 * did not pass after the last change are run; a failure is sent back with its output (at most
 * `MAX_VERIFY_ROUNDS` times, then the finish is accepted; the failed runs are evidence, so the task ends unverified).
 * Without configured checks, the first `finish` after a change with no check since is answered
 * with a note naming the workspace's check; the next is accepted. Mode `off` accepts at once.
 */
export class Verifier {
  private failures = 0;
  private nudged = false;
  /** The configured checks failed `MAX_VERIFY_ROUNDS` times: finish is accepted, the ending says `unverified` from the evidence. */
  private gaveUp = false;

  constructor(
    private readonly settings: VerifySettings,
    private readonly evidence: Evidence,
    private readonly ports: VerifierPorts,
    /** The workspace's detected check, when no command is configured. */
    private readonly detected: string | undefined,
  ) {}

  /** A note for the agent's context naming the check, or `undefined` when there is nothing to say. */
  contextNote(): string | undefined {
    if (this.settings.mode === 'off') return undefined;
    if (this.settings.commands.length) {
      return `Checks: ${this.settings.commands.map((c) => `\`${c}\``).join(', ')}. Stepwise runs them when you call finish after changing files; a failure comes back to you to fix.`;
    }
    if (this.detected) return `This workspace's check is \`${this.detected}\`: after changing files, run it before you call finish.`;
    return undefined;
  }

  /** Judges one `finish` call. Throws only for cancellation (from the command runner). */
  async judge(signal: AbortSignal): Promise<FinishVerdict> {
    if (this.settings.mode === 'off' || !this.evidence.changedFiles || this.gaveUp) return { accept: true };
    if (this.settings.commands.length) return this.runConfigured(signal);
    if (this.nudged || !this.detected || this.evidence.checksAfterLastChange().length) return { accept: true };
    this.nudged = true;
    return {
      accept: false,
      content: `Not finished yet: files changed and no check ran after the last change. Run \`${this.detected}\`, or call finish again and say why it cannot be run.`,
    };
  }

  private async runConfigured(signal: AbortSignal): Promise<FinishVerdict> {
    const failed: string[] = [];
    for (const command of this.settings.commands) {
      if (this.evidence.passedAfterLastChange(command)) continue;
      this.ports.events.emit({ type: 'notice', level: 'info', code: 'other', message: `Running the check \`${command}\`…` });
      const result = await this.ports.commands.run({ command, cwd: this.ports.root, timeoutMs: CHECK_TIMEOUT_MS, maxOutputChars: CHECK_OUTPUT_CHARS * 4, signal });
      const exit = result.timedOut ? null : result.exitCode;
      this.evidence.recordCheck(command, exit);
      const how = result.timedOut ? 'timed out' : `exit code ${result.exitCode ?? `signal ${result.signal}`}`;
      this.ports.events.emit({ type: 'notice', level: exit === 0 ? 'info' : 'warning', code: 'other', message: `Check \`${command}\`: ${how}.` });
      if (exit !== 0) failed.push(`$ ${command}\n${how}\n${truncateHeadTail(result.output.trimEnd(), CHECK_OUTPUT_CHARS).text}`);
    }
    if (!failed.length) return { accept: true };
    this.failures++;
    if (this.failures >= MAX_VERIFY_ROUNDS) {
      this.gaveUp = true;
      return { accept: true };
    }
    return {
      accept: false,
      content: `Not finished: a check failed (round ${this.failures} of ${MAX_VERIFY_ROUNDS}). Fix the cause, then call finish again.\n\n${failed.join('\n\n')}`,
    };
  }
}
