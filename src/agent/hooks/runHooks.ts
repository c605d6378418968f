import type { AgentEvent } from '../../shared/events';
import type { CommandRunner } from '../ports';
import { DEFAULT_HOOK_TIMEOUT_S, matchingHooks, type HookEvent, type HookSource, type SourcedHook } from './hookConfig';
import { hookVerdict, type HookProcessResult } from './hookVerdict';

/** Output kept per hook stream: hooks talk in short JSON and reasons. */
const HOOK_OUTPUT_CHARS = 64 * 1024;

/** What a hook needs from the run: the one command runner (child environment, process-group kill, sandbox), where, whose session, the signal. */
export interface HookPorts {
  commands: CommandRunner;
  workspaceRoot: string;
  sessionId: string;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
}

/** The hooks of one event together: the first block wins (later hooks do not run); contexts add up. */
export interface HookOutcome {
  blocked?: string;
  context: string[];
}

const NOTHING: HookOutcome = { context: [] };

/**
 * Runs the hooks of `event` (for `toolName`, when the event is about a tool) one after the other,
 * each given the event as JSON on stdin: Claude Code's fields (`session_id`, `cwd`,
 * `hook_event_name`, `tool_name`, `tool_input`, `tool_response`, `prompt`) plus `workspace`.
 * A hook's failure (exit other than 0 or 2, timeout) is a warning notice, never a block: a broken
 * hook must not hold the task hostage; a block is a notice too, so the user sees who refused.
 */
export async function runHooks(sources: readonly HookSource[] | undefined, ports: HookPorts, event: HookEvent, fields: Record<string, unknown>, toolName?: string): Promise<HookOutcome> {
  const hooks = sources ? matchingHooks(sources, event, toolName) : [];
  if (hooks.length === 0) return NOTHING;
  const input = JSON.stringify({
    session_id: ports.sessionId,
    cwd: ports.workspaceRoot,
    workspace: ports.workspaceRoot,
    hook_event_name: event,
    ...(toolName !== undefined ? { tool_name: toolName } : {}),
    ...fields,
  });
  const context: string[] = [];
  for (const hook of hooks) {
    if (ports.signal.aborted) break;
    const timeoutS = hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S;
    const verdict = hookVerdict(event, await runOne(ports, hook, input, timeoutS), timeoutS);
    if (verdict.kind === 'error') {
      ports.emit({ type: 'notice', level: 'warning', code: 'hook', message: `${event} hook \`${hook.command}\` (${hook.source}) ${verdict.message}; the task goes on.` });
    } else if (verdict.kind === 'block') {
      ports.emit({ type: 'notice', level: 'warning', code: 'hook', message: `${event} hook \`${hook.command}\` (${hook.source}) blocked${toolName ? ` ${toolName}` : ''}: ${verdict.reason}` });
      return { blocked: verdict.reason, context };
    } else if (verdict.context) {
      context.push(verdict.context);
    }
  }
  return { context };
}

async function runOne(ports: HookPorts, hook: SourcedHook, input: string, timeoutS: number): Promise<HookProcessResult> {
  let stdout = '';
  let stderr = '';
  const result = await ports.commands.run({
    command: hook.command,
    cwd: ports.workspaceRoot,
    timeoutMs: Math.round(timeoutS * 1000),
    maxOutputChars: HOOK_OUTPUT_CHARS,
    signal: ports.signal,
    input,
    env: { CLAUDE_PROJECT_DIR: ports.workspaceRoot, STEPWISE_PROJECT_DIR: ports.workspaceRoot },
    onOutput: (chunk, stream) => {
      if (stream === 'stdout') stdout = (stdout + chunk).slice(-HOOK_OUTPUT_CHARS);
      else stderr = (stderr + chunk).slice(-HOOK_OUTPUT_CHARS);
    },
  });
  // A runner that could not start the shell says so in `output` only.
  if (result.exitCode === null && !result.timedOut && !result.cancelled && stdout === '' && stderr === '') stderr = result.output;
  return { exitCode: result.exitCode, stdout, stderr, timedOut: result.timedOut, cancelled: result.cancelled };
}
