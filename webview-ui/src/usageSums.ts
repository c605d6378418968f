import type { CostFigures, Usage } from '../../src/shared/events';

/** Two usages summed (cached tokens only when either has some). */
export function addUsage(a: Usage, b: Usage): Usage {
  const cached = (a.cachedTokens ?? 0) + (b.cachedTokens ?? 0);
  return {
    promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens,
    ...(cached ? { cachedTokens: cached } : {}),
  };
}

/** Two sets of cost figures summed (money only when either has it). */
export function addFigures(a: CostFigures, b: CostFigures): CostFigures {
  const money = a.costUsd !== undefined || b.costUsd !== undefined ? { costUsd: (a.costUsd ?? 0) + (b.costUsd ?? 0) } : {};
  return { effectiveTokens: a.effectiveTokens + b.effectiveTokens, ...money };
}
