import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SamplingMessage, SamplingRequest } from './mcpTypes';

type SamplingContent = { type: string; text?: string; mimeType?: string };

function contentText(content: SamplingContent | SamplingContent[]): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ''} omitted]`))
    .join('\n');
}

/** Flattens a `sampling/createMessage` request to text messages for the host's model. */
export function toSamplingRequest(server: string, params: CreateMessageRequest['params']): SamplingRequest {
  const messages: SamplingMessage[] = params.messages.map((message) => ({
    role: message.role,
    text: contentText(message.content as SamplingContent | SamplingContent[]),
  }));
  const modelHints = (params.modelPreferences?.hints ?? []).flatMap((hint) => (hint.name ? [hint.name] : []));
  return {
    server,
    messages,
    maxTokens: params.maxTokens,
    modelHints,
    ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
  };
}
