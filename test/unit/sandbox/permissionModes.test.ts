import { strict as assert } from 'node:assert';
import type { ApprovalRequest } from '../../../src/agent/ports';
import { PolicyApprover } from '../../../src/agent/policy/policyApprover';
import { nodeShellSyntax } from '../../../src/node/shellWasm';
import { PERMISSION_RULES, PermissionMode, sandboxFor, type SandboxMode } from '../../../src/shared/sandboxModes';
import { sandboxOptionsFrom } from '../../../src/cli/cliSandboxArgs';

const command = (text: string, sandbox?: SandboxMode, leaveReason?: string): ApprovalRequest => ({
  callId: 'c', tool: 'run_command', category: 'command', title: 't', detail: 'd', command: { text, cwd: '/w' },
  ...(sandbox ? { sandbox: { mode: sandbox, ...(leaveReason ? { leaveReason } : {}) } } : {}),
});
const edit: ApprovalRequest = { callId: 'c', tool: 'write_file', category: 'edit', title: 't', detail: 'd', paths: ['a.txt'] };

describe('permission modes: one table, read by the policy and the CLI', () => {
  // [mode, request, what happens]: 'auto' approved without a person, 'asked' reached the person, 'refused' by the policy.
  const table: Array<[PermissionMode, string, ApprovalRequest, 'auto' | 'asked' | 'refused']> = [
    ['ask', 'a sandboxed command asks in ask mode', command('ls', 'workspace-write'), 'asked'],
    ['auto', 'a sandboxed command runs without asking', command('ls', 'workspace-write'), 'auto'],
    ['auto', 'a hidden construct inside the sandbox runs without asking', command('eval "$X"', 'workspace-write'), 'auto'],
    ['auto', 'a command outside any sandbox still asks', command('ls'), 'asked'],
    ['auto', 'leaving the sandbox asks', command('ls', 'workspace-write', 'needs the network'), 'asked'],
    ['auto', 'the deny list wins inside the sandbox', command('rm -rf ~', 'workspace-write'), 'refused'],
    ['auto', 'edits are asked as configured', edit, 'asked'],
    ['read-only', 'edits are refused', edit, 'refused'],
    ['read-only', 'a read-only sandboxed command runs', command('ls', 'read-only'), 'auto'],
    ['full', 'everything runs without asking', command('ls'), 'auto'],
    ['full', 'edits run without asking', edit, 'auto'],
    ['full', 'the deny list still wins', command('rm -rf ~'), 'refused'],
  ];
  for (const [mode, name, request, expected] of table) {
    it(`${mode}: ${name}`, async () => {
      let asked = false;
      const policy = new PolicyApprover(() => ({ autoApprove: ['read'], commandsAllow: [], commandsDeny: ['rm -rf ~'], permissionMode: mode }), {
        approve: async () => {
          asked = true;
          return { approved: false, reason: 'person said no' };
        },
      }, nodeShellSyntax);
      const decision = await policy.approve(request, new AbortController().signal);
      const got = asked ? 'asked' : decision.approved ? 'auto' : 'refused';
      assert.equal(got, expected);
    });
  }

  it('every mode names its sandbox; an explicit --sandbox wins', () => {
    for (const mode of PermissionMode.options) assert.ok(PERMISSION_RULES[mode].sandbox);
    assert.equal(sandboxFor('auto', undefined), 'workspace-write');
    assert.equal(sandboxFor('auto', 'read-only'), 'read-only');
    assert.equal(sandboxFor('full', undefined), 'off');
  });

  const flags: Array<[Record<string, unknown>, string | { permissionMode: string; sandbox: string; allowHosts: string[] }]> = [
    [{}, { permissionMode: 'ask', sandbox: 'off', allowHosts: [] }],
    [{ sandbox: 'workspace-write', 'sandbox-allow-host': ['a.com,b.com', 'c.org'] }, { permissionMode: 'ask', sandbox: 'workspace-write', allowHosts: ['a.com', 'b.com', 'c.org'] }],
    [{ 'permission-mode': 'auto' }, { permissionMode: 'auto', sandbox: 'workspace-write', allowHosts: [] }],
    [{ 'permission-mode': 'read-only', sandbox: 'off' }, { permissionMode: 'read-only', sandbox: 'off', allowHosts: [] }],
    [{ sandbox: 'docker' }, '--sandbox must be off, read-only, workspace-write'],
    [{ 'permission-mode': 'yolo' }, '--permission-mode must be ask, auto, read-only, full'],
  ];
  for (const [values, expected] of flags) {
    it(`CLI flags ${JSON.stringify(values)}`, () => assert.deepEqual(sandboxOptionsFrom(values), expected));
  }
});
