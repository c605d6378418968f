import type * as AnthropicSdk from '@anthropic-ai/sdk';

let sdk: typeof AnthropicSdk | undefined;

/**
 * The `@anthropic-ai/sdk`, loaded on the first Anthropic call or failed call (never at activation):
 * the bundles keep it in a separate `dist/anthropic.js` (see scripts/build.mjs), so a run that does
 * not use Claude never parses it. One copy everywhere, so `instanceof` its error classes holds.
 */
export function loadAnthropic(): typeof AnthropicSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
  sdk ??= require('@anthropic-ai/sdk') as typeof AnthropicSdk;
  return sdk;
}
