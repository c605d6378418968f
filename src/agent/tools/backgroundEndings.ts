import type { AgentEvent } from '../../shared/events';
import type { BackgroundEnding, CommandRunner } from '../ports';

/** One command of the task that the user sent to the background, and how it ended later. */
export interface EndedCommand extends BackgroundEnding {
  callId: string;
  command: string;
}

/**
 * The task's background commands that ended and the model was not told of yet. Its call returned
 * long ago saying the command goes on, so without this the model would go on believing it runs (or
 * that it succeeded). One per task, shared by its runs; the loop takes the endings before each model call.
 */
export class BackgroundEndings {
  private ended: EndedCommand[] = [];

  /** Notes an ending (from the runner, or from a stored history between runs). */
  record(ending: EndedCommand): void {
    this.ended.push(ending);
  }

  /** The runner as the task sees it: each of its commands that later ends in the background is recorded here, the request's own listener still told. */
  watch(commands: CommandRunner): CommandRunner {
    return {
      sandboxMode: () => commands.sandboxMode(),
      ...(commands.shell ? { shell: () => commands.shell!() } : {}),
      run: (request) => {
        const callId = request.id;
        if (callId === undefined) return commands.run(request);
        return commands.run({
          ...request,
          onBackgroundEnd: (ending) => {
            this.record({ callId, command: request.command, ...ending });
            request.onBackgroundEnd?.(ending);
          },
        });
      },
    };
  }

  /** The note telling the model what ended since it was last told, once; `undefined` when nothing did. */
  takeNote(): string | undefined {
    if (this.ended.length === 0) return undefined;
    const lines = this.ended.map((e) => `- \`${oneLine(e.command)}\` (call ${e.callId}): ${endingWords(e)}`);
    this.ended = [];
    return `Commands the user left running in the background have ended since (your earlier results said they were still running):\n${lines.join('\n')}`;
  }
}

/**
 * Background endings a stored task recorded after the model's last turn (`command_ended` after the
 * last `turn_started`): the model was never told of them, so a follow-up tells it first.
 */
export function untoldEndings(events: readonly AgentEvent[]): EndedCommand[] {
  const lastTurn = events.findLastIndex((e) => e.type === 'turn_started');
  const commands = new Map<string, string>();
  const ended: EndedCommand[] = [];
  events.forEach((event, i) => {
    if (event.type === 'tool_call') {
      const args = event.args as { command?: unknown } | undefined;
      if (typeof args?.command === 'string') commands.set(event.callId, args.command);
    } else if (event.type === 'command_ended' && i > lastTurn) {
      ended.push({ callId: event.callId, command: commands.get(event.callId) ?? '(command)', exitCode: event.exitCode, stopped: event.stopped });
    }
  });
  return ended;
}

/** An ending as the model reads it: the exit code, failed when not 0. */
export function endingWords(ending: BackgroundEnding): string {
  if (ending.stopped) return 'stopped by the user';
  if (ending.exitCode === null) return 'failed: killed by a signal';
  return ending.exitCode === 0 ? 'exited with code 0' : `failed: exit code ${ending.exitCode}`;
}

function oneLine(command: string): string {
  const line = command.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
