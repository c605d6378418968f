import assert from 'node:assert/strict';
import { costUsd, effectiveTokens } from '../../../src/agent/flow/taskBudget';
import { addUsage } from '../../../src/agent/loop/usage';
import { priceOf } from '../../../src/agent/model/modelCatalog';
import type { Usage } from '../../../src/shared/events';

// Issue 23: Anthropic bills cache writes at 1.25x the input price and cache reads at 0.1x; the
// budget's effective tokens and the money follow.

describe('cost of cache reads and writes', () => {
  const sonnet = priceOf('claude-sonnet-4-6')!;
  const table: Array<[string, Usage, number, number]> = [
    ['no cache', { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 }, 1100, (1000 * 3 + 100 * 15) / 1e6],
    ['reads only', { promptTokens: 1000, completionTokens: 100, totalTokens: 1100, cachedTokens: 800 }, 200 + 80 + 100, (200 * 3 + 800 * 0.3 + 100 * 15) / 1e6],
    ['writes only', { promptTokens: 1000, completionTokens: 100, totalTokens: 1100, cacheWriteTokens: 800 }, 200 + 1000 + 100, (200 * 3 + 800 * 3.75 + 100 * 15) / 1e6],
    ['both', { promptTokens: 1000, completionTokens: 0, totalTokens: 1000, cachedTokens: 600, cacheWriteTokens: 300 }, 100 + 60 + 375, (100 * 3 + 600 * 0.3 + 300 * 3.75) / 1e6],
    ['writes reported above the prompt are capped', { promptTokens: 100, completionTokens: 0, totalTokens: 100, cachedTokens: 60, cacheWriteTokens: 500 }, 6 + 50, (60 * 0.3 + 40 * 3.75) / 1e6],
  ];
  for (const [name, usage, tokens, money] of table) {
    it(name, () => {
      assert.ok(Math.abs(effectiveTokens(usage) - tokens) < 1e-9, `${effectiveTokens(usage)} vs ${tokens}`);
      assert.ok(Math.abs(costUsd(usage, sonnet) - money) < 1e-12, `${costUsd(usage, sonnet)} vs ${money}`);
    });
  }

  it('a price without cacheWrite charges writes at 1.25x input', () => {
    const usage: Usage = { promptTokens: 400, completionTokens: 0, totalTokens: 400, cacheWriteTokens: 400 };
    assert.ok(Math.abs(costUsd(usage, { input: 2, cachedInput: 0.2, output: 8 }) - (400 * 2.5) / 1e6) < 1e-12);
  });

  it('usages add their cache writes', () => {
    const a: Usage = { promptTokens: 10, completionTokens: 1, totalTokens: 11, cacheWriteTokens: 4 };
    const b: Usage = { promptTokens: 20, completionTokens: 2, totalTokens: 22, cachedTokens: 5 };
    assert.deepEqual(addUsage(a, b), { promptTokens: 30, completionTokens: 3, totalTokens: 33, cachedTokens: 5, cacheWriteTokens: 4 });
  });
});
