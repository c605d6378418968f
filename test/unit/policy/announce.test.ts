import assert from 'node:assert/strict';
import { createToolContext } from '../../../src/agent/loop/toolContext';
import { PolicyApprover } from '../../../src/agent/policy/policyApprover';
import type { ApprovalDecision, Approver } from '../../../src/agent/ports';
import type { AgentEvent } from '../../../src/shared/events';
import { nodeShellSyntax } from '../../../src/node/shellWasm';

/** A tool's approval request through the policy: the events it emits, in order, and when the person was asked. */
async function approval(autoApprove: Array<'edit' | 'command'>, path: string): Promise<string[]> {
  const log: string[] = [];
  const person: Approver = { approve: async (): Promise<ApprovalDecision> => (log.push('person asked'), { approved: true }) };
  const policy = new PolicyApprover(() => ({ autoApprove, commandsAllow: [], commandsDeny: [] }), person, nodeShellSyntax);
  const approver: Approver = { approve: async (request, signal) => {
    const decision = await policy.approve(request, signal);
    log.push('decided');
    return decision;
  } };
  const emit = (event: AgentEvent) => void log.push(event.type);
  const ports = { approver, emit, signal: new AbortController().signal } as unknown as Parameters<typeof createToolContext>[0];
  const context = createToolContext(ports, 'c1', 'write_file');
  await context.requestApproval({ category: 'edit', title: `Edit ${path}`, detail: 'diff', paths: [path] });
  return log;
}

describe('approvals are shown as waiting only while a person is asked', () => {
  const cases: Array<{ name: string; auto: Array<'edit' | 'command'>; path: string; expected: string[] }> = [
    { name: 'auto-approved: requested and answered together, after the decision (no flash of buttons)', auto: ['edit'], path: 'src/a.ts', expected: ['decided', 'approval_requested', 'approval_answered'] },
    { name: 'asked: requested before the person is asked', auto: [], path: 'src/a.ts', expected: ['approval_requested', 'person asked', 'decided', 'approval_answered'] },
    { name: 'a protected path with edits auto-approved: asked, requested first', auto: ['edit'], path: 'AGENTS.md', expected: ['approval_requested', 'person asked', 'decided', 'approval_answered'] },
  ];
  for (const c of cases) {
    it(c.name, async () => assert.deepEqual(await approval(c.auto, c.path), c.expected));
  }
});
