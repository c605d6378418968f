import { z } from 'zod';
import { CancelledError, throwIfAborted } from '../../errors';
import { truncateHeadTail } from '../../context/truncate';
import type { CommandResult } from '../../ports';
import { defineTool, type ToolResult } from '../tool';
import { rejectionResult } from './rejection';
import { SANDBOX_BLOCKED } from '../../../shared/sandboxModes';

/** Default and maximum time a command may run, in seconds. */
export const COMMAND_DEFAULT_TIMEOUT_S = 120;
export const COMMAND_MAX_TIMEOUT_S = 1800;
/** Output kept per command (head + tail). */
export const COMMAND_MAX_OUTPUT_CHARS = 30_000;
const MAX_TITLE_CHARS = 80;

/** Arguments of `run_command`. */
export const RunCommandArgs = z.object({
  command: z.string().min(1),
  timeout_seconds: z.number().int().min(1).max(COMMAND_MAX_TIMEOUT_S).optional().describe(`default ${COMMAND_DEFAULT_TIMEOUT_S}`),
  outside_sandbox: z.boolean().optional().describe('run outside the sandbox (only after it blocked the command; a person is asked)'),
  reason: z.string().optional().describe('with outside_sandbox: why the command must leave the sandbox'),
});
export type RunCommandArgs = z.infer<typeof RunCommandArgs>;

/** The one-line approval title: "Run `npm test`", shortened when long. */
function title(command: string): string {
  const oneLine = command.replace(/\s*\n\s*/g, ' ').trim();
  return `Run \`${oneLine.length > MAX_TITLE_CHARS ? `${oneLine.slice(0, MAX_TITLE_CHARS - 3)}...` : oneLine}\``;
}

/** The first line of a command the user stopped alone: the model learns why, and that the task goes on. */
export const STOPPED_BY_USER = 'stopped by the user (this command only; its processes were killed). The task goes on: do not run it again unless the user asks.';

/** What the model reads when the user let the command run in the background. */
function backgroundResult(result: CommandResult, pid: number): ToolResult {
  const capped = truncateHeadTail(result.output, COMMAND_MAX_OUTPUT_CHARS);
  const output = capped.text.trim() === '' ? '(no output yet)' : capped.text.trimEnd();
  return {
    content: `still running in the background (pid ${pid}) after ${Math.round(result.durationMs / 1000)}s, at the user's request. ` +
      `It keeps running until the task ends (the user may keep it longer); do not start it again. Output so far:\n${output}`,
    background: true,
  };
}

/**
 * What the sandbox did, after the first line: each note ("blocked by the sandbox: write outside the
 * workspace"), and how to ask to run outside when something was blocked.
 */
function sandboxLine(result: CommandResult): string {
  const notes = result.sandbox?.notes ?? [];
  if (notes.length === 0) return '';
  const blocked = notes.some((n) => n.startsWith(SANDBOX_BLOCKED));
  const ask = blocked ? ' If the command must do this, run it again with outside_sandbox: true and a reason; a person decides.' : '';
  return `\n[sandbox ${result.sandbox!.mode}] ${notes.join('; ')}.${ask}`;
}

/** How the command ended, as the first line of the result. */
function outcome(result: CommandResult, timeoutS: number): string {
  if (result.timedOut) return `timed out after ${timeoutS}s; the process was killed`;
  if (result.exitCode === null && result.signal === null) return 'not run';
  if (result.exitCode === null) return `killed by signal ${result.signal ?? 'unknown'}`;
  return `exit code ${result.exitCode}`;
}

/**
 * `run_command`: runs a shell command in the workspace folder after approval, streaming its output
 * as `tool_output` events. The result starts with `exit code N` (or the timeout / signal), then
 * the output, head and tail kept. A non-zero exit is a normal result for the model to read; a
 * timeout is an error result; cancellation throws `CancelledError`. The user may stop this command
 * alone (a `stopped` result saying so; the run goes on) or let it run in the background (the result
 * holds the output so far and says it keeps running; `settleBackgroundCommands` ends it with the task).
 */
export const runCommandTool = defineTool({
  name: 'run_command',
  description: 'Run a shell command in the workspace folder (non-interactive, no stdin) and return its exit code and output.',
  category: 'command',
  parameters: RunCommandArgs,
  async execute(args, context) {
    const cwd = context.workspace.root;
    const mode = context.commands.sandboxMode();
    const leave = mode !== 'off' && args.outside_sandbox === true;
    if (leave && !args.reason?.trim()) return { content: 'outside_sandbox needs a reason: say what the sandbox blocked and why the command must run outside it.', isError: true };
    const sandbox = mode === 'off' ? undefined : { mode, ...(leave ? { leaveReason: args.reason!.trim() } : {}) };
    // The policy reads the command in the language of the shell that will run it (cmd.exe, PowerShell, POSIX).
    const shell = await context.commands.shell?.().catch(() => undefined);
    const command = { text: args.command, cwd, ...(shell ? { shell: shell.dialect } : {}) };
    const detail = `${args.command}\n\ncwd: ${cwd}${shell ? `\nshell: ${shell.name}` : ''}${leave ? `\n\nOutside the sandbox (${mode}): ${args.reason!.trim()}` : ''}`;
    const decision = await context.requestApproval({ category: 'command', title: leave ? `${title(args.command)} outside the sandbox` : title(args.command), detail, command, ...(sandbox ? { sandbox } : {}) });
    if (!decision.approved) return rejectionResult(leave ? 'running the command outside the sandbox (it did not run)' : 'the command (it did not run)', decision);
    throwIfAborted(context.signal);
    const timeoutS = args.timeout_seconds ?? COMMAND_DEFAULT_TIMEOUT_S;
    const result = await context.commands.run({
      command: args.command,
      cwd,
      timeoutMs: timeoutS * 1000,
      maxOutputChars: COMMAND_MAX_OUTPUT_CHARS,
      signal: context.signal,
      id: context.callId,
      onOutput: (chunk, stream) => context.emit({ type: 'tool_output', callId: context.callId, stream, chunk }),
      ...(leave ? { outsideSandbox: true } : {}),
    });
    if (result.background) return backgroundResult(result, result.background.pid);
    if (result.cancelled || (context.signal.aborted && !result.stoppedByUser)) throw new CancelledError();
    // The runner caps the output; cap again in case an adapter kept more than asked.
    const capped = truncateHeadTail(result.output, COMMAND_MAX_OUTPUT_CHARS);
    const omitted = result.omittedChars + capped.omittedChars;
    const head = outcome(result, timeoutS) + (omitted > 0 ? ` (${omitted} characters of output omitted from the middle)` : '');
    const output = capped.text.trim() === '' ? '(no output)' : capped.text.trimEnd();
    if (result.stoppedByUser) return { content: `${STOPPED_BY_USER}\n${output}`, stopped: true, exitCode: null };
    return { content: `${head}${sandboxLine(result)}\n${output}`, isError: result.timedOut || undefined, exitCode: result.exitCode };
  },
});
