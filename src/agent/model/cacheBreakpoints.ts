import type { ChatCompletionContentPartText, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

const EPHEMERAL = { type: 'ephemeral' } as const;

/** A text part with a breakpoint; OpenRouter passes `cache_control` on to the provider. */
type MarkedPart = ChatCompletionContentPartText & { cache_control?: typeof EPHEMERAL };

/**
 * OpenAI-format messages with prompt-cache breakpoints, for providers that cache only where told
 * (Anthropic's and Gemini's models through OpenRouter): the last system message (the stable
 * prefix) and the last user or tool message (the conversation, moving each turn) become text
 * parts whose last part carries `cache_control: {type: 'ephemeral'}`. Two breakpoints, under
 * Anthropic's limit of four; the input is not changed.
 */
export function withCacheBreakpoints(messages: readonly ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
  const out = messages.slice();
  const lastOf = (roles: readonly string[]) => out.findLastIndex((m) => roles.includes(m.role));
  for (const index of new Set([lastOf(['system']), lastOf(['user', 'tool'])])) {
    if (index < 0) continue;
    const marked = markLastPart(out[index]!);
    if (marked) out[index] = marked;
  }
  return out;
}

function markLastPart(message: ChatCompletionMessageParam): ChatCompletionMessageParam | undefined {
  if (message.role !== 'system' && message.role !== 'user' && message.role !== 'tool') return undefined;
  const content = message.content;
  const parts: MarkedPart[] | undefined =
    typeof content === 'string'
      ? content === '' ? undefined : [{ type: 'text', text: content }]
      : (content as Array<{ type: string }>).map((part) => ({ ...part }) as MarkedPart);
  const lastText = parts?.findLastIndex((part) => part.type === 'text') ?? -1;
  if (!parts || lastText < 0) return undefined;
  parts[lastText] = { ...parts[lastText]!, cache_control: EPHEMERAL };
  return { ...message, content: parts } as ChatCompletionMessageParam;
}
