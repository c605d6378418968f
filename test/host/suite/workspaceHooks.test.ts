// Hooks in the real extension host: the user's `stepwise.hooks` run at once; a workspace's
// `.stepwise/settings.json` hooks are commands from the repository and do nothing until the user
// trusts them (asked once, by fingerprint: a changed hook is asked about again). Real tasks against
// a fake model over loopback; real hook processes leave marker files.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { activateStepwise, waitFor, workspaceFolder } from './hostTestSupport';

type WindowApi = Record<string, unknown>;
const call = (name: string, args: unknown): FakeTurn => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

describe('hooks: the user\'s run, a workspace\'s wait for trust (trusted workspace)', function () {
  this.timeout(180_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  const warnings: string[] = [];
  let trustAnswer: 'Trust Hooks' | "Don't Run" | undefined;
  const restores: Array<() => void> = [];
  const config = () => vscode.workspace.getConfiguration('stepwise');
  const root = (): string => workspaceFolder().uri.fsPath;
  const marker = (name: string): string => path.join(root(), name);
  const hooksFile = (name: string): void => {
    mkdirSync(path.join(root(), '.stepwise'), { recursive: true });
    writeFileSync(path.join(root(), '.stepwise', 'settings.json'), JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: `touch ${name}; echo "refused by the repository's hook" >&2; exit 2` }] }] },
    }));
  };

  async function task(): Promise<string> {
    const runId = await api.controller.start('Run the command');
    await api.controller.whenIdle();
    assert.equal(api.controller.run(runId!)?.outcome, 'finished');
    return runId!;
  }

  // The shared test workspace is left as found: suites after this one expect no .stepwise/.
  let hadStepwise = false;
  before(async () => {
    hadStepwise = existsSync(path.join(root(), '.stepwise'));
    api = await activateStepwise();
    const window = vscode.window as unknown as WindowApi;
    const original = window.showWarningMessage;
    window.showWarningMessage = ((message: string, ...items: unknown[]) => {
      warnings.push(message);
      return Promise.resolve(items.find((item) => item === trustAnswer));
    }) as never;
    restores.push(() => (window.showWarningMessage = original));
    // Every task: one command, then finish once a tool result is there.
    fake = await startFakeOpenAI((request) =>
      request.body?.messages?.some((m) => m.role === 'tool') ? call('finish', { summary: 'Done.' }) : call('run_command', { command: 'echo ran >> ran.txt' }),
    );
    await config().update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await config().update('plan.mode', 'never', vscode.ConfigurationTarget.Global);
    await config().update('verify.mode', 'off', vscode.ConfigurationTarget.Global);
    await config().update('approvals.autoApprove', ['read', 'command'], vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-hooks-000000000000');
  });

  after(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    rmSync(path.join(root(), '.stepwise', 'settings.json'), { force: true });
    if (!hadStepwise) rmSync(path.join(root(), '.stepwise'), { recursive: true, force: true });
    for (const name of ['ran.txt', 'user-hook-ran', 'repo-hook-1', 'repo-hook-2']) rmSync(marker(name), { force: true });
    for (const key of ['baseUrl', 'plan.mode', 'verify.mode', 'approvals.autoApprove', 'hooks']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.clearApiKey');
    while (restores.length) restores.pop()!();
    await fake?.close();
  });

  it('the user\'s own hook (stepwise.hooks) runs at once', async () => {
    await config().update('hooks', { PostToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: 'cat > user-hook-ran' }] }] }, vscode.ConfigurationTarget.Global);
    await task();
    assert.ok(existsSync(marker('user-hook-ran')), 'the user hook ran');
    // Through the terminal-mirroring runner too, the hook read the event on its stdin.
    const event = JSON.parse(readFileSync(marker('user-hook-ran'), 'utf8')) as { hook_event_name: string; tool_name: string; tool_input: { command: string } };
    assert.deepEqual([event.hook_event_name, event.tool_name, event.tool_input.command], ['PostToolUse', 'run_command', 'echo ran >> ran.txt']);
    await config().update('hooks', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a workspace hook does nothing until trusted; once trusted it runs (and blocks); a changed hook waits again', async () => {
    hooksFile('repo-hook-1');
    trustAnswer = 'Trust Hooks';
    warnings.length = 0;
    await task();
    const question = await waitFor('the trust question', () => warnings.find((m) => m.includes('.stepwise/settings.json')));
    assert.match(question, /PreToolUse \(run_command\): touch repo-hook-1/);
    assert.ok(!existsSync(marker('repo-hook-1')), 'the task that found the hooks ran without them');

    // Trusted now (the answer above): the next task runs the hook, which refuses the command.
    rmSync(marker('ran.txt'), { force: true });
    await task();
    assert.ok(existsSync(marker('repo-hook-1')), 'the trusted workspace hook ran');
    assert.ok(!existsSync(marker('ran.txt')), 'and its exit 2 refused the command');
    const refused = fake!.chatRequests().at(-1)!.body!.messages!.find((m) => m.role === 'tool');
    assert.match(String(refused?.content), /refused by the repository's hook/);

    // The repository changes the hook: new hooks, asked about again, not run before the answer.
    hooksFile('repo-hook-2');
    trustAnswer = "Don't Run";
    warnings.length = 0;
    await task();
    await waitFor('the question about the changed hook', () => warnings.some((m) => m.includes('touch repo-hook-2')));
    await task();
    assert.ok(!existsSync(marker('repo-hook-2')), 'the changed hook did not run');
    assert.ok(existsSync(marker('ran.txt')), 'the command ran without it');
  });
});
