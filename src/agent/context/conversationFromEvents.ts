import { IMAGES_SECTION, withAttachedSection } from '../../shared/attachedContext';
import type { AgentEvent } from '../../shared/events';
import type { ChatMessage } from '../model/types';
import { repairToolPairing } from './messageHistory';
import { inboxNote } from '../loop/messageInbox';

/**
 * Rebuilds a conversation from stored events, to resume it: each run's task as a user message,
 * each assistant message with its tool calls, each tool result; a run's summary closes it when its
 * last message was not the assistant's. Pairing is repaired by `repairToolPairing` (the one rule):
 * calls without a result get an error result, results of unknown calls are dropped.
 */
export function conversationFromEvents(events: readonly AgentEvent[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  // A delegated sub-run had its own fresh context: its messages are not this conversation's.
  let nested = 0;
  for (const event of events) {
    if (event.type === 'delegate_started' || event.type === 'delegate_finished') {
      nested = Math.max(0, nested + (event.type === 'delegate_started' ? 1 : -1));
      continue;
    }
    if (nested > 0) continue;
    switch (event.type) {
      case 'run_started':
        messages.push({ role: 'user', content: event.task });
        break;
      case 'task_images': {
        // The task the model worked from carried the images' description: so does the resumed one.
        const last = messages.at(-1);
        if (last?.role === 'user') messages[messages.length - 1] = { ...last, content: withAttachedSection(last.content, IMAGES_SECTION, event.section) };
        break;
      }
      case 'assistant_message':
        messages.push({
          role: 'assistant',
          content: event.text,
          ...(event.toolCalls.length ? { toolCalls: event.toolCalls } : {}),
          // Providers that need their reasoning back (DeepSeek's thinking mode) get it on resume too.
          ...(event.thinking ? { reasoning: event.thinking } : {}),
        });
        break;
      case 'tool_result':
        messages.push({ role: 'tool', toolCallId: event.callId, name: event.name, content: event.content, ...(event.isError ? { isError: true } : {}) });
        break;
      case 'user_message':
        // A message the user sent while the run went on was part of the conversation (a plan's went to its updater).
        if (event.delivered === 'turn') messages.push({ role: 'user', content: inboxNote([event.text]) });
        break;
      case 'run_finished':
        if (event.summary && messages.at(-1)?.role !== 'assistant') messages.push({ role: 'assistant', content: event.summary });
        break;
      default:
        break;
    }
  }
  return repairToolPairing(messages);
}
