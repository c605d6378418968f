import type { AdaptableParam } from './classifyModelError';

/** What one provider needs beyond the OpenAI wire format. */
export interface ProviderQuirks {
  /** Optional parameters the provider is known to refuse: never sent. */
  dropParams: readonly AdaptableParam[];
  /** A short name for notices. */
  label?: string;
  /** The provider caches prompts only at explicit `cache_control` breakpoints in content parts (see cacheBreakpoints.ts). */
  cacheBreakpoints?: boolean;
}

interface QuirkRow {
  /** Tested against `<baseURL> <model>`. */
  match: RegExp;
  quirks: ProviderQuirks;
}

/**
 * The capability table: what is known up front, keyed by base URL and model. Anything not listed
 * is learned at run time instead: the first 4xx that names a parameter drops it for the rest of
 * the model's life (see classifyModelError's `param_unsupported`).
 *
 * Reasoning (`reasoning_content`) and per-call extra fields (Gemini's `extra_content`) are echoed
 * to every provider that sent them, so they need no row; a provider that refuses them is downgraded
 * by the same 4xx rule.
 */
const TABLE: readonly QuirkRow[] = [
  // Mistral's API answers 422 "Extra inputs are not permitted" to stream_options.
  { match: /\/\/api\.mistral\.ai\b/i, quirks: { dropParams: ['stream_options'], label: 'Mistral' } },
  // OpenRouter documents that Anthropic's and Gemini's models cache only at `cache_control` breakpoints.
  { match: /\/\/openrouter\.ai\b\S* (?:anthropic\/|google\/gemini)/i, quirks: { dropParams: [], label: 'OpenRouter', cacheBreakpoints: true } },
];

/** The known quirks of the endpoint at `baseURL` serving `model` (none when unknown). */
export function quirksFor(baseURL: string, model: string): ProviderQuirks {
  const key = `${baseURL} ${model}`;
  const dropParams = new Set<AdaptableParam>();
  let label: string | undefined;
  let cacheBreakpoints = false;
  for (const row of TABLE) {
    if (!row.match.test(key)) continue;
    for (const param of row.quirks.dropParams) dropParams.add(param);
    label ??= row.quirks.label;
    cacheBreakpoints ||= row.quirks.cacheBreakpoints === true;
  }
  return { dropParams: [...dropParams], ...(label ? { label } : {}), ...(cacheBreakpoints ? { cacheBreakpoints } : {}) };
}
