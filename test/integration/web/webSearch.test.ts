import { strict as assert } from 'node:assert';
import { webSearchTool } from '../../../src/agent/tools/web/webSearchTool';
import { webTools } from '../../../src/agent/tools/web';
import { braveProvider, searchProviders, searxngProvider, tavilyProvider } from '../../../src/node/web/searchProviders';
import { ToolHarness } from '../../unit/tools/toolHarness';
import { startFakeSearch, type FakeHit, type FakeSearchServer } from '../../support/fakeSearchServers';

// web_search against local fake servers that speak the real Tavily, Brave Search and SearXNG formats.

const HITS: FakeHit[] = [
  { title: 'Widgets - a guide', url: 'https://widgets.example.org/guide', text: 'Everything about widgets and shafts.' },
  { title: 'Widget standard W-42', url: 'https://standards.example.org/w-42', text: 'The W-42 standard defines widget tolerances.' },
  { title: 'Widget forum', url: 'https://forum.example.net/t/1', text: 'People discuss widgets.' },
];

describe('web_search providers (local fakes in the real formats)', () => {
  const servers: FakeSearchServer[] = [];
  const start = async (kind: 'tavily' | 'brave' | 'searxng') => {
    const s = await startFakeSearch(kind, HITS);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  const signal = () => new AbortController().signal;

  it('Tavily: POST /search with a Bearer key and max_results; results parsed', async () => {
    const s = await start('tavily');
    const hits = await tavilyProvider('test-key', s.url).search('widgets', 2, signal());
    assert.deepEqual(hits, [
      { title: 'Widgets - a guide', url: 'https://widgets.example.org/guide', snippet: 'Everything about widgets and shafts.' },
      { title: 'Widget standard W-42', url: 'https://standards.example.org/w-42', snippet: 'The W-42 standard defines widget tolerances.' },
    ]);
    assert.equal(s.requests[0]!.method, 'POST');
    assert.deepEqual(JSON.parse(s.requests[0]!.body), { query: 'widgets', max_results: 2, search_depth: 'basic', include_answer: false });
  });

  it('Brave: GET with q, count and X-Subscription-Token; web.results parsed, <strong> removed', async () => {
    const s = await start('brave');
    const hits = await braveProvider('test-key', s.url).search('widgets', 3, signal());
    assert.equal(hits.length, 3);
    assert.deepEqual(hits[0], { title: 'Widgets - a guide', url: 'https://widgets.example.org/guide', snippet: 'Everything about widgets and shafts.' });
    assert.match(s.requests[0]!.path, /^\/res\/v1\/web\/search\?q=widgets&count=3$/);
  });

  it('SearXNG: GET /search?format=json; results parsed and cut to count', async () => {
    const s = await start('searxng');
    const hits = await searxngProvider(s.url).search('widgets', 2, signal());
    assert.deepEqual(hits.map((h) => h.url), ['https://widgets.example.org/guide', 'https://standards.example.org/w-42']);
    assert.match(s.requests[0]!.path, /^\/search\?q=widgets&format=json$/);
  });

  it('a wrong key is an error naming the provider and status', async () => {
    const s = await start('brave');
    await assert.rejects(braveProvider('wrong', s.url).search('widgets', 3, signal()), /Brave Search answered HTTP 422/);
  });

  it('falls back to the next provider when the first returns 500, and says so', async () => {
    const tavily = await start('tavily');
    const brave = await start('brave');
    tavily.failWith(500);
    const providers = searchProviders({ tavilyKey: 'test-key', tavilyEndpoint: tavily.url, braveKey: 'test-key', braveEndpoint: brave.url });
    assert.deepEqual(providers.map((p) => p.name), ['Tavily', 'Brave Search']);
    const h = new ToolHarness();
    h.registry.register(webSearchTool(providers));
    const result = await h.call('web_search', { query: 'widgets', count: 2 });
    assert.equal(result.isError, undefined, result.content);
    assert.match(result.content, /Search results for "widgets" from Brave Search:/);
    assert.match(result.content, /\(Tavily failed: Tavily answered HTTP 500: .*; used the next provider\)/);
    assert.match(result.content, /1\. Widgets - a guide\n {3}https:\/\/widgets\.example\.org\/guide/);
    assert.match(result.content, /UNTRUSTED CONTENT/);
    assert.equal(tavily.requests.length, 1);
    assert.equal(brave.requests.length, 1);
    assert.equal(h.approvals[0]!.category, 'web');
  });

  it('fails with every provider named when all fail', async () => {
    const brave = await start('brave');
    const searx = await start('searxng');
    brave.failWith(500);
    searx.failWith(502);
    const h = new ToolHarness();
    h.registry.register(webSearchTool(searchProviders({ braveKey: 'test-key', braveEndpoint: brave.url, searxngUrl: searx.url })));
    const result = await h.call('web_search', { query: 'widgets' });
    assert.equal(result.isError, true);
    assert.match(result.content, /Every search provider failed \(Brave Search: Brave Search answered HTTP 500.*; SearXNG: SearXNG answered HTTP 502/);
  });

  it('is not offered without a configured provider', () => {
    assert.deepEqual(searchProviders({}), []);
    assert.deepEqual(webTools({ searchProviders: [] }).map((t) => t.name), []);
    assert.deepEqual(webTools({ searchProviders: searchProviders({ searxngUrl: 'http://127.0.0.1:1' }) }).map((t) => t.name), ['web_search']);
  });
});
