import type * as OpenAISdk from 'openai';

let sdk: typeof OpenAISdk | undefined;

/**
 * The `openai` SDK, loaded on the first model call or failed call (never at activation): the
 * bundles keep it in a separate `dist/openai.js` (see scripts/build.mjs), so a closed sidebar
 * never parses it. One copy everywhere, so `instanceof` its error classes holds.
 */
export function loadOpenAI(): typeof OpenAISdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
  sdk ??= require('openai') as typeof OpenAISdk;
  return sdk;
}
