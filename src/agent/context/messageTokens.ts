import type { ChatMessage, ToolSpec } from '../model/types';
import { countMessageTokens, REPLY_PRIMING, toolAsSent, type TokenCounter } from './tokenCounter';

/**
 * Token counts cached per message and per tool spec object, so a loop turn only tokenises what is
 * new. Messages are treated as immutable: code that changes one replaces the object (as the
 * context budget does), which gives it a fresh count.
 */
export class MessageTokenCache {
  private readonly messages = new WeakMap<ChatMessage, number>();
  private readonly specs = new WeakMap<ToolSpec, number>();

  constructor(readonly counter: TokenCounter) {}

  /** Tokens of one message as sent (content, tool call names and arguments, role overhead). */
  count(message: ChatMessage): number {
    let tokens = this.messages.get(message);
    if (tokens === undefined) {
      tokens = countMessageTokens(this.counter, message);
      this.messages.set(message, tokens);
    }
    return tokens;
  }

  /** Sum over a conversation. */
  countAll(messages: readonly ChatMessage[]): number {
    let total = 0;
    for (const message of messages) total += this.count(message);
    return total;
  }

  /** Tokens of a request's fixed part (tool schemas as sent, the reply's priming; see countToolTokens); each spec object is tokenised once. */
  countTools(specs: readonly ToolSpec[]): number {
    let total = REPLY_PRIMING;
    for (const spec of specs) {
      let tokens = this.specs.get(spec);
      if (tokens === undefined) {
        tokens = this.counter.count(toolAsSent(spec)) + 1;
        this.specs.set(spec, tokens);
      }
      total += tokens;
    }
    return total;
  }
}
