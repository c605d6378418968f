import type { CommandRequest, CommandResult, CommandRunner } from '../../../agent/ports';
import type { SandboxMode } from '../../../shared/sandboxModes';
import type { ShellInfo } from '../../../agent/shellInfo';

/** Where commands are mirrored (the Stepwise terminal in VS Code). */
export interface CommandMirror {
  commandStarted(command: string): void;
  output(chunk: string, stream: 'stdout' | 'stderr'): void;
  commandFinished(line: string): void;
}

/** How a command ended, in one line for the terminal. */
export function describeResult(result: CommandResult): string {
  if (result.background) return `[still running in the background, pid ${result.background.pid}]`;
  if (result.stoppedByUser) return `[stopped by the user after ${result.durationMs} ms]`;
  if (result.cancelled) return `[stopped after ${result.durationMs} ms]`;
  if (result.timedOut) return `[timed out after ${result.durationMs} ms]`;
  if (result.signal) return `[killed by ${result.signal}]`;
  return `[exit code ${result.exitCode ?? '?'} in ${result.durationMs} ms]`;
}

/**
 * A CommandRunner that runs through another runner (execa: process-tree kill on stop) and mirrors
 * each command and its output live into the Stepwise terminal.
 */
export class MirroringCommandRunner implements CommandRunner {
  constructor(
    private readonly inner: CommandRunner,
    private readonly terminal: CommandMirror,
  ) {}

  /** The inner runner's sandbox. */
  sandboxMode(): SandboxMode {
    return this.inner.sandboxMode();
  }

  /** The inner runner's shell (the model is told it; the policy reads commands in its syntax). */
  shell(): Promise<ShellInfo> {
    return this.inner.shell ? this.inner.shell() : Promise.reject(new Error('the inner runner does not name its shell'));
  }

  async run(request: CommandRequest): Promise<CommandResult> {
    this.terminal.commandStarted(request.command);
    try {
      const result = await this.inner.run({
        ...request,
        onOutput: (chunk, stream) => {
          this.terminal.output(chunk, stream);
          request.onOutput?.(chunk, stream);
        },
      });
      this.terminal.commandFinished(describeResult(result));
      return result;
    } catch (error) {
      this.terminal.commandFinished('[failed to run]');
      throw error;
    }
  }
}
