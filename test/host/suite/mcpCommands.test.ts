import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import type { McpServerState } from '../../../src/mcp';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../../support/fakeOpenAIServer';
import { isRunning } from '../../support/processes';
import { activateStepwise, EXTENSION_ID, waitFor, workspaceFolder } from './hostTestSupport';

type WindowApi = Record<string, unknown>;

/** Replaces `vscode.window[name]` (the object the extension reads too) until the returned function runs. */
function stubWindow(name: 'showQuickPick' | 'showInputBox' | 'showWarningMessage' | 'showInformationMessage', impl: (...args: never[]) => unknown): () => void {
  const window = vscode.window as unknown as WindowApi;
  const original = window[name];
  window[name] = impl;
  assert.equal(window[name], impl, `vscode.window.${name} could not be replaced`);
  return () => {
    window[name] = original;
  };
}

const SAMPLING_TOOL = 'everything__trigger-sampling-request';
const ELICITATION_TOOL = 'everything__trigger-elicitation-request';
const SAMPLED = 'Sampled answer from the fake model';

const call = (name: string, args: unknown): FakeTurn => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });
const finish = (summary: string): FakeTurn => call('finish', { summary });

/** True when the request is the server's sampling request (server-everything sets this system prompt). */
const isSamplingRequest = (request: RecordedRequest): boolean =>
  (request.body?.messages ?? []).some((m) => m.role === 'system' && String(m.content ?? '').includes('helpful test server'));

/** Tool results in the model's last request. */
function toolMessages(fake: FakeOpenAIServer): string[] {
  const last = fake.chatRequests().filter((r) => !isSamplingRequest(r)).at(-1);
  return (last?.body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));
}

