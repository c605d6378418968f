import type { ChatMessage, Model } from '../agent/model/types';
import type { ApprovalDecision } from '../agent/ports';
import type { SamplingHandler, SamplingRequest } from './mcpTypes';

/** What `createModelSamplingHandler` needs: the model to answer with and the user's consent. */
export interface ModelSamplingOptions {
  model: Model;
  /** Asks the user whether the server may use the model for this request. */
  approve(request: SamplingRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/**
 * A `SamplingHandler` that asks first and then completes the request with `model` (no tools).
 * A refusal goes back to the server as a rejected request; model errors propagate to the server.
 */
export function createModelSamplingHandler(options: ModelSamplingOptions): SamplingHandler {
  return async (request, signal) => {
    const decision = await options.approve(request, signal);
    if (!decision.approved) return { approved: false, ...(decision.reason ? { reason: decision.reason } : {}) };
    const messages: ChatMessage[] = [
      ...(request.systemPrompt ? [{ role: 'system' as const, content: request.systemPrompt }] : []),
      ...request.messages.map((message): ChatMessage => ({ role: message.role, content: message.text })),
    ];
    const response = await options.model.complete({
      messages,
      tools: [],
      toolChoice: 'none',
      signal,
      maxOutputTokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    });
    return {
      approved: true,
      text: response.text,
      model: options.model.id,
      stopReason: response.finishReason === 'length' ? 'maxTokens' : 'endTurn',
    };
  };
}
