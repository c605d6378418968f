import { PUBLIC_ONLY, type WebHostPolicy } from '../../agent/web/hostPolicy';
import { WebRequestError, type SearchHit, type SearchProvider } from '../../agent/web/webPorts';
import { egressRequest } from './egress';
import type { Resolver } from './safeHttp';

/** Where the providers live; the endpoints can be changed for proxies and tests. */
export interface SearchConfig {
  tavilyKey?: string;
  tavilyEndpoint?: string;
  braveKey?: string;
  braveEndpoint?: string;
  /** Base URL of a SearXNG instance (its JSON format must be enabled). */
  searxngUrl?: string;
  /** Order to try configured providers in; default tavily, brave, searxng. */
  order?: readonly string[];
  timeoutMs?: number;
  /** The user's egress lists (default: public hosts only). */
  policy?: WebHostPolicy;
  resolver?: Resolver;
  /** Bytes of one answer; a bigger answer is refused (default 5 MB). */
  maxBytes?: number;
}

/** Limits and policy of one provider's requests. */
export type SearchLimits = Pick<SearchConfig, 'timeoutMs' | 'policy' | 'resolver' | 'maxBytes'>;

export const TAVILY_ENDPOINT = 'https://api.tavily.com/search';
export const BRAVE_ENDPOINT = 'https://api.search.brave.com/res/v1/web/search';
const TIMEOUT_MS = 20_000;
/** An answer of 20 hits is a few KB; 5 MB leaves room and stops a stream that never ends. */
export const SEARCH_MAX_BYTES = 5 * 1024 * 1024;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

interface JsonRequest {
  name: string;
  url: string;
  /** The endpoint the user configured (its origin is reachable on any address); undefined for the built-in one. */
  configured: string | undefined;
  method?: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * One provider request through the egress client: the configured endpoint's origin is the user's
 * choice (reachable even on loopback), every redirect elsewhere is checked, the answer is capped.
 */
async function getJson(request: JsonRequest, limits: SearchLimits, signal: AbortSignal): Promise<unknown> {
  const response = await egressRequest(
    request.url,
    {
      ...(request.method ? { method: request.method } : {}),
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      policy: limits.policy ?? PUBLIC_ONLY,
      resolver: limits.resolver,
      trustedOrigin: request.configured,
      timeoutMs: limits.timeoutMs ?? TIMEOUT_MS,
      maxBytes: limits.maxBytes ?? SEARCH_MAX_BYTES,
      overflow: 'fail',
      keepErrorStatus: true,
      name: request.name,
    },
    signal,
  );
  const text = response.body.toString('utf8');
  if (response.status >= 400) throw new WebRequestError(`${request.name} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new WebRequestError(`${request.name} answered with something that is not JSON`);
  }
}

function hits(list: unknown, pick: (item: Record<string, unknown>) => SearchHit): SearchHit[] {
  if (!Array.isArray(list)) return [];
  return list.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null).map(pick).filter((h) => h.url);
}

/** Tavily: `POST /search` with `{query, max_results}` and a Bearer key; hits in `results[]` (`title`, `url`, `content`). */
export function tavilyProvider(key: string, endpoint?: string, limits: SearchLimits = {}): SearchProvider {
  return {
    name: 'Tavily',
    async search(query, count, signal) {
      const body = await getJson(
        {
          name: 'Tavily',
          url: endpoint ?? TAVILY_ENDPOINT,
          configured: endpoint,
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ query, max_results: count, search_depth: 'basic', include_answer: false }),
        },
        limits,
        signal,
      );
      return hits((body as { results?: unknown }).results, (r) => ({ title: str(r.title), url: str(r.url), snippet: str(r.content) }));
    },
  };
}

/** Brave Search: `GET /res/v1/web/search?q=&count=` with `X-Subscription-Token`; hits in `web.results[]` (`title`, `url`, `description`). */
export function braveProvider(key: string, endpoint?: string, limits: SearchLimits = {}): SearchProvider {
  return {
    name: 'Brave Search',
    async search(query, count, signal) {
      const url = new URL(endpoint ?? BRAVE_ENDPOINT);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(Math.min(count, 20)));
      const headers = { accept: 'application/json', 'x-subscription-token': key };
      const body = await getJson({ name: 'Brave Search', url: url.href, configured: endpoint, headers }, limits, signal);
      const web = (body as { web?: { results?: unknown } }).web;
      // Brave marks query terms with <strong> in descriptions.
      return hits(web?.results, (r) => ({ title: str(r.title), url: str(r.url), snippet: str(r.description).replace(/<\/?strong>/g, '') }));
    },
  };
}

/** SearXNG: `GET {base}/search?q=&format=json`; hits in `results[]` (`title`, `url`, `content`). */
export function searxngProvider(baseUrl: string, limits: SearchLimits = {}): SearchProvider {
  return {
    name: 'SearXNG',
    async search(query, count, signal) {
      const url = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const body = await getJson({ name: 'SearXNG', url: url.href, configured: baseUrl, headers: { accept: 'application/json' } }, limits, signal);
      return hits((body as { results?: unknown }).results, (r) => ({ title: str(r.title), url: str(r.url), snippet: str(r.content) })).slice(0, count);
    },
  };
}

/** The configured providers in order (default Tavily, Brave, SearXNG); none when nothing is configured. */
export function searchProviders(config: SearchConfig): SearchProvider[] {
  const limits: SearchLimits = { timeoutMs: config.timeoutMs, policy: config.policy, resolver: config.resolver, maxBytes: config.maxBytes };
  const available: Record<string, SearchProvider | undefined> = {
    tavily: config.tavilyKey ? tavilyProvider(config.tavilyKey, config.tavilyEndpoint, limits) : undefined,
    brave: config.braveKey ? braveProvider(config.braveKey, config.braveEndpoint, limits) : undefined,
    searxng: config.searxngUrl ? searxngProvider(config.searxngUrl, limits) : undefined,
  };
  const order = config.order?.length ? config.order : ['tavily', 'brave', 'searxng'];
  const seen = new Set<string>();
  const out: SearchProvider[] = [];
  for (const name of [...order, 'tavily', 'brave', 'searxng']) {
    const provider = available[name.toLowerCase()];
    if (provider && !seen.has(name.toLowerCase())) out.push(provider);
    seen.add(name.toLowerCase());
  }
  return out;
}
