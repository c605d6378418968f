import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PolicyApprover } from '../../../src/agent/policy/policyApprover';
import { silentLogger, type Approver } from '../../../src/agent/ports';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { connectCliMcp } from '../../../src/cli/cliMcp';
import { CliApprover } from '../../../src/cli/cliApprover';
import type { Prompter } from '../../../src/cli/prompter';
import { HostApprover } from '../../../src/host/common/approval/hostApprover';
import { PendingInteractions } from '../../../src/host/common/approval/pendingInteractions';
import { createModelSamplingHandler, type McpHub } from '../../../src/mcp';
import { approveSampling, NO_TASK_FOR_SAMPLING } from '../../../src/mcp/samplingApproval';
import { nodeShellSyntax } from '../../../src/node/shellWasm';
import type { AgentEvent, ApprovalCategory } from '../../../src/shared/events';
import { ScriptedModel } from '../../support/scriptedModel';
import { scriptedAsker } from '../../support/stubPorts';
import { callTool, directContext, everythingStdio, EVERYTHING_SCRIPT, makeHub, tempDir } from './mcpKit';

const SAMPLING_TOOL = 'everything__trigger-sampling-request';
const approveAll = () => ({ approved: true as const });

/** The approval events a sampling request left, reduced to what must be the same in both shells. */
function samplingEvents(events: AgentEvent[]): string[] {
  return events.flatMap((event) => {
    if (event.type === 'approval_requested' && event.callId.startsWith('sampling-')) return [`requested ${event.category}: ${event.title}`];
    if (event.type === 'approval_answered' && event.callId.startsWith('sampling-')) return [`answered ${event.approved ? 'yes' : 'no'}${event.auto ? ' auto' : ''}`];
    return [];
  });
}

const policy = (person: Approver, autoApprove: ApprovalCategory[]) => new PolicyApprover(() => ({ autoApprove, commandsAllow: [], commandsDeny: [] }), person, nodeShellSyntax);

describe('MCP sampling goes through the one approval policy, with approval events, in both shells (real server-everything)', function () {
  this.timeout(60_000);

  describe("the host's approval path (PolicyApprover around HostApprover: the chat's approval buttons)", () => {
    const pending = new PendingInteractions();
    const events: AgentEvent[] = [];
    let answer = true;
    const details: string[] = [];
    const approver = policy(new HostApprover(pending, { open: async () => {}, close: async () => {} }, silentLogger), ['mcp']);
    const model = new ScriptedModel(() => ({ text: 'Sampled by the host model' }), 'host-model');
    let kit: ReturnType<typeof makeHub>;

    before(async () => {
      // The chat's buttons: every sampling approval that starts waiting is answered.
      pending.onDidChange(() => setImmediate(() => {
        for (const id of pending.pendingApprovals()) pending.resolveApproval(id, answer ? { approved: true } : { approved: false, reason: 'no thanks' });
      }));
      kit = makeHub({
        sampling: createModelSamplingHandler({
          model,
          approve: (request, signal) => approveSampling(request, { approver, emit: (event) => {
            if (event.type === 'approval_requested') details.push(event.detail);
            events.push(event);
          } }, signal),
        }),
      });
      await kit.hub.configure([everythingStdio('everything')]);
      await kit.waitFor(() => kit.registry.get(SAMPLING_TOOL) !== undefined, 'the sampling tool');
    });
    after(() => kit.hub.dispose());
    beforeEach(() => void (events.length = 0));

    it('asks a person although mcp is auto-approved, records the request and the answer, and the model answers', async () => {
      answer = true;
      const result = await callTool(kit.registry, SAMPLING_TOOL, { prompt: 'Write a haiku about tests', maxTokens: 50 }, directContext({ decide: approveAll }).context);
      assert.deepEqual(samplingEvents(events), ['requested mcp: MCP server "everything" asks to use the model', 'answered yes']);
      assert.match(details.at(-1) ?? '', /User: .*Write a haiku about tests[\s\S]*Answer of up to 50 tokens\./);
      assert.match(result.content, /Sampled by the host model/);
    });

    it('a denial goes back to the server as a rejected request and the model is not called', async () => {
      answer = false;
      const calls = model.requests.length;
      const result = await callTool(kit.registry, SAMPLING_TOOL, { prompt: 'Say hi' }, directContext({ decide: approveAll }).context);
      assert.deepEqual(samplingEvents(events), ['requested mcp: MCP server "everything" asks to use the model', 'answered no']);
      assert.equal(model.requests.length, calls, 'the model was not asked');
      assert.match(result.content, /rejected sampling request/i);
    });
  });

  it('the CLI (connectCliMcp): the same policy and the same events, asked on the terminal', async () => {
    const dir = await tempDir('stepwise-cli-sampling-');
    let hub: McpHub | undefined;
    try {
      const configPath = join(dir.path, 'mcp.json');
      await writeFile(configPath, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'] } } }));
      const asked: string[] = [];
      const prompter: Prompter = { ask: async (prompt) => (asked.push(prompt), 'y') };
      const events: AgentEvent[] = [];
      const registry = new ToolRegistry();
      hub = await connectCliMcp({
        configPath, workspaceRoot: dir.path, env: {}, registry, model: new ScriptedModel(() => ({ text: 'Sampled in the CLI' }), 'cli-model'),
        approver: policy(new CliApprover(prompter), ['mcp']), emit: (event) => events.push(event), asker: scriptedAsker(), logger: silentLogger, warn: () => {},
      });
      await new Promise<void>((resolve, reject) => {
        const end = Date.now() + 20_000;
        const check = () => (registry.get(SAMPLING_TOOL) ? resolve() : Date.now() > end ? reject(new Error('no sampling tool')) : setTimeout(check, 50));
        check();
      });
      const result = await callTool(registry, SAMPLING_TOOL, { prompt: 'Say hi from the CLI' }, directContext({ decide: approveAll }).context);
      assert.deepEqual(samplingEvents(events), ['requested mcp: MCP server "everything" asks to use the model', 'answered yes']);
      assert.equal(asked.length, 1, 'the person was asked on the terminal although mcp is auto-approved');
      assert.match(asked[0]!, /Say hi from the CLI/);
      assert.match(result.content, /Sampled in the CLI/);
    } finally {
      await hub?.dispose();
      await dir.remove();
    }
  });

  it('without a running task a sampling request is refused (deny by default) and nothing is asked', async () => {
    const decision = await approveSampling({ server: 's', messages: [{ role: 'user', text: 'hi' }], maxTokens: 5, modelHints: [] }, undefined, new AbortController().signal);
    assert.deepEqual(decision, { approved: false, reason: NO_TASK_FOR_SAMPLING });
  });
});
