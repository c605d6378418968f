import type { Usage } from '../../shared/events';

/** A tool call as the model asked for it; `arguments` is the raw JSON text. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
  /** Provider fields of the call beside id/type/function (Gemini's `extra_content`), echoed back unchanged. */
  extra?: Record<string, unknown>;
}

/** An image for a vision model: base64 data and its type. */
export interface ChatImage {
  mimeType: string;
  data: string;
}

/** The conversation sent to a model (OpenAI chat shape, provider-neutral). */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ChatImage[] }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[]; reasoning?: string }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

/** A tool as offered to the model: JSON schema parameters. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** OpenAI's `tool_choice`. */
export type ToolChoice = 'auto' | 'required' | 'none';

/** One model call. */
export interface ModelRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  toolChoice: ToolChoice;
  signal: AbortSignal;
  maxOutputTokens?: number;
  temperature?: number;
  /** Same for every call of one task, so the provider routes them to the same prompt cache (OpenAI's `prompt_cache_key`). */
  cacheKey?: string;
}

/** Streaming callbacks for one call; all optional. */
export interface ModelHandlers {
  /** Visible assistant text as it streams (text-protocol tool blocks are not included). */
  onText?: (delta: string) => void;
  /** A retry is about to happen after `delayMs`. */
  /** A failed call is tried again after `delayMs` (`attempt` of at most `of` retries, when bounded). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string; of?: number }) => void;
  /** The adapter changed how it talks to the endpoint: text tool protocol (`tool_protocol`), a refused parameter dropped (`other`). */
  onNotice?: (message: string, code?: 'tool_protocol' | 'other') => void;
}

/** Why the model stopped. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/** The assembled answer of one call. */
export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  finishReason: FinishReason;
  usage?: Usage;
  /** The model's reasoning (`reasoning_content`, inline `<think>`), kept apart from the answer. */
  reasoning?: string;
  /** The provider's own words on why it stopped (a content filter's categories, a refusal). */
  finishDetail?: string;
  /** Tool-call markup in the text that could not be read: say this to the model instead of ending. */
  correction?: string;
}

/**
 * A chat model. `complete` streams through `handlers` and resolves with the whole answer.
 * It throws `ModelError` subclasses (see model/modelErrors.ts) and `CancelledError` when the
 * request's signal aborts.
 */
export interface Model {
  /** Name for display and events. */
  readonly id: string;
  /** True when the model reads images: tool images are then sent to it as image parts. */
  readonly vision?: boolean;
  complete(request: ModelRequest, handlers?: ModelHandlers): Promise<ModelResponse>;
}
