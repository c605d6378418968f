// The protocol SDKs of the server shells, in a bundle of their own (`dist/server-sdks.js`, see
// LAZY in scripts/build.mjs): `stepwise run` never parses them; `loadServerSdks` requires them
// when `stepwise mcp | acp` starts.
/** The MCP SDK's server side. */
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
/** The MCP SDK's stdio server transport. */
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
/** The Agent Client Protocol SDK (stable v1). */
export * as acp from '@agentclientprotocol/sdk';
