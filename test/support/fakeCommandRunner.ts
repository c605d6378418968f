import type { SandboxMode } from '../../src/shared/sandboxModes';
import { truncateHeadTail } from '../../src/agent/context/truncate';
import type { CommandRequest, CommandResult, CommandRunner } from '../../src/agent/ports';

/** One scripted command: what it prints and how it ends. */
export interface ScriptedCommand {
  /** Which command this answers (exact string or RegExp); unset answers the next command in order. */
  match?: string | RegExp;
  output?: Array<{ stream: 'stdout' | 'stderr'; chunk: string }>;
  exitCode?: number;
  /** Ends by this signal (exitCode becomes null). */
  signal?: string;
  /** Ends as if it ran past its timeout. */
  timedOut?: boolean;
  /** Prints its output, then runs until the request's signal aborts (then reports `cancelled`). */
  hang?: boolean;
}

/**
 * A `CommandRunner` that plays a script instead of starting processes: each request takes the
 * first unused entry that matches it, streams its chunks through `onOutput`, and resolves with
 * the scripted ending; output is capped head + tail like the real runner. An unscripted command
 * fails the test loudly. Every request is kept in `requests`.
 */
export class FakeCommandRunner implements CommandRunner {
  readonly requests: CommandRequest[] = [];
  private readonly pending: ScriptedCommand[];

  constructor(script: ScriptedCommand[] = [], private readonly sandbox: SandboxMode = 'off') {
    this.pending = [...script];
  }

  /** The sandbox mode given to the constructor (`off` by default). */
  sandboxMode(): SandboxMode {
    return this.sandbox;
  }

  async run(request: CommandRequest): Promise<CommandResult> {
    this.requests.push(request);
    const index = this.pending.findIndex(
      (entry) => entry.match === undefined || (typeof entry.match === 'string' ? entry.match === request.command : entry.match.test(request.command)),
    );
    if (index < 0) throw new Error(`FakeCommandRunner: no scripted answer for \`${request.command}\``);
    const entry = this.pending.splice(index, 1)[0]!;
    let output = '';
    for (const { stream, chunk } of entry.output ?? []) {
      if (request.signal.aborted) break;
      output += chunk;
      request.onOutput?.(chunk, stream);
      await Promise.resolve();
    }
    if (entry.hang && !request.signal.aborted) {
      await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
    }
    const cancelled = request.signal.aborted;
    const capped = truncateHeadTail(output, request.maxOutputChars);
    const killedBy = entry.signal ?? (cancelled || entry.timedOut ? 'SIGTERM' : null);
    return {
      exitCode: killedBy ? null : (entry.exitCode ?? 0),
      signal: killedBy,
      timedOut: entry.timedOut ?? false,
      cancelled,
      output: capped.text,
      omittedChars: capped.omittedChars,
      durationMs: 1,
    };
  }
}
