import type { SamplingRequest } from './mcpTypes';

/** Words of the preview (English for approval events; a shell may pass translations). */
export interface SamplingPreviewLabels {
  system: string;
  user: string;
  assistant: string;
  /** E.g. `Up to 100 tokens.` */
  maxTokens: (count: number) => string;
}

/** English labels: the words of the approval event's detail (event titles and details are English, as for every tool). */
export const ENGLISH_SAMPLING_LABELS: SamplingPreviewLabels = {
  system: 'System',
  user: 'User',
  assistant: 'Assistant',
  maxTokens: (count) => `Answer of up to ${count} tokens.`,
};

/** Default length of the preview: enough to judge the request, short enough for a modal dialog. */
export const SAMPLING_PREVIEW_CHARS = 1200;

/**
 * What a sampling request would send to the model, as plain text for its approval: the system
 * prompt and each message under its role, then the token limit. Text beyond `maxChars` is cut with
 * an ellipsis (the token limit line always stays).
 */
export function samplingPreview(request: SamplingRequest, labels: SamplingPreviewLabels, maxChars = SAMPLING_PREVIEW_CHARS): string {
  const parts = [
    ...(request.systemPrompt?.trim() ? [`${labels.system}: ${request.systemPrompt.trim()}`] : []),
    ...request.messages.map((message) => `${message.role === 'user' ? labels.user : labels.assistant}: ${message.text.trim()}`),
  ];
  const body = parts.join('\n\n');
  const shown = body.length > maxChars ? `${body.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…` : body;
  return `${shown}\n\n${labels.maxTokens(request.maxTokens)}`;
}
