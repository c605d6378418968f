import { startEverythingHttp } from './httpServers';
import { everythingSuite } from './everythingSuite';

// Streamable HTTP at /mcp, reached with the default `auto` transport (Streamable HTTP first).
everythingSuite('Streamable HTTP', 'streamable-http', async () => {
  const server = await startEverythingHttp('streamableHttp');
  return {
    config: { name: 'everything', source: 'test', enabled: true, autoApprove: [], kind: 'http', url: `${server.origin}/mcp`, headers: {}, transport: 'auto' },
    stop: server.stop,
  };
});

// SSE at /sse with the `auto` transport: Streamable HTTP fails there, the hub falls back to SSE.
everythingSuite('SSE (fallback from Streamable HTTP)', 'sse', async () => {
  const server = await startEverythingHttp('sse');
  return {
    config: { name: 'everything', source: 'test', enabled: true, autoApprove: [], kind: 'http', url: `${server.origin}/sse`, headers: {}, transport: 'auto' },
    stop: server.stop,
  };
});
