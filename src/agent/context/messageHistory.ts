import type { ChatMessage } from '../model/types';

/** Content given to a tool call that has no recorded answer (the run stopped before it ran). */
export const MISSING_RESULT = 'no result recorded: the run stopped before this call completed';

/**
 * Makes a conversation valid for a chat API: every assistant tool call is answered by exactly one
 * `tool` message right after it (missing answers are added, in call order), and `tool` messages
 * that answer nothing are dropped. Returns the input array itself when it is already valid.
 */
export function repairToolPairing(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let changed = false;
  let index = 0;
  while (index < messages.length) {
    const message = messages[index++]!;
    if (message.role === 'tool') {
      changed = true; // an orphan: its assistant message is not right before it
      continue;
    }
    out.push(message);
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    const answers = new Map<string, ChatMessage>();
    const order: ChatMessage[] = [];
    while (index < messages.length && messages[index]!.role === 'tool') {
      const answer = messages[index++] as Extract<ChatMessage, { role: 'tool' }>;
      order.push(answer);
      if (!answers.has(answer.toolCallId)) answers.set(answer.toolCallId, answer);
    }
    const expected = message.toolCalls.map((call) => answers.get(call.id) ?? missingAnswer(call.id, call.name));
    if (expected.length !== order.length || expected.some((answer, i) => answer !== order[i])) changed = true;
    out.push(...expected);
  }
  return changed ? out : (messages as ChatMessage[]);
}

function missingAnswer(toolCallId: string, name: string): ChatMessage {
  return { role: 'tool', toolCallId, name, content: MISSING_RESULT, isError: true };
}

/** Index of the first message of the last `turns` assistant turns (an assistant message and its tool answers). */
export function recentTurnsStart(messages: readonly ChatMessage[], turns: number): number {
  if (turns <= 0) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'assistant' && ++seen === turns) return i;
  }
  const first = messages.findIndex((m) => m.role === 'assistant');
  return first < 0 ? messages.length : first;
}

/** The conversation a run starts from: system prompt, earlier messages (their system prompts dropped), pinned ones, the task. */
export function initialConversation(input: {
  systemPrompt: string;
  history?: readonly ChatMessage[];
  pinned?: readonly ChatMessage[];
  task: string;
}): { messages: ChatMessage[]; system: ChatMessage; task: ChatMessage } {
  const system: ChatMessage = { role: 'system', content: input.systemPrompt };
  const task: ChatMessage = { role: 'user', content: input.task };
  const earlier = repairToolPairing((input.history ?? []).filter((m) => m.role !== 'system'));
  return { messages: [system, ...earlier, ...(input.pinned ?? []), task], system, task };
}
