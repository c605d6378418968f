import { PINNED_PREFIX, SUMMARY_PREFIX } from '../context/compaction';
import type { ContextParts } from '../../shared/events';
import type { ToolSpec } from '../model/types';
import { compactContext, undoCompaction } from './compactContext';
import { COMPACT_AT, fitContext } from './fitContext';
import type { RunSession } from './runSession';

export { COMPACT_AT };

/**
 * Readies the context for the next model call: applies the user's requests (compact now, undo a
 * compaction; pins act through `isPinnedOrProtected`), elides in a batch when over budget, compacts
 * when eliding could not reach the low-water mark, and reports the gauge. Returns the prompt's tokens.
 */
export async function prepareContext(run: RunSession, tools: ToolSpec[]): Promise<number> {
  for (const request of run.control.drain()) {
    if (request.kind === 'compact') await compactContext(run, 'user');
    else if (request.kind === 'undoCompaction') undoCompaction(run, request.id);
  }
  let fit = fitContext(run, tools);
  // Eliding normally lands at the low-water mark; still near the budget afterwards, only a summary helps.
  if (fit.elided && run.autoCompact && fit.tokens > COMPACT_AT * run.inputTokens && (await compactContext(run, 'window'))) {
    fit = fitContext(run, tools);
  }
  emitGauge(run, tools, fit.tokens);
  return fit.tokens;
}

/** The `context` event: the prompt about to be sent, by part. */
function emitGauge(run: RunSession, tools: ToolSpec[], used: number): void {
  const parts: ContextParts = { systemAndTools: run.tokens.countTools(tools), rules: run.rulesTokens, task: 0, history: 0, toolOutputs: 0, summaries: 0 };
  for (const message of run.messages) {
    const tokens = run.tokens.count(message);
    if (message.role === 'system') parts.systemAndTools += Math.max(0, tokens - run.rulesTokens);
    else if (message.role === 'tool' || (message.role === 'user' && message.content.startsWith(PINNED_PREFIX))) parts.toolOutputs += tokens;
    else if (message.role === 'user' && message.content.startsWith(SUMMARY_PREFIX)) parts.summaries += tokens;
    else if (run.protectedMessages.has(message)) parts.task += tokens;
    else parts.history += tokens;
  }
  run.emit({
    type: 'context',
    used,
    budget: run.inputTokens,
    ...(run.windowTokens ? { window: run.windowTokens } : {}),
    parts,
    pinned: [...run.control.pinned()],
  });
}
