import { runHooks, type HookPorts } from '../hooks/runHooks';
import type { FlowContext } from './flowContext';

/** The task's side of a hook: its command runner, workspace, run id as the session, the task's signal. */
function taskHookPorts(ctx: FlowContext): HookPorts {
  const o = ctx.options;
  return { commands: o.commands, workspaceRoot: o.workspace.root, sessionId: o.events.runId, signal: ctx.signal, emit: (event) => o.events.emit(event) };
}

/** Messages that came after the task's last turn: said, not silently dropped (the user can send them as a follow-up). */
export function tellUndelivered(ctx: FlowContext): void {
  const left = ctx.options.inbox?.take() ?? [];
  if (left.length === 0) return;
  const quoted = left.map((m) => `"${m.length > 200 ? `${m.slice(0, 200)}…` : m}"`).join(', ');
  ctx.options.events.emit({ type: 'notice', level: 'warning', code: 'other', message: `Your message ${quoted} arrived after the task's last turn and was not delivered; send it again as a follow-up.` });
}

/**
 * The hooks of a task's start, once per task (not per step): `SessionStart` (`source` startup or
 * resume), then `UserPromptSubmit` with the user's words when the run starts from a prompt. What
 * they print as context joins the task every part of the flow reads; a `UserPromptSubmit` block
 * is returned (the task does not run; the reason is the user's to read).
 */
export async function taskStartHooks(ctx: FlowContext, fromPrompt: boolean): Promise<string | undefined> {
  const o = ctx.options;
  if (!o.hooks) return undefined;
  const ports = taskHookPorts(ctx);
  const started = await runHooks(o.hooks, ports, 'SessionStart', { source: o.resumedFrom ? 'resume' : 'startup' });
  const submitted = fromPrompt ? await runHooks(o.hooks, ports, 'UserPromptSubmit', { prompt: o.task }) : { context: [] };
  if (submitted.blocked !== undefined) return submitted.blocked;
  const context = [...started.context, ...submitted.context];
  if (context.length) ctx.options = { ...o, task: `${o.task}\n\n# Context from your hooks\n${context.join('\n\n')}` };
  return undefined;
}
