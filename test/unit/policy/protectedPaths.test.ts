import assert from 'node:assert/strict';
import { PolicyApprover } from '../../../src/agent/policy/policyApprover';
import { isProtectedPath } from '../../../src/agent/policy/protectedPaths';
import type { ApprovalRequest } from '../../../src/agent/ports';
import { nodeShellSyntax } from '../../../src/node/shellWasm';
import { MemoryWorkspace } from '../../support/memoryWorkspace';
import { ToolHarness } from '../tools/toolHarness';

const PROTECTED: string[] = [
  '.vscode/settings.json', '.VSCode/Settings.json', '.stepwise/mcp.json', '.stepwise/rules/style.md', 'mcp.json', 'sub/dir/mcp.json',
  'AGENTS.md', 'docs/CLAUDE.md', '.github/copilot-instructions.md', '.git/hooks/pre-commit', '.git/config', './.vscode/tasks.json',
  '.husky/pre-commit', '.envrc', '.stepwiseignore', '.gitmodules', '.stepwise/reports/mcp.json', '.stepwise/reports/.git/config',
  // Skills, custom roles and prompt files: instructions the agent follows in later tasks.
  '.stepwise/skills/x/SKILL.md', '.agents/skills/x/run.sh', '.claude/agents/reviewer.md', '.claude/skills/x/SKILL.md', '.github/agents/doc.agent.md', '.github/prompts/fix.prompt.md',
];
const ORDINARY: string[] = ['.stepwise/reports/20260101-report.md', 'docs/agents/guide.md', '.github/prompts.md', 'src/index.ts', 'README.md', '.gitignore', 'docs/agents.txt', 'vscode/settings.json', '.github/CODEOWNERS', 'package.json'];

describe('protected paths', () => {
  it('protects the agent, editor and repository configuration', () => {
    for (const path of PROTECTED) assert.equal(isProtectedPath(path), true, path);
    for (const path of ORDINARY) assert.equal(isProtectedPath(path), false, path);
  });

  for (const [tool, args] of [
    ['write_file', { path: '.stepwise/mcp.json', content: '{"mcpServers":{"x":{"command":"/bin/sh","args":["-c","touch pwned"]}}}' }],
    ['write_file', { path: '.vscode/settings.json', content: '{"stepwise.approvals.autoApprove":["command"]}' }],
    ['edit_file', { path: '.vscode/settings.json', edits: [{ search: '{}', replace: '{"stepwise.commands.allow":["*"]}' }] }],
  ] as const) {
    it(`${tool} of ${args.path} asks although edits are auto-approved; refused, nothing changes`, async () => {
      const workspace = new MemoryWorkspace({ '.vscode/settings.json': '{}' });
      const asked: ApprovalRequest[] = [];
      const policy = new PolicyApprover(
        () => ({ autoApprove: ['read', 'edit'], commandsAllow: [], commandsDeny: [] }),
        { approve: async (request) => (asked.push(request), { approved: false, reason: 'not this file' }) },
        nodeShellSyntax,
      );
      policy.allowForSession('edit');
      const h = new ToolHarness({ workspace, decide: (request) => policy.approve({ ...request, callId: 'c', tool }, new AbortController().signal) });
      const result = await h.call(tool, args);
      assert.equal(asked.length, 1, 'the user was asked');
      assert.match(asked[0]!.askReason ?? '', /Protected file/);
      assert.equal(result.isError, true);
      assert.match(result.content, /not this file/);
      assert.equal(workspace.text('.vscode/settings.json'), '{}');
      assert.equal(workspace.text('.stepwise/mcp.json'), undefined);
    });
  }

  it('an ordinary file with edits auto-approved is written without asking', async () => {
    const workspace = new MemoryWorkspace();
    let asked = 0;
    const policy = new PolicyApprover(() => ({ autoApprove: ['edit'], commandsAllow: [], commandsDeny: [] }), { approve: async () => (asked++, { approved: false }) }, nodeShellSyntax);
    const h = new ToolHarness({ workspace, decide: (request) => policy.approve({ ...request, callId: 'c', tool: 'write_file' }, new AbortController().signal) });
    await h.call('write_file', { path: 'src/a.ts', content: 'x\n' });
    assert.equal(asked, 0);
    assert.equal(workspace.text('src/a.ts'), 'x\n');
  });

  it('asks for every command when the shell parser cannot load, even with commands auto-approved', async () => {
    let asked = 0;
    const policy = new PolicyApprover(
      () => ({ autoApprove: ['command'], commandsAllow: ['echo'], commandsDeny: [] }),
      { approve: async () => (asked++, { approved: false }) },
      () => Promise.reject(new Error('wasm missing')),
    );
    const decision = await policy.approve({ callId: 'c', tool: 'run_command', category: 'command', title: 't', detail: 'echo', command: { text: 'echo hi', cwd: '/w' } }, new AbortController().signal);
    assert.deepEqual(decision, { approved: false });
    assert.equal(asked, 1);
  });

  it('tells the model that the policy, not a person, refused a denied command', async () => {
    const policy = new PolicyApprover(() => ({ autoApprove: ['command'], commandsAllow: [], commandsDeny: ['sudo *'] }), { approve: async () => ({ approved: true }) }, nodeShellSyntax);
    const h = new ToolHarness({ decide: (request) => policy.approve({ ...request, callId: 'c', tool: 'run_command' }, new AbortController().signal) });
    const result = await h.call('run_command', { command: 'echo ok && env sudo id' });
    assert.equal(result.isError, true);
    assert.match(result.content, /^The approval policy refused the command \(it did not run\)\. The command is refused by the deny list \("sudo \*" matches `sudo id`\)/);
  });
});
