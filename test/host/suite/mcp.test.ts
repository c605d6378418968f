import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { activateStepwise, EXTENSION_ID, waitFor } from './hostTestSupport';

describe('MCP servers from the settings (real server-everything over stdio, inside the extension host)', function () {
  this.timeout(120_000);
  let fake: FakeOpenAIServer | undefined;
  const config = () => vscode.workspace.getConfiguration('stepwise');

  after(async () => {
    await config().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    await config().update('approvals.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.clearApiKey');
    await fake?.close();
  });

  it('connects the server, offers its tools and runs one in a task', async () => {
    const api = await activateStepwise();
    const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const server = path.join(repo, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    await config().update('mcpServers', { everything: { command: 'node', args: [server, 'stdio'] } }, vscode.ConfigurationTarget.Global);
    // Servers connect once a view is shown (or a task starts), never at activation alone.
    await vscode.commands.executeCommand('stepwise.chat.focus');
    await waitFor('the MCP tools in the registry', () => api.toolNames(true).includes('everything__echo'), 60_000);
    assert.equal(api.toolNames(false).includes('everything__echo'), false, 'Restricted Mode offers no MCP tool');

    await config().update('approvals.autoApprove', ['read', 'mcp'], vscode.ConfigurationTarget.Global);
    await config().update('plan.mode', 'never', vscode.ConfigurationTarget.Global);
    fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'everything__echo', arguments: JSON.stringify({ message: 'hello from the host' }) }] },
      { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'Echoed.' }) }] },
    ]);
    await config().update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-mcp-000000000000');
    const runId = await api.controller.start('Echo through MCP');
    assert.ok(runId);
    await api.controller.whenIdle();
    assert.ok((fake.chatRequests()[0]?.body?.tools ?? []).some((t) => t.function.name === 'everything__echo'), 'the model was offered the MCP tool');
    const result = fake.chatRequests()[1]?.body?.messages?.find((m) => m.role === 'tool');
    assert.match(String(result?.content ?? ''), /hello from the host/);

    await config().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the MCP tools to leave', () => !api.toolNames(true).includes('everything__echo'), 30_000);
  });
});
