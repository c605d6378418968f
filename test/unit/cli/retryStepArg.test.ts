import assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/cliArgs';
import { stepToRetry } from '../../../src/cli/retryStepArg';
import type { AgentEvent } from '../../../src/shared/events';

// `stepwise resume <id> --retry-step N` rebuilds the stored plan from the task's events and asks the
// core's own rule (retryRefusal) whether the step can run again; anything else is a usage error.
const planned: AgentEvent[] = [
  { type: 'run_started', task: 'Fix and deploy', workspace: '/w', model: 'm' },
  { type: 'plan_created', goal: 'Fix and deploy', thought: 't', steps: [
    { id: '1', title: 'Fix', description: 'Fix it.', role: 'coder', status: 'pending' },
    { id: 'deploy', title: 'Deploy', description: 'Ship it.', role: 'coder', status: 'pending' },
  ] },
  { type: 'step_started', stepId: '1' },
  { type: 'step_finished', stepId: '1', status: 'completed', summary: 'Fixed.' },
  { type: 'step_started', stepId: 'deploy' },
  { type: 'step_finished', stepId: 'deploy', status: 'failed', summary: 'No credentials.' },
  { type: 'run_finished', outcome: 'failed', reason: 'No credentials.', turns: 2 },
];

describe('--retry-step: which stored step runs again', () => {
  const rows: Array<[string, AgentEvent[], string, string | RegExp]> = [
    ['by number', planned, '2', 'deploy'],
    ['by id', planned, 'deploy', 'deploy'],
    ['a completed step', planned, '1', /only failed, blocked or skipped steps can be retried/],
    ['a step the plan does not have', planned, '7', /the plan has no step "7" \(it has 2\)/],
    ['a direct task', [planned[0]!, { type: 'run_finished', outcome: 'failed', reason: 'x', turns: 1 }], '1', /needs a planned task/],
  ];
  for (const [name, events, which, expected] of rows) {
    it(`${name}: ${typeof expected === 'string' ? `step ${expected}` : 'a usage error'}`, () => {
      if (typeof expected === 'string') {
        const { stepId, state } = stepToRetry(events, which);
        assert.equal(stepId, expected);
        assert.equal(state.plan.steps.find((s) => s.id === stepId)?.status, 'failed');
      } else {
        assert.throws(() => stepToRetry(events, which), (error: unknown) => error instanceof UsageError && expected.test(error.message));
      }
    });
  }
});
