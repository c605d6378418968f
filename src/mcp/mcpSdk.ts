// The MCP SDK's runtime values, in one place: the bundles keep this module (the SDK, its ajv and
// its zod schemas; a fifth of the extension's bytes) in a separate `dist/mcp-sdk.js`
// (scripts/build.mjs). The hub is required only once a server is configured (McpHost), so a
// closed sidebar, or a workspace without servers, never loads it. Types come from the SDK itself.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
