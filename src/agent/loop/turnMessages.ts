import { runHooks } from '../hooks/runHooks';
import { inboxNote } from './messageInbox';
import type { RunSession } from './runSession';
import { hookPorts } from './toolHooks';

/** Times in a row a Stop hook may send the agent back to work before its objection is only a notice (no endless loop). */
export const MAX_STOP_HOOK_CONTINUES = 3;

/**
 * Delivers the user's queued messages at a turn boundary (before the model is asked, never inside
 * a tool call): one user message in the conversation, and a `user_message` event per message,
 * where the timeline shows it delivered.
 */
export function deliverMessages(run: RunSession): void {
  const messages = run.options.inbox?.take() ?? [];
  if (messages.length === 0) return;
  for (const text of messages) run.emit({ type: 'user_message', text, delivered: 'turn' });
  run.messages.push({ role: 'user', content: inboxNote(messages) });
}

/**
 * Whether the run goes on instead of ending as finished: a message waits for the agent, or a Stop
 * hook blocked the stop (exit 2; its reason joins the conversation for the model), at most
 * `MAX_STOP_HOOK_CONTINUES` times in a row, as Claude Code's `stop_hook_active` guards against.
 */
export async function keepGoing(run: RunSession, state: { stopHookContinues: number }): Promise<boolean> {
  if ((run.options.inbox?.size ?? 0) > 0) return true;
  // Stop is the user's own agent's (Claude Code's): a plan step is a subagent and ends as its role decides.
  if (!run.options.hooks || !run.options.mainAgent) return false;
  const outcome = await runHooks(run.options.hooks, hookPorts(run), 'Stop', { stop_hook_active: state.stopHookContinues > 0 });
  if (outcome.blocked === undefined || state.stopHookContinues >= MAX_STOP_HOOK_CONTINUES) return false;
  state.stopHookContinues++;
  run.messages.push({ role: 'user', content: `The user's Stop hook did not let the task end yet. It said:\n${outcome.blocked}` });
  return true;
}
