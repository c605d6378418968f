import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createToolContext } from '../../../src/agent/loop/toolContext';
import { silentLogger } from '../../../src/agent/ports';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { createMcpTool, type McpToolInvoker } from '../../../src/mcp/mcpTool';
import { ToolSchemaChecker } from '../../../src/mcp/toolSchema';
import type { AgentEvent } from '../../../src/shared/events';
import { recordingApprover, scriptedAsker, stubCommandRunner, stubWorkspace } from '../../support/stubPorts';
import { frameMcpText } from '../../../src/mcp/mcpContent';

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: 1 } },
  required: ['path'],
};

function setup(answer: CallToolResult | ((args: Record<string, unknown>) => CallToolResult), autoApproved = false) {
  const sent: Record<string, unknown>[] = [];
  const invoker: McpToolInvoker = {
    callTool: async (_tool, args, options) => {
      sent.push(args);
      options.onprogress({ progress: 1, total: 2, message: 'halfway' });
      options.onprogress({ progress: 2 });
      return typeof answer === 'function' ? answer(args) : answer;
    },
  };
  const { check } = new ToolSchemaChecker().compile(schema);
  const tool = createMcpTool({
    server: 'files',
    definition: { name: 'list', description: 'Lists a folder.', inputSchema: schema as never },
    exposedName: 'files__list',
    invoker,
    autoApproved,
    timeoutMs: 1000,
    maxResultChars: 200,
    ...(check ? { check } : {}),
  });
  const registry = new ToolRegistry([tool]);
  const events: AgentEvent[] = [];
  const approver = recordingApprover();
  const context = createToolContext(
    { workspace: stubWorkspace(), commands: stubCommandRunner(), approver, asker: scriptedAsker(), logger: silentLogger, signal: new AbortController().signal, emit: (e) => events.push(e) },
    'call_1',
    'files__list',
  );
  const call = async (args: unknown) => {
    const parsed = registry.parseArguments('files__list', JSON.stringify(args));
    return parsed.ok ? registry.execute('files__list', parsed.args, context) : { content: parsed.message, isError: true };
  };
  return { registry, call, sent, events, approver };
}

describe('MCP tool wrapper', () => {
  it('offers the server schema without $schema and validates arguments against it before sending', async () => {
    const { registry, call, sent } = setup({ content: [{ type: 'text', text: 'ok' }] });
    const spec = registry.specs()[0]!;
    assert.equal(spec.parameters.$schema, undefined);
    assert.deepEqual(spec.parameters.required, ['path']);
    assert.match(spec.description, /^Lists a folder\. \(MCP tool "list" of server "files"\)$/);
    const bad = await call({ depth: 0 });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /must have required property 'path'/);
    assert.match(bad.content, /`depth` must be >= 1/);
    assert.deepEqual(sent, []);
  });

  it('asks approval with the arguments, streams progress, returns text', async () => {
    const { call, events, approver } = setup({ content: [{ type: 'text', text: 'a.txt' }, { type: 'text', text: 'b.txt' }] });
    const result = await call({ path: 'src' });
    assert.deepEqual(result, { content: frameMcpText('MCP tool result', 'files', 'list', 'a.txt\n\nb.txt') });
    assert.equal(approver.requests[0]?.category, 'mcp');
    assert.match(approver.requests[0]?.detail ?? '', /"path": "src"/);
    assert.deepEqual(
      events.filter((e) => e.type === 'tool_output').map((e) => (e.type === 'tool_output' ? e.chunk : '')),
      ['progress 1/2: halfway\n', 'progress 2\n'],
    );
  });

  it('returns isError results as error results and uses structured content when there is no text', async () => {
    assert.deepEqual(await setup({ content: [{ type: 'text', text: 'no such folder' }], isError: true }, true).call({ path: 'x' }), {
      content: frameMcpText('MCP tool result', 'files', 'list', 'no such folder'),
      isError: true,
    });
    assert.deepEqual(await setup({ content: [], isError: true }, true).call({ path: 'x' }), { content: '`files__list` failed without a message.', isError: true });
    assert.deepEqual(await setup({ content: [], structuredContent: { files: ['a'] } }, true).call({ path: 'x' }), {
      content: frameMcpText('MCP tool result', 'files', 'list', '{\n  "files": [\n    "a"\n  ]\n}'),
    });
  });
});
