import { runHooks, type HookPorts } from '../hooks/runHooks';
import type { ModelToolCall } from '../model/types';
import type { ToolResult } from '../tools/tool';
import type { RunSession } from './runSession';

/** The run's side of a hook: the task's command runner, the workspace, the run id as the session. */
export function hookPorts(run: RunSession): HookPorts {
  const o = run.options;
  return { commands: o.commands, workspaceRoot: o.workspace.root, sessionId: o.events.runId, signal: o.signal, emit: run.emit };
}

/** PreToolUse: the refusal the model reads when a hook blocks the call (it never runs), else undefined. */
export async function toolBlockedByHook(run: RunSession, call: ModelToolCall, args: unknown): Promise<ToolResult | undefined> {
  if (!run.options.hooks) return undefined;
  const outcome = await runHooks(run.options.hooks, hookPorts(run), 'PreToolUse', { tool_input: args, tool_use_id: call.id }, call.name);
  if (outcome.blocked === undefined) return undefined;
  return { content: `Blocked by the user's PreToolUse hook; the call did not run. The hook said:\n${outcome.blocked}`, isError: true };
}

/** PostToolUse: the result with what the hooks said to the model (a block's reason, added context) appended. */
export async function afterToolHooks(run: RunSession, call: ModelToolCall, args: unknown, result: ToolResult): Promise<ToolResult> {
  if (!run.options.hooks) return result;
  const response = { content: run.options.events.redactText(result.content), isError: result.isError === true, ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}) };
  const outcome = await runHooks(run.options.hooks, hookPorts(run), 'PostToolUse', { tool_input: args, tool_response: response, tool_use_id: call.id }, call.name);
  const said = [...(outcome.blocked !== undefined ? [`The user's PostToolUse hook objected:\n${outcome.blocked}`] : []), ...outcome.context.map((c) => `PostToolUse hook: ${c}`)];
  return said.length === 0 ? result : { ...result, content: `${result.content}\n\n${said.join('\n\n')}` };
}
