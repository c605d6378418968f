import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { THINKING_EXTRA_KEY } from './anthropicMessages';
import type { ChatMessage, ModelToolCall, ToolSpec } from './types';

/**
 * Our messages in OpenAI's chat shape: assistant tool calls as `tool_calls`, results as `tool`
 * messages with `tool_call_id`. Empty arguments become `{}` (several servers reject `""`), and an
 * error result is marked in its text because the wire format has no error flag. A call's provider
 * fields (Gemini's `extra_content`) go back unchanged; with `reasoning`, an assistant turn that
 * called tools carries its `reasoning_content` (DeepSeek's thinking mode needs it for the next call). A user
 * message with images becomes text + `image_url` parts (data URLs).
 */
export function toOpenAIMessages(messages: readonly ChatMessage[], options: { reasoning?: boolean } = {}): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        if (!message.images?.length) return { role: 'user', content: message.content };
        return {
          role: 'user',
          content: [
            { type: 'text', text: message.content },
            ...message.images.map((image) => ({ type: 'image_url' as const, image_url: { url: `data:${image.mimeType};base64,${image.data}` } })),
          ],
        };
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: message.content };
        const reasoning = options.reasoning && message.reasoning ? { reasoning_content: message.reasoning } : {};
        return {
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          ...reasoning,
          tool_calls: calls.map((call) => ({
            ...openAIExtra(call),
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments.trim() === '' ? '{}' : call.arguments },
          })),
        };
      }
      case 'tool':
        return {
          role: 'tool',
          tool_call_id: message.toolCallId,
          content: message.isError && !/^error\b/i.test(message.content) ? `Error: ${message.content}` : message.content,
        };
    }
  });
}

/** Our tool specs as OpenAI function tools. */
export function toOpenAITools(tools: readonly ToolSpec[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** A call's provider fields for an OpenAI-format request: Anthropic's thinking blocks (a task resumed on another provider) stay out. */
function openAIExtra(call: ModelToolCall): Record<string, unknown> | undefined {
  if (!call.extra || !(THINKING_EXTRA_KEY in call.extra)) return call.extra;
  const { [THINKING_EXTRA_KEY]: _thinking, ...rest } = call.extra;
  return rest;
}
