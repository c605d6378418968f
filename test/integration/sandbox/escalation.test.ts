import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ApprovalDecision, ApprovalRequest } from '../../../src/agent/ports';
import { PolicyApprover } from '../../../src/agent/policy/policyApprover';
import { ExecaCommandRunner } from '../../../src/node/execaCommandRunner';
import { CommandSandbox } from '../../../src/node/sandbox/commandSandbox';
import { fixedSandbox } from '../../../src/node/sandbox/sandboxSource';
import { nodeShellSyntax } from '../../../src/node/shellWasm';
import type { PermissionMode } from '../../../src/shared/sandboxModes';
import { ToolHarness } from '../../unit/tools/toolHarness';
import { MemoryWorkspace } from '../../support/memoryWorkspace';

// Issue 25, acceptance 2: a command the sandbox blocked, asked again outside it. The real runner in a
// real bubblewrap sandbox, the real approval policy; only the person answering is scripted.

describe('sandbox escalation: run_command outside the sandbox is asked with its reason', function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  let sandbox: CommandSandbox;
  let runner: ExecaCommandRunner;

  before(async () => {
    root = mkdtempSync('/var/tmp/stepwise-escalation-');
    ws = path.join(root, 'ws');
    mkdirSync(ws);
    const opened = await CommandSandbox.open({ mode: 'workspace-write', workspace: ws, allowHosts: [], webPolicy: { allowHosts: [], denyHosts: [] } });
    assert.ok(opened instanceof CommandSandbox, `bubblewrap must work here: ${'unavailable' in opened ? opened.unavailable : ''}`);
    sandbox = opened;
    runner = new ExecaCommandRunner({ sandbox: fixedSandbox(sandbox) });
  });

  after(async () => {
    runner.dispose();
    await sandbox.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  /** A harness whose approvals go through the real policy in `mode` (commands not auto-approved unless `commandsAuto`); `person` answers what reaches a person. */
  function harness(mode: PermissionMode, person: (request: ApprovalRequest) => ApprovalDecision, commandsAuto = false) {
    const asked: ApprovalRequest[] = [];
    const rules = commandsAuto ? { autoApprove: ['read', 'command'] as const, commandsAllow: ['echo'] } : { autoApprove: ['read'] as const, commandsAllow: [] };
    const policy = new PolicyApprover(() => ({ ...rules, commandsDeny: [], permissionMode: mode }), {
      approve: async (request) => {
        asked.push(request);
        return person(request);
      },
    }, nodeShellSyntax);
    const tools = new ToolHarness({ workspace: new MemoryWorkspace({}, ws), commands: runner, decide: (request) => policy.approve({ ...request, callId: 'c', tool: 'run_command' }, new AbortController().signal) });
    return { tools, asked };
  }

  it('blocked inside (not asked in auto mode); asked outside with the reason; approved, it runs outside', async () => {
    const { tools, asked } = harness('auto', () => ({ approved: true }));
    const target = path.join(root, 'approved.txt');
    const inside = await tools.call('run_command', { command: `echo out > ${target}` });
    assert.match(inside.content, /blocked by the sandbox: write outside the workspace/);
    assert.match(inside.content, /outside_sandbox: true/);
    assert.equal(asked.length, 0, 'inside the sandbox nothing is asked in auto mode');
    assert.equal(existsSync(target), false);

    const outside = await tools.call('run_command', { command: `echo out > ${target}`, outside_sandbox: true, reason: 'the build writes its cache next to the workspace' });
    assert.equal(asked.length, 1, 'leaving the sandbox is asked');
    assert.match(asked[0]!.askReason ?? '', /outside the sandbox \(workspace-write\): the build writes its cache next to the workspace/);
    assert.match(asked[0]!.title, /outside the sandbox/);
    assert.match(asked[0]!.detail, /Outside the sandbox \(workspace-write\): the build writes its cache/);
    assert.match(outside.content, /^exit code 0/);
    assert.doesNotMatch(outside.content, /\[sandbox/);
    assert.equal(readFileSync(target, 'utf8'), 'out\n', 'approved, it ran outside');
  });

  it('refused, the model is told (with the person\'s reason) and nothing ran', async () => {
    const { tools, asked } = harness('auto', () => ({ approved: false, reason: 'not on my machine' }), true);
    const target = path.join(root, 'refused.txt');
    const result = await tools.call('run_command', { command: `echo out > ${target}`, outside_sandbox: true, reason: 'needs to write outside' });
    assert.equal(asked.length, 1, 'asked although commands are auto-approved and echo is on the allow list');
    assert.equal(result.isError, true);
    assert.match(result.content, /rejected running the command outside the sandbox \(it did not run\)\. Reason: not on my machine/);
    assert.equal(existsSync(target), false);
  });

  it('a request to leave without a reason is an error result, not a question', async () => {
    const { tools, asked } = harness('auto', () => ({ approved: true }));
    const result = await tools.call('run_command', { command: 'echo hi', outside_sandbox: true });
    assert.equal(result.isError, true);
    assert.match(result.content, /outside_sandbox needs a reason/);
    assert.equal(asked.length, 0);
  });

  it('ask mode: a sandboxed command that is not auto-approved still asks; read-only mode refuses edits', async () => {
    const ask = new PolicyApprover(() => ({ autoApprove: ['read'], commandsAllow: [], commandsDeny: [], permissionMode: 'ask' }), { approve: async () => ({ approved: false }) }, nodeShellSyntax);
    const decision = await ask.approve({ callId: 'c', tool: 'run_command', category: 'command', title: 't', detail: 'd', command: { text: 'ls', cwd: ws }, sandbox: { mode: 'workspace-write' } }, new AbortController().signal);
    assert.equal(decision.approved, false);
    const readOnly = new PolicyApprover(() => ({ autoApprove: ['read', 'edit'], commandsAllow: [], commandsDeny: [], permissionMode: 'read-only' }), { approve: async () => ({ approved: true }) }, nodeShellSyntax);
    const edit = await readOnly.approve({ callId: 'c', tool: 'write_file', category: 'edit', title: 't', detail: 'd', paths: ['a.txt'] }, new AbortController().signal);
    assert.equal(edit.approved, false);
    assert.match(edit.approved ? '' : edit.reason ?? '', /read-only mode/);
  });
});
