import { fitToBudget } from '../context/contextBudget';
import type { ToolSpec } from '../model/types';
import { isPinnedOrProtected } from './compactContext';
import type { RunSession } from './runSession';

/** Default share of the prompt budget that eliding goes down to (see `AgentLimits.contextLowWater`). */
export const DEFAULT_LOW_WATER = 0.5;
/** Share of the prompt budget that, still reached after eliding, triggers a compaction (prepareContext.ts). */
export const COMPACT_AT = 0.75;
/** Default share of the low-water mark kept as the conversation's opening (see `AgentLimits.contextKeepHead`). */
export const DEFAULT_KEEP_HEAD = 0.7;

/**
 * Elides old outputs when system + tools + messages exceed the budget; returns the prompt's tokens.
 * Eliding goes down to the low-water mark in one batch, so the following turns only append and the
 * provider's prompt cache keeps hitting until the budget is reached again; it starts after the
 * conversation's opening, so even the request after a batch finds that opening in the cache.
 */
export function fitContext(run: RunSession, tools: ToolSpec[]): { tokens: number; elided: boolean } {
  const toolTokens = run.tokens.countTools(tools);
  const messageTokens = run.tokens.countAll(run.messages);
  if (toolTokens + messageTokens <= run.inputTokens) return { tokens: toolTokens + messageTokens, elided: false };
  const lowWater = lowWaterTokens(run) - toolTokens;
  const keepHead = Math.min(1, Math.max(0, run.options.limits.contextKeepHead ?? DEFAULT_KEEP_HEAD));
  const fit = fitToBudget(run.messages, {
    maxTokens: run.inputTokens - toolTokens,
    lowWaterTokens: lowWater,
    keepHeadTokens: Math.floor(keepHead * lowWater),
    // Keeping the opening must never be what makes a compaction necessary.
    keepHeadUnderTokens: Math.floor(COMPACT_AT * run.inputTokens) - toolTokens,
    count: (message) => run.tokens.count(message),
    isProtected: (message) => isPinnedOrProtected(run, message),
    keepRecentTurns: run.keepRecentTurns,
  });
  if (fit.elidedOutputs || fit.shortenedMessages) {
    run.messages = fit.messages;
    const parts = [
      fit.elidedOutputs ? `elided ${fit.elidedOutputs} older tool output${fit.elidedOutputs === 1 ? '' : 's'}` : '',
      fit.shortenedMessages ? `shortened ${fit.shortenedMessages} older assistant message${fit.shortenedMessages === 1 ? '' : 's'}` : '',
    ].filter(Boolean);
    run.emit({
      type: 'notice',
      level: 'info',
      code: 'context_elided',
      message:
        `To fit the context budget, ${parts.join(' and ')} (${fit.tokensBefore - fit.tokensAfter} tokens saved; ` +
        `prompt now about ${toolTokens + fit.tokensAfter} of ${run.inputTokens} tokens).`,
    });
  }
  if (!fit.fits) run.options.logger.warn(`prompt still over budget after elision: ${toolTokens + fit.tokensAfter} > ${run.inputTokens}`);
  return { tokens: toolTokens + fit.tokensAfter, elided: true };
}

/** The prompt's tokens once eliding reached its low-water mark: above it, eliding alone cannot keep the prompt small. */
export function lowWaterTokens(run: RunSession): number {
  return Math.floor(run.inputTokens * Math.min(1, Math.max(0.1, run.options.limits.contextLowWater ?? DEFAULT_LOW_WATER)));
}
