import assert from 'node:assert/strict';
import { createToolContext } from '../../../src/agent/loop/toolContext';
import { PolicyApprover } from '../../../src/agent/policy/policyApprover';
import { silentLogger, type ApprovalDecision, type Approver } from '../../../src/agent/ports';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { createMcpTool } from '../../../src/mcp/mcpTool';
import { nodeShellSyntax } from '../../../src/node/shellWasm';
import type { AgentEvent, ApprovalCategory } from '../../../src/shared/events';
import { scriptedAsker, stubCommandRunner, stubWorkspace } from '../../support/stubPorts';

interface Row {
  name: string;
  /** The server's `autoApprove` lists the tool. */
  serverAutoApproves: boolean;
  /** The user's auto-approved categories. */
  categories: ApprovalCategory[];
  person: ApprovalDecision;
  /** What happened, in order: events, `person asked`, `sent`. */
  expected: string[];
}

/** One MCP tool call through the real policy and tool context: the events, whether the person was asked, whether the call was sent. */
async function call(row: Row): Promise<string[]> {
  const log: string[] = [];
  const person: Approver = { approve: async () => (log.push('person asked'), row.person) };
  const policy = new PolicyApprover(() => ({ autoApprove: row.categories, commandsAllow: [], commandsDeny: [] }), person, nodeShellSyntax);
  const tool = createMcpTool({
    server: 'everything',
    definition: { name: 'echo', inputSchema: { type: 'object' } },
    exposedName: 'everything__echo',
    invoker: { callTool: async () => (log.push('sent'), { content: [{ type: 'text', text: 'ok' }] }) },
    autoApproved: row.serverAutoApproves,
    timeoutMs: 1000,
    maxResultChars: 1000,
  });
  const emit = (event: AgentEvent): void => {
    if (event.type === 'approval_requested') log.push(`requested ${event.category}`);
    if (event.type === 'approval_answered') log.push(`answered ${event.approved ? 'yes' : 'no'}${event.auto ? ' auto' : ''}`);
  };
  const ports = { workspace: stubWorkspace(), commands: stubCommandRunner(), approver: policy, asker: scriptedAsker(), logger: silentLogger, signal: new AbortController().signal, emit };
  await new ToolRegistry([tool]).execute('everything__echo', { message: 'hi' }, createToolContext(ports, 'c1', 'everything__echo'));
  return log;
}

describe("MCP tool calls go through the one approval policy (the server's autoApprove is an input)", () => {
  const rows: Row[] = [
    { name: 'listed in autoApprove: approved by the policy, recorded as auto, sent', serverAutoApproves: true, categories: [], person: { approved: false }, expected: ['requested mcp', 'answered yes auto', 'sent'] },
    { name: 'not listed, mcp not auto-approved: the person is asked first', serverAutoApproves: false, categories: [], person: { approved: true }, expected: ['requested mcp', 'person asked', 'answered yes', 'sent'] },
    { name: 'not listed, the person declines: nothing is sent', serverAutoApproves: false, categories: [], person: { approved: false }, expected: ['requested mcp', 'person asked', 'answered no'] },
    { name: "not listed, the user auto-approves the mcp category: auto", serverAutoApproves: false, categories: ['mcp'], person: { approved: false }, expected: ['requested mcp', 'answered yes auto', 'sent'] },
    { name: 'another category auto-approved does not cover mcp', serverAutoApproves: false, categories: ['edit', 'command'], person: { approved: true }, expected: ['requested mcp', 'person asked', 'answered yes', 'sent'] },
  ];
  for (const row of rows) it(row.name, async () => assert.deepEqual(await call(row), row.expected));
});
