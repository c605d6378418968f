import { z } from 'zod';
import { isCancellation, ToolError } from '../../errors';
import { searchWithFallback, type SearchOutcome } from '../../web/searchFallback';
import { defuseMarkers, frameUntrusted } from '../../web/untrustedText';
import { WebRequestError, type SearchProvider } from '../../web/webPorts';
import { rejectionResult } from '../builtins/rejection';
import { defineTool, type AnyTool } from '../tool';

/** Default and maximum number of results. */
export const SEARCH_DEFAULT_COUNT = 5;
export const SEARCH_MAX_COUNT = 20;
const SNIPPET_CHARS = 400;

/** Arguments of `web_search`. */
export const WebSearchArgs = z.object({
  query: z.string().min(1),
  count: z.number().int().min(1).max(SEARCH_MAX_COUNT).optional().describe(`results wanted, default ${SEARCH_DEFAULT_COUNT}`),
});

/** One line of a hit's field: the provider's text with its line breaks and runs of space folded. */
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

/**
 * The numbered list of hits the model reads: every hit's title, URL and snippet inside one
 * untrusted-content frame (a search engine relays what pages say about themselves), and a failed
 * provider's message (which may quote its server) defused too.
 */
export function renderSearch(query: string, outcome: SearchOutcome): string {
  const lines = [`Search results for "${query}" from ${outcome.provider}:`];
  for (const failure of outcome.failures) lines.push(`(${failure.provider} failed: ${defuseMarkers(oneLine(failure.message))}; used the next provider)`);
  if (outcome.hits.length === 0) return [...lines, 'No results.'].join('\n');
  const body = outcome.hits
    .map((hit, i) => {
      const snippet = oneLine(hit.snippet);
      return `${i + 1}. ${oneLine(hit.title) || '(no title)'}\n   ${oneLine(hit.url)}\n   ${snippet.length > SNIPPET_CHARS ? `${snippet.slice(0, SNIPPET_CHARS)}…` : snippet}`;
    })
    .join('\n');
  return `${lines.join('\n')}\n${frameUntrusted({ kind: 'search results', source: `a ${outcome.provider} search` }, body)}\nRead a result with web_fetch; cite the URLs you use.`;
}

/**
 * `web_search`: asks the configured providers in order (the next one when one fails) after a `web`
 * approval. Offered only when at least one provider is configured.
 */
export function webSearchTool(providers: readonly SearchProvider[]): AnyTool {
  return defineTool({
    name: 'web_search',
    description: `Search the web. Returns titles, URLs and snippets (default ${SEARCH_DEFAULT_COUNT} results). Use web_fetch to read a result.`,
    category: 'web',
    parameters: WebSearchArgs,
    async execute(args, context) {
      const decision = await context.requestApproval({ category: 'web', title: `Search the web: ${args.query.slice(0, 80)}`, detail: args.query });
      if (!decision.approved) return rejectionResult('this web search', decision);
      try {
        const outcome = await searchWithFallback(providers, args.query, args.count ?? SEARCH_DEFAULT_COUNT, context.signal);
        return { content: renderSearch(args.query, outcome) };
      } catch (error) {
        if (isCancellation(error) || context.signal.aborted) throw error;
        if (error instanceof WebRequestError) throw new ToolError(error.message);
        throw error;
      }
    },
  });
}
