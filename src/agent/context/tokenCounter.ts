import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage, ToolSpec } from '../model/types';

/** Counts tokens of text; o200k_base by default (GPT-4o family), close enough for other models' budgets. */
export interface TokenCounter {
  count(text: string): number;
}

let o200k: typeof O200k.countTokens | undefined;

/**
 * The o200k_base tokenizer, loaded on its first count: its tables are most of the extension
 * bundle's bytes and load time, and a closed sidebar never needs them (the bundles keep it in a
 * separate `dist/tokenizer.js`, see scripts/build.mjs).
 */
export const o200kCounter: TokenCounter = {
  count: (text) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
    o200k ??= (require('gpt-tokenizer/encoding/o200k_base') as typeof O200k).countTokens;
    return o200k(text);
  },
};
/**
 * Per-message framing of the chat format: start and end markers and the role (one token for each
 * role name), as OpenAI's cookbook counts it (3 + the role).
 */
const MESSAGE_OVERHEAD = 4;
/** Per tool call besides its id, name and arguments: `type: function` and the call's framing. */
const CALL_OVERHEAD = 3;
/** The reply's priming (`<|start|>assistant<|message|>`): once per request. */
export const REPLY_PRIMING = 3;

/**
 * Tokens of one message as an OpenAI-compatible endpoint reads it (see openaiMessages.ts): the
 * content, each tool call's id, name and arguments (`{}` for none), a tool result's call id and
 * error mark, reasoning sent back with tool calls, images, and the framing. Strings are counted as
 * the model reads them, not as escaped in the request's JSON (a `\n` there is one newline to the model).
 */
export function countMessageTokens(counter: TokenCounter, message: ChatMessage): number {
  let tokens = MESSAGE_OVERHEAD;
  let text = message.content;
  if (message.role === 'assistant' && message.toolCalls) {
    for (const call of message.toolCalls) {
      text += `${call.name}${call.arguments.trim() === '' ? '{}' : call.arguments}`;
      tokens += counter.count(call.id) + CALL_OVERHEAD;
    }
    // Reasoning goes back with tool calls (see openaiMessages.ts), so it is paid for.
    if (message.reasoning) text += message.reasoning;
  }
  if (message.role === 'tool') {
    tokens += counter.count(message.toolCallId);
    if (message.isError && !/^error\b/i.test(text)) text = `Error: ${text}`;
  }
  // An image costs about a thousand tokens at the usual detail (OpenAI: 85 + 170 per 512-px tile).
  const images = message.role === 'user' ? (message.images?.length ?? 0) * IMAGE_TOKENS : 0;
  return tokens + counter.count(text) + images;
}

/** Tokens an image sent to a vision model is counted as. */
export const IMAGE_TOKENS = 1_000;

/** One tool schema as the request's `tools` array carries it. */
export function toolAsSent(tool: ToolSpec): string {
  return JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } });
}

/** Tokens of a request's fixed part: the tool schemas as sent (their JSON) and the reply's priming. */
export function countToolTokens(counter: TokenCounter, tools: ToolSpec[]): number {
  return REPLY_PRIMING + tools.reduce((sum, tool) => sum + counter.count(toolAsSent(tool)) + 1, 0);
}
