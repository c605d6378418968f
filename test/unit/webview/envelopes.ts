import { EVENT_VERSION, type AgentEvent, type EventEnvelope } from '../../../src/shared/events';

/** Wraps events as the EventStream would: consecutive seq from `startSeq`, fixed timestamps. */
export function envelopes(runId: string, events: AgentEvent[], startSeq = 0): EventEnvelope[] {
  return events.map((event, i) => ({ v: EVENT_VERSION, seq: startSeq + i, runId, ts: 1_700_000_000_000 + startSeq + i, event }));
}

/** A short planned run: plan, two steps (the second fails), text, a command with output, approvals, usage. */
export function plannedRun(): AgentEvent[] {
  const step = (id: string, title: string) => ({ id, title, description: `do ${title}`, role: 'coder', status: 'pending' as const });
  return [
    { type: 'run_started', task: 'Fix the tests', workspace: '/ws', model: 'gpt-test' },
    { type: 'plan_created', goal: 'Green tests', thought: 'two steps', steps: [step('s1', 'Read'), step('s2', 'Fix')] },
    { type: 'step_started', stepId: 's1' },
    { type: 'turn_started', turn: 1, maxTurns: 10 },
    { type: 'text_delta', text: 'Let me ' },
    { type: 'text_delta', text: 'look at `src/a.ts`.' },
    { type: 'assistant_message', text: 'Let me look at `src/a.ts`.', toolCalls: [{ id: 'c1', name: 'run_command', arguments: '{"command":"npm test"}' }] },
    { type: 'tool_call', callId: 'c1', name: 'run_command', args: { command: 'npm test' }, category: 'command' },
    { type: 'approval_requested', callId: 'c1', category: 'command', title: 'Run `npm test`', detail: 'npm test' },
    { type: 'approval_answered', callId: 'c1', approved: true },
    { type: 'tool_output', callId: 'c1', stream: 'stdout', chunk: '1 passing\n' },
    { type: 'tool_output', callId: 'c1', stream: 'stderr', chunk: '1 failing\n' },
    { type: 'tool_result', callId: 'c1', name: 'run_command', isError: true, content: 'exit code 1', durationMs: 1234 },
    { type: 'usage', usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 }, total: { promptTokens: 100, completionTokens: 20, totalTokens: 120 } },
    { type: 'step_finished', stepId: 's1', status: 'completed', summary: 'Read the failure.' },
    { type: 'step_started', stepId: 's2' },
    { type: 'question_asked', callId: 'q1', question: 'Which fix?', options: ['A', 'B'] },
    { type: 'step_finished', stepId: 's2', status: 'failed', summary: 'Could not fix.' },
  ];
}

const budgetStep = (id: string, title: string, estimate?: number) => ({ id, title, description: `do ${title}`, role: 'coder', status: 'pending' as const, ...(estimate ? { estimate } : {}) });

/** A planned run whose first step runs low, the second is stopped by its budget and split, the third has no estimate. */
export function budgetedRun(): AgentEvent[] {
  return [
    { type: 'run_started', task: 'Survey and fix', workspace: '/ws', model: 'm' },
    { type: 'plan_created', goal: 'g', thought: '', steps: [budgetStep('1', 'Survey', 40_000), budgetStep('2', 'Fix', 12_000), budgetStep('3', 'Notes')] },
    { type: 'step_started', stepId: '1' },
    { type: 'step_usage', stepId: '1', spent: 0, budget: 40_000, level: 'ok' },
    { type: 'step_usage', stepId: '1', spent: 33_000, budget: 40_000, level: 'low' },
    { type: 'step_finished', stepId: '1', status: 'completed', summary: 'Surveyed.' },
    { type: 'step_started', stepId: '2' },
    { type: 'step_usage', stepId: '2', spent: 0, budget: 12_000, level: 'ok' },
    { type: 'step_usage', stepId: '2', spent: 15_000, budget: 12_000, level: 'over' },
    { type: 'step_finished', stepId: '2', status: 'failed', summary: 'Failed: step budget reached: …', budgetReached: true },
    { type: 'plan_updated', reason: 'plan updated: split "Fix" (step budget reached): too big', steps: [
      { ...budgetStep('1', 'Survey', 40_000), status: 'completed' }, { ...budgetStep('2', 'Fix', 12_000), status: 'skipped' },
      budgetStep('4', 'Fix a', 40_000), budgetStep('3', 'Notes'),
    ] },
  ];
}