describe('MCP commands, server requests and mcp.json (real server-everything over stdio, inside the extension host)', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  const restores: (() => void)[] = [];
  const config = () => vscode.workspace.getConfiguration('stepwise');
  const set = (key: string, value: unknown) => config().update(key, value, vscode.ConfigurationTarget.Global);
  const stub = (...args: Parameters<typeof stubWindow>): void => void restores.push(stubWindow(...args));

  async function useFake(script: FakeTurn[] | ((request: RecordedRequest) => FakeTurn)): Promise<FakeOpenAIServer> {
    fake = await startFakeOpenAI(script);
    await set('baseUrl', fake.url);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-mcp-cmds-0000000000');
    return fake;
  }

  before(async () => {
    api = await activateStepwise();
    const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const server = path.join(repo, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    await set('plan.mode', 'never');
    await set('approvals.autoApprove', ['read', 'mcp']);
    await set('mcpServers', { everything: { command: 'node', args: [server, 'stdio'] } });
    // The sampling and elicitation tools appear only when the host declares those capabilities.
    await waitFor('the MCP tools in the registry', () => [SAMPLING_TOOL, ELICITATION_TOOL].every((name) => api.toolNames(true).includes(name)), 60_000);
  });

  afterEach(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    while (restores.length) restores.pop()!();
    await fake?.close();
    fake = undefined;
  });

  after(async () => {
    for (const key of ['mcpServers', 'approvals.autoApprove', 'plan.mode', 'baseUrl']) await set(key, undefined);
    await vscode.commands.executeCommand('stepwise.clearApiKey');
  });

  it('registers both commands', async () => {
    const registered = await vscode.commands.getCommands(true);
    assert.ok(registered.includes('stepwise.restartMcpServer'));
    assert.ok(registered.includes('stepwise.runMcpPrompt'));
  });

  it('restarts the server picked from the quick pick: a new process that connects again', async () => {
    const shown: { label: string; description?: string; detail?: string }[][] = [];
    stub('showQuickPick', ((items: { label: string; description?: string; detail?: string }[]) => {
      shown.push(items);
      return Promise.resolve(items.find((item) => item.label === 'everything'));
    }) as never);
    const infos: string[] = [];
    stub('showInformationMessage', ((message: string) => {
      infos.push(message);
      return Promise.resolve(undefined);
    }) as never);

    const first = await vscode.commands.executeCommand<McpServerState | undefined>('stepwise.restartMcpServer');
    assert.equal(first?.status, 'connected');
    const firstPid = first.pid!;
    assert.ok(isRunning(firstPid));
    const second = await vscode.commands.executeCommand<McpServerState | undefined>('stepwise.restartMcpServer');
    assert.equal(second?.status, 'connected');
    assert.ok(second.pid && second.pid !== firstPid, 'the server runs as a new process');
    await waitFor('the old server process to end', () => !isRunning(firstPid));

    const item = shown[0]?.find((entry) => entry.label === 'everything');
    assert.equal(item?.description, 'connected', 'the quick pick shows the state');
    assert.match(item?.detail ?? '', /^\d+ tools, from settings/);
    assert.deepEqual(infos, ['Stepwise: MCP server "everything" restarted.', 'Stepwise: MCP server "everything" restarted.']);
    await waitFor('the tools back in the registry', () => api.toolNames(true).includes('everything__echo'));
  });

  it('starts a task from an MCP prompt with the arguments asked in input boxes', async () => {
    const f = await useFake([finish('Looked up the weather.')]);
    let pickedFrom: { label: string; description?: string }[] = [];
    stub('showQuickPick', ((items: { label: string; description?: string }[]) => {
      pickedFrom = items;
      return Promise.resolve(items.find((item) => item.label === 'Arguments Prompt'));
    }) as never);
    const boxes: vscode.InputBoxOptions[] = [];
    const answers = ['Paris', ''];
    stub('showInputBox', ((options: vscode.InputBoxOptions) => {
      boxes.push(options);
      return Promise.resolve(answers.shift());
    }) as never);

    const runId = await vscode.commands.executeCommand<string | undefined>('stepwise.runMcpPrompt');
    assert.ok(runId, 'a task started');
    await api.controller.whenIdle();

    assert.ok(pickedFrom.some((item) => item.label === 'Simple Prompt' && item.description === 'everything · simple-prompt'), 'prompts are listed by title and server');
    // server-everything describes only its required argument.
    assert.deepEqual(boxes.map((box) => box.prompt), ['city: Name of the city', 'state']);
    assert.deepEqual(boxes.map((box) => box.placeHolder), ['required', 'optional: leave empty to skip']);
    assert.equal(await boxes[0]!.validateInput!(' '), 'city is required.', 'a required argument cannot stay empty');
    assert.equal(await boxes[1]!.validateInput!(''), undefined, 'an optional one can');
    const user = f.chatRequests()[0]?.body?.messages?.find((m) => m.role === 'user');
    assert.match(String(user?.content ?? ''), /What's weather in Paris\?/);
  });

  it('starts nothing when an argument input box is dismissed', async () => {
    const f = await useFake([finish('never used')]);
    stub('showQuickPick', ((items: { label: string }[]) => Promise.resolve(items.find((item) => item.label === 'Arguments Prompt'))) as never);
    stub('showInputBox', (() => Promise.resolve(undefined)) as never);
    const runId = await vscode.commands.executeCommand<string | undefined>('stepwise.runMcpPrompt');
    assert.equal(runId, undefined);
    assert.equal(api.controller.isRunning, false);
    assert.equal(f.chatRequests().length, 0, 'the model was never called');
  });

  function samplingScript(request: RecordedRequest): FakeTurn {
    if (isSamplingRequest(request)) return { text: SAMPLED };
    if ((request.body?.messages ?? []).some((m) => m.role === 'tool')) return finish('Done.');
    return call(SAMPLING_TOOL, { prompt: 'Write a haiku about tests', maxTokens: 50 });
  }

  /**
   * Answers a sampling request where every approval is answered (the chat's buttons call
   * `decideApproval`): the policy asks although `mcp` is auto-approved. Returns the ids it answered.
   */
  function answerSampling(approved: boolean): string[] {
    const answered: string[] = [];
    const off = api.controller.pending.onDidChange(() => setImmediate(() => {
      for (const id of api.controller.pending.pendingApprovals().filter((callId) => callId.startsWith('sampling-'))) {
        if (api.controller.decideApproval(id, approved ? { approved: true } : { approved: false, reason: 'the user denied it' })) answered.push(id);
      }
    }));
    restores.push(off);
    return answered;
  }

  it('answers a server\'s sampling request with the configured model once the user allows it in the task\'s approvals', async () => {
    const f = await useFake(samplingScript);
    const answered = answerSampling(true);
    await api.controller.start('Ask the MCP server to sample');
    await api.controller.whenIdle();

    assert.equal(answered.length, 1, 'the user was asked once, through the policy (mcp tool calls are auto-approved, sampling is not)');
    assert.equal(f.chatRequests().filter(isSamplingRequest).length, 1, 'the model answered the sampling request');
    const [result] = toolMessages(f);
    assert.ok(result?.includes(SAMPLED), `the tool result carries the model's answer: ${result}`);
  });

  it('refuses the sampling request when the user denies it: the tool reports an error and the model is not asked', async () => {
    const f = await useFake(samplingScript);
    const answered = answerSampling(false);
    await api.controller.start('Ask the MCP server to sample');
    await api.controller.whenIdle();

    assert.equal(answered.length, 1);
    assert.equal(f.chatRequests().filter(isSamplingRequest).length, 0, 'no sampling call reached the model');
    const [result] = toolMessages(f);
    assert.match(result ?? '', /rejected sampling request/i);
    assert.ok(!result?.includes(SAMPLED));
  });

  it('asks a server\'s elicitation form field by field in quick inputs', async () => {
    const f = await useFake((request) =>
      (request.body?.messages ?? []).some((m) => m.role === 'tool') ? finish('Done.') : call(ELICITATION_TOOL, {}),
    );
    const asked: string[] = [];
    stub('showInputBox', ((options: vscode.InputBoxOptions) => {
      asked.push(options.prompt ?? '');
      return Promise.resolve(/Your full, legal name/.test(options.prompt ?? '') ? 'Ada Lovelace' : '');
    }) as never);
    stub('showQuickPick', ((items: string[], options: vscode.QuickPickOptions) => {
      asked.push(options.placeHolder ?? '');
      return Promise.resolve(/Agree to the terms/.test(options.placeHolder ?? '') ? 'true' : items[0]);
    }) as never);
    await api.controller.start('Ask me for my details');
    await api.controller.whenIdle();

    assert.match(asked[0] ?? '', /MCP server "everything" asks: Please provide inputs/);
    const [result] = toolMessages(f);
    assert.match(result ?? '', /User provided the requested information/);
    assert.match(result ?? '', /- Name: Ada Lovelace/);
    assert.match(result ?? '', /- Agreed to terms: true/);
  });

  it('applies edits of .vscode/mcp.json and .stepwise/mcp.json once reviewed and trusted, without a reload', async () => {
    const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const server = path.join(repo, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const root = workspaceFolder().uri.fsPath;
    const write = (file: string, name: string): void => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ servers: { [name]: { command: 'node', args: [server, 'stdio'] } } }, null, 2));
    };
    const has = (tool: string): boolean => api.toolNames(true).includes(tool);
    // Every workspace server is trusted when asked; a change applies when the user reviews it.
    stub('showWarningMessage', ((_message: string, ...items: string[]) => Promise.resolve(items.find((item) => item === 'Trust and Start'))) as never);
    const review = () => vscode.commands.executeCommand('stepwise.reviewMcpConfig');
    const vscodeDir = path.join(root, '.vscode');
    const stepwiseDir = path.join(root, '.stepwise');
    const created = [vscodeDir, stepwiseDir].filter((dir) => !existsSync(dir));
    try {
      const file = path.join(vscodeDir, 'mcp.json');
      write(file, 'watched');
      await review();
      await waitFor('the server of the new file', () => has('watched__echo'), 60_000);
      write(file, 'renamed');
      await review();
      await waitFor('the renamed server', () => has('renamed__echo') && !has('watched__echo'), 60_000);
      rmSync(file);
      await review();
      await waitFor('the server of the deleted file to stop', () => !has('renamed__echo'), 60_000);

      assert.ok(created.includes(stepwiseDir), 'the test workspace starts without .stepwise/');
      write(path.join(stepwiseDir, 'mcp.json'), 'own');
      await review();
      await waitFor('the server of .stepwise/mcp.json', () => has('own__echo'), 60_000);
      rmSync(stepwiseDir, { recursive: true });
      await review();
      await waitFor('the server of the deleted folder to stop', () => !has('own__echo'), 60_000);
    } finally {
      for (const dir of created) rmSync(dir, { recursive: true, force: true });
    }
  });
});
