import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ModelToolCall, ToolSpec } from './types';

/**
 * The key under which an assistant turn's thinking blocks ride on its first tool call's `extra`
 * (the provider fields the conversation, the events and a resume already keep): Anthropic needs
 * them back unchanged, signature and all, while the tool-use loop they belong to goes on.
 */
export const THINKING_EXTRA_KEY = 'anthropic_thinking';

/** A thinking block as Anthropic sent it; echoed back byte for byte. */
export type AnthropicThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** The parts of a Messages request our conversation becomes. */
export interface AnthropicPrompt {
  system: TextBlockParam[];
  messages: MessageParam[];
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Our conversation in Anthropic's Messages shape: system messages at the start become the
 * top-level `system` blocks (a later one is user text, as the API has no system turn); tool
 * results become `tool_result` blocks in a user turn; consecutive user-side blocks share one turn
 * (the API wants turns to alternate); an assistant turn is its thinking blocks (unchanged), its
 * text and its `tool_use` blocks. Prompt caching: a breakpoint on the last system block and on
 * the last block of the last user turn (the moving one), so each call reads the previous one's
 * cache and writes its own.
 */
export function toAnthropicPrompt(conversation: readonly ChatMessage[]): AnthropicPrompt {
  const system: TextBlockParam[] = [];
  const messages: MessageParam[] = [];
  let leading = true;
  for (const message of conversation) {
    if (message.role === 'system' && leading) {
      if (message.content.trim() !== '') system.push({ type: 'text', text: message.content });
      continue;
    }
    leading = false;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = messages.at(-1);
    if (last && last.role === role) (last.content as ContentBlockParam[]).push(...blocks);
    else messages.push({ role, content: blocks });
  }
  const lastSystem = system.at(-1);
  if (lastSystem) lastSystem.cache_control = EPHEMERAL;
  markLastUserBlock(messages);
  return { system, messages };
}

/** Our tool specs as Anthropic tools; the last carries the cache breakpoint of the stable prefix. */
export function toAnthropicTools(tools: readonly ToolSpec[]): Tool[] {
  const converted: Tool[] = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters } as Tool.InputSchema,
  }));
  const last = converted.at(-1);
  if (last) last.cache_control = EPHEMERAL;
  return converted;
}

/** The thinking blocks kept on a turn's first tool call, or none. */
export function thinkingOf(calls: readonly ModelToolCall[] | undefined): AnthropicThinkingBlock[] {
  const kept = calls?.[0]?.extra?.[THINKING_EXTRA_KEY];
  return Array.isArray(kept) ? kept.filter(isThinkingBlock) : [];
}

function isThinkingBlock(value: unknown): value is AnthropicThinkingBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  if (block.type === 'thinking') return typeof block.thinking === 'string' && typeof block.signature === 'string';
  return block.type === 'redacted_thinking' && typeof block.data === 'string';
}

function blocksOf(message: ChatMessage): ContentBlockParam[] {
  switch (message.role) {
    case 'system':
      return message.content.trim() === '' ? [] : [{ type: 'text', text: message.content }];
    case 'user': {
      const blocks: ContentBlockParam[] = [];
      if (message.content.trim() !== '') blocks.push({ type: 'text', text: message.content });
      for (const image of message.images ?? []) {
        blocks.push({ type: 'image', source: { type: 'base64', media_type: image.mimeType as 'image/png', data: image.data } });
      }
      return blocks;
    }
    case 'assistant': {
      const blocks: ContentBlockParam[] = [...thinkingOf(message.toolCalls)];
      // The API refuses empty text blocks.
      if (message.content.trim() !== '') blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
      return blocks;
    }
    case 'tool':
      return [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, ...(message.isError ? { is_error: true } : {}) }];
  }
}

/** A call's arguments as the object `tool_use.input` must be; unreadable text is kept under `_raw` so the turn stays truthful. */
function toolInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { _raw: args };
  } catch {
    return { _raw: args };
  }
}

function markLastUserBlock(messages: MessageParam[]): void {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const block = (lastUser?.content as ContentBlockParam[] | undefined)?.at(-1);
  // Thinking blocks cannot carry a breakpoint; user turns never hold them.
  if (block && block.type !== 'thinking' && block.type !== 'redacted_thinking') block.cache_control = EPHEMERAL;
}
