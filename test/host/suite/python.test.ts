import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { activateStepwise } from './hostTestSupport';

const call = (name: string, args: unknown): FakeTurn => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

/** True while `pid` is a live (not zombie) process. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('stepwise').update(key, value, vscode.ConfigurationTarget.Global);
}

describe('python_execute in the real editor', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  const before = process.env.STEPWISE_PYTHON;

  beforeEach(async () => {
    api = await activateStepwise();
    // Debian's interpreter (PATH's python3 may be a pyenv shim); the extension reads this at each task.
    process.env.STEPWISE_PYTHON = process.env.STEPWISE_TEST_PYTHON ?? '/usr/bin/python3';
  });
  afterEach(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    await fake?.close();
    fake = undefined;
    if (before === undefined) delete process.env.STEPWISE_PYTHON;
    else process.env.STEPWISE_PYTHON = before;
    await setSetting('approvals.autoApprove', undefined);
    await vscode.commands.executeCommand('stepwise.clearApiKey');
  });

  it('a data task keeps its variables between calls, and its Python process ends with the task', async () => {
    await setSetting('approvals.autoApprove', ['read', 'command']);
    fake = await startFakeOpenAI([
      call('python_execute', { code: 'import os\nx = 41\nprint("pid", os.getpid())' }),
      call('python_execute', { code: 'x + 1' }),
      call('finish', { summary: 'Counted.' }),
    ]);
    await setSetting('baseUrl', fake.url);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-test-0000000000000000');
    const runId = await api.controller.start('Use Python to count to 42.', { planMode: 'never' });
    assert.ok(runId, 'the task started');
    await api.controller.whenIdle();
    const requests = fake.chatRequests();
    assert.ok((requests[0]!.body?.tools ?? []).some((t) => t.function.name === 'python_execute'), 'a data task is offered python_execute');
    const results = (requests.at(-1)!.body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));
    const pid = Number(/pid (\d+)/.exec(results[0] ?? '')?.[1]);
    assert.ok(pid > 0, results.join('\n---\n'));
    assert.match(results[1] ?? '', /^ok\n42$/, 'the variable survived between calls');
    assert.equal(alive(pid), false, 'the interpreter ended with the task');
  });
});
