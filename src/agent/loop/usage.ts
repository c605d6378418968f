import type { Usage } from '../../shared/events';

/** No tokens yet. */
export const ZERO_USAGE: Usage = Object.freeze({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

/** Sum of two usages. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  if (a.cachedTokens !== undefined || b.cachedTokens !== undefined) sum.cachedTokens = (a.cachedTokens ?? 0) + (b.cachedTokens ?? 0);
  if (a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined) sum.cacheWriteTokens = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  return sum;
}

/** A usage from our own counts, for models that report none. */
export function estimatedUsage(promptTokens: number, completionTokens: number): Usage {
  const prompt = Math.max(0, Math.round(promptTokens));
  const completion = Math.max(0, Math.round(completionTokens));
  return { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
}
