import assert from 'node:assert/strict';
import { historyJson, historyMarkdown, renderHistoryExport } from '../../../src/node/historyExport';
import type { AgentEvent, EventEnvelope } from '../../../src/shared/events';

const T0 = Date.UTC(2026, 10, 26, 8, 0, 0);

function envelopes(...events: AgentEvent[]): EventEnvelope[] {
  return events.map((event, seq) => ({ v: 1, seq, runId: 'r1', ts: T0 + seq, event }));
}

const started: AgentEvent = { type: 'run_started', task: 'Make the tests pass', workspace: '/w', model: 'gpt-x' };
const call = (callId: string, command: string): AgentEvent => ({ type: 'tool_call', callId, name: 'run_command', args: { command } });
const result = (callId: string, extra: Partial<Extract<AgentEvent, { type: 'tool_result' }>>): AgentEvent =>
  ({ type: 'tool_result', callId, name: 'run_command', isError: false, content: 'x', durationMs: 1, ...extra });

const U = { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 };

describe('history export as markdown', () => {
  const cases: { name: string; events: AgentEvent[]; has: string[]; hasNot?: string[] }[] = [
    {
      name: 'a direct answer: task, outcome and the answer once',
      events: [started, { type: 'assistant_message', text: 'All green.', toolCalls: [] }, { type: 'run_finished', outcome: 'finished', summary: 'All green.', turns: 1 }],
      has: ['# Stepwise task', 'Make the tests pass', '- Model: `gpt-x`', '- Outcome: finished', '## Result', 'All green.', `- Started: ${new Date(T0).toISOString()}`],
      hasNot: ['## Plan', '## Commands'],
    },
    {
      name: 'commands with exit codes, a stop, a kill, a rejection and an interrupted one',
      events: [started, call('a', 'npm test'), result('a', { exitCode: 1 }), call('b', 'npm run dev'), result('b', { stopped: true, exitCode: null }),
        call('c', 'sleep 9'), result('c', { exitCode: null }), call('d', 'rm -rf x'), { type: 'approval_answered', callId: 'd', approved: false }, call('e', 'make'),
        { type: 'tool_call', callId: 'f', name: 'read_file', args: { path: 'a.ts' } }],
      has: ['## Commands', '- `npm test` — exit code 1', '- `npm run dev` — stopped', '- `sleep 9` — killed', '- `rm -rf x` — rejected', '- `make` — no result (interrupted)', '- Outcome: running or interrupted', '(no final answer)'],
      hasNot: ['a.ts'],
    },
    {
      name: 'a plan: each step with its final status and summary, then the report',
      events: [started,
        { type: 'plan_created', goal: 'Green tests', thought: '', steps: [
          { id: '1', title: 'Find the failure', description: 'Run the suite', role: 'researcher', status: 'pending' },
          { id: '2', title: 'Fix it', description: '', role: 'coder', status: 'pending' }] },
        { type: 'step_finished', stepId: '1', status: 'completed', summary: 'auth.test.ts fails on an expired token' },
        { type: 'plan_updated', reason: 'r', steps: [
          { id: '1', title: 'Find the failure', description: 'Run the suite', role: 'researcher', status: 'completed' },
          { id: '2', title: 'Fix the token check', description: 'Edit auth.ts', role: 'coder', status: 'pending' }] },
        { type: 'step_finished', stepId: '2', status: 'failed', summary: 'Could not reproduce' },
        { type: 'report', markdown: '# Report\nHalf done.' },
        { type: 'run_finished', outcome: 'incomplete', summary: 'short', reason: 'step 2 failed', turns: 4 }],
      has: ['## Plan', 'Goal: Green tests', '### 1. Find the failure (completed)', 'Run the suite', 'auth.test.ts fails on an expired token',
        '### 2. Fix the token check (failed)', 'Could not reproduce', 'Reason: step 2 failed', 'Report:', '# Report\nHalf done.', '- Outcome: incomplete'],
      hasNot: ['### 2. Fix it '],
    },
    {
      name: 'background commands: how each ended later, or that it was left running',
      events: [started, call('a', 'npm run dev'), result('a', { background: true }), call('b', 'npm run watch'), result('b', { background: true }),
        call('c', 'serve'), result('c', { background: true }), { type: 'command_ended', callId: 'a', exitCode: 2, stopped: false },
        { type: 'command_ended', callId: 'c', exitCode: 0, stopped: false }],
      has: ['- `npm run dev` — went to the background, then failed: exit code 2', '- `npm run watch` — left running in the background', '- `serve` — went to the background, then exited with code 0'],
      hasNot: ['— done'],
    },
    {
      name: 'the cost of the whole task, follow-ups included (older runs without task figures summed)',
      events: [started, { type: 'usage', usage: U, total: U, cost: { effectiveTokens: 1100, costUsd: 0.0014 } }, { type: 'run_finished', outcome: 'finished', turns: 1 },
        { ...started, task: 'And the docs?' } as AgentEvent, { type: 'usage', usage: U, total: U, cost: { effectiveTokens: 1100, costUsd: 0.0014 }, task: { effectiveTokens: 2200, costUsd: 0.0028 } },
        { type: 'run_finished', outcome: 'finished', turns: 1 },
        { ...started, task: 'Once more' } as AgentEvent, { type: 'usage', usage: U, total: U, cost: { effectiveTokens: 500, costUsd: 0.001 } }],
      has: ['- Cost: 2,700 effective tokens · $0.0038'],
    },
    {
      name: 'model text with backticks cannot close its fence or break inline code',
      events: [{ ...started, task: 'print ```\n# injected heading' } as AgentEvent, call('a', 'echo `date`'), result('a', { exitCode: 0 }),
        { type: 'run_finished', outcome: 'finished', summary: 'ok', turns: 1 }],
      has: ['````text\nprint ```\n# injected heading\n````', '- `` echo `date` `` — exit code 0'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const md = historyMarkdown(envelopes(...c.events));
      for (const text of c.has) assert.ok(md.includes(text), `missing ${JSON.stringify(text)} in\n${md}`);
      for (const text of c.hasNot ?? []) assert.ok(!md.includes(text), `unexpected ${JSON.stringify(text)} in\n${md}`);
    });
  }
});

describe('history export as JSON', () => {
  it('is the stored envelopes, unchanged, and parses back', () => {
    const stored = envelopes(started, { type: 'run_finished', outcome: 'finished', turns: 1 });
    assert.deepEqual(JSON.parse(historyJson(stored)), stored);
    assert.equal(renderHistoryExport(stored, 'json'), historyJson(stored));
    assert.equal(renderHistoryExport(stored, 'markdown'), historyMarkdown(stored));
  });
});
