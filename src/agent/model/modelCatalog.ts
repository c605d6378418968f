import { z } from 'zod';

/** Price of a model in US dollars per million tokens; `cachedInput` is what prompt-cache hits cost, `cacheWrite` what writing the cache costs (default 1.25x input). */
export const ModelPrice = z.object({
  input: z.number().nonnegative(),
  cachedInput: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative().optional(),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

/** What Stepwise knows of a well-known model: its context window and list price. */
export interface ModelFacts {
  window: number;
  price?: ModelPrice;
}

// Longest prefix wins. Windows and list prices as published by the providers (USD per 1M tokens);
// users override prices with the `stepwise.prices` setting / `--price` and windows with
// `stepwise.contextWindow` / `--context-window`.
const CATALOG: Array<[prefix: string, facts: ModelFacts]> = [
  ['gpt-4o-mini', { window: 128_000, price: { input: 0.15, cachedInput: 0.075, output: 0.6 } }],
  ['gpt-4o', { window: 128_000, price: { input: 2.5, cachedInput: 1.25, output: 10 } }],
  ['gpt-4.1-nano', { window: 1_047_576, price: { input: 0.1, cachedInput: 0.025, output: 0.4 } }],
  ['gpt-4.1-mini', { window: 1_047_576, price: { input: 0.4, cachedInput: 0.1, output: 1.6 } }],
  ['gpt-4.1', { window: 1_047_576, price: { input: 2, cachedInput: 0.5, output: 8 } }],
  ['gpt-5-nano', { window: 400_000, price: { input: 0.05, cachedInput: 0.005, output: 0.4 } }],
  ['gpt-5-mini', { window: 400_000, price: { input: 0.25, cachedInput: 0.025, output: 2 } }],
  ['gpt-5', { window: 400_000, price: { input: 1.25, cachedInput: 0.125, output: 10 } }],
  ['o3-mini', { window: 200_000, price: { input: 1.1, cachedInput: 0.55, output: 4.4 } }],
  ['o4-mini', { window: 200_000, price: { input: 1.1, cachedInput: 0.275, output: 4.4 } }],
  ['o3', { window: 200_000, price: { input: 2, cachedInput: 0.5, output: 8 } }],
  ['deepseek-chat', { window: 128_000, price: { input: 0.27, cachedInput: 0.07, output: 1.1 } }],
  ['deepseek-reasoner', { window: 128_000, price: { input: 0.55, cachedInput: 0.14, output: 2.19 } }],
  ['claude-3-5-haiku', { window: 200_000, price: { input: 0.8, cachedInput: 0.08, output: 4, cacheWrite: 1 } }],
  ['claude-3-7-sonnet', { window: 200_000, price: { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 } }],
  ['claude-haiku-4-5', { window: 200_000, price: { input: 1, cachedInput: 0.1, output: 5, cacheWrite: 1.25 } }],
  ['claude-sonnet-4', { window: 200_000, price: { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 } }],
  ['claude-opus-4', { window: 200_000, price: { input: 15, cachedInput: 1.5, output: 75, cacheWrite: 18.75 } }],
  ['claude-opus-4-5', { window: 200_000, price: { input: 5, cachedInput: 0.5, output: 25, cacheWrite: 6.25 } }],
  ['qwen-plus', { window: 131_072, price: { input: 0.4, cachedInput: 0.16, output: 1.2 } }],
  ['qwen-max', { window: 32_768, price: { input: 1.6, cachedInput: 0.64, output: 6.4 } }],
  ['gemini-2.5-flash', { window: 1_048_576, price: { input: 0.3, cachedInput: 0.075, output: 2.5 } }],
  ['gemini-2.5-pro', { window: 1_048_576, price: { input: 1.25, cachedInput: 0.31, output: 10 } }],
];

/** Facts of a model by its id (provider prefixes such as `openai/` are ignored); `undefined` when unknown. */
export function modelFacts(modelId: string): ModelFacts | undefined {
  const id = modelId.toLowerCase().replace(/^.*\//, '');
  let best: ModelFacts | undefined;
  let bestLength = 0;
  for (const [prefix, facts] of CATALOG) {
    if (id.startsWith(prefix) && prefix.length > bestLength) {
      best = facts;
      bestLength = prefix.length;
    }
  }
  return best;
}

/** The price of a model: the user's table first (exact id, then the catalog), else the catalog's. */
export function priceOf(modelId: string, userPrices: Readonly<Record<string, ModelPrice>> = {}): ModelPrice | undefined {
  return userPrices[modelId] ?? modelFacts(modelId)?.price;
}
