import { strict as assert } from 'node:assert';
import { ConsoleRenderer } from '../../../src/cli/consoleRenderer';
import { exitCodeForOutcome as exitCodeFor } from '../../../src/shared/outcomeClass';
import { EventStream } from '../../../src/agent/events/eventStream';
import type { AgentEvent } from '../../../src/shared/events';

function render(events: AgentEvent[], color = false): string {
  let out = '';
  const renderer = new ConsoleRenderer({ write: (text) => (out += text), color });
  const stream = new EventStream('r', () => 0);
  stream.subscribe((envelope) => renderer.render(envelope));
  for (const event of events) stream.emit(event);
  return out;
}

describe('ConsoleRenderer', () => {
  it('prints each step\'s budget in the plan, its budget when it starts and its spending when it ends (none for steps without one)', () => {
    const step = (id: string, title: string, estimate?: number) => ({ id, title, description: '', role: 'coder', status: 'pending' as const, ...(estimate ? { estimate } : {}) });
    const out = render([
      { type: 'plan_created', goal: 'g', thought: '', steps: [step('1', 'Survey', 40_000), step('2', 'Fix', 12_000), step('3', 'Notes')] },
      { type: 'step_started', stepId: '1' },
      { type: 'step_usage', stepId: '1', spent: 0, budget: 40_000, level: 'ok' },
      { type: 'step_usage', stepId: '1', spent: 12_400, budget: 40_000, level: 'ok' },
      { type: 'step_finished', stepId: '1', status: 'completed', summary: 'Surveyed.' },
      { type: 'step_started', stepId: '2' },
      { type: 'step_usage', stepId: '2', spent: 0, budget: 9_500, level: 'ok' },
      { type: 'step_usage', stepId: '2', spent: 15_000, budget: 9_500, level: 'over' },
      { type: 'step_finished', stepId: '2', status: 'failed', summary: 'Failed: step budget reached.', budgetReached: true },
      { type: 'step_started', stepId: '3' },
      { type: 'step_finished', stepId: '3', status: 'completed', summary: 'Wrote notes.' },
    ]);
    assert.equal(out, [
      'Plan: g',
      '  ○ 1. [coder] Survey  ≈40k tokens',
      '  ○ 2. [coder] Fix  ≈12k tokens',
      '  ○ 3. [coder] Notes',
      '▶ step 1',
      '  step budget: 40k tokens',
      '● step 1 completed (12k / 40k tokens): Surveyed.',
      '▶ step 2',
      '  step budget: 9.5k tokens',
      '✗ step 2 failed (15k / 9.5k tokens, token budget used up): Failed: step budget reached.',
      '▶ step 3',
      '● step 3 completed: Wrote notes.',
      '',
    ].join('\n'));
  });

  it('streams text, shows tool calls with results and the outcome, each on its own line', () => {
    const out = render([
      { type: 'run_started', task: 't', workspace: '/w', model: 'm' },
      { type: 'text_delta', text: 'Looking' },
      { type: 'text_delta', text: ' around.' },
      { type: 'tool_call', callId: 'c', name: 'read_file', args: { path: 'a.ts' } },
      { type: 'tool_output', callId: 'c', stream: 'stdout', chunk: 'partial' },
      { type: 'tool_result', callId: 'c', name: 'read_file', isError: false, content: '1| x\n2| y\n3| z\n4| w\n5| v\n6| u', durationMs: 3.4 },
      { type: 'notice', level: 'warning', code: 'retry', message: 'retrying in 1 s' },
      { type: 'run_finished', outcome: 'finished', summary: 'All done.', turns: 2 },
    ]);
    assert.equal(
      out,
      [
        'Stepwise · m · /w',
        'Looking around.',
        '→ read_file {"path":"a.ts"}',
        'partial',
        '✓ read_file (3 ms)',
        '  1| x\n  2| y\n  3| z\n  4| w\n  … (2 more lines)',
        '! retrying in 1 s',
        '✓ Finished after 2 turn(s)',
        'All done.',
        '',
      ].join('\n'),
    );
  });

  it('prints a direct answer once: the streamed text is the summary', () => {
    const answer = 'The project is called Demo.';
    const direct = render([
      { type: 'run_started', task: 't', workspace: '/w', model: 'm' },
      { type: 'text_delta', text: 'The project is ' },
      { type: 'text_delta', text: 'called Demo.' },
      { type: 'assistant_message', text: answer, toolCalls: [] },
      { type: 'run_finished', outcome: 'finished', summary: answer, turns: 1 },
    ]);
    assert.equal(direct, ['Stepwise · m · /w', answer, '✓ Finished after 1 turn(s)', ''].join('\n'));
    // A summary the model did not stream (finish's argument) is still printed.
    const finished = render([
      { type: 'run_started', task: 't', workspace: '/w', model: 'm' },
      { type: 'text_delta', text: 'Checking.' },
      { type: 'assistant_message', text: 'Checking.', toolCalls: [{ id: 'f', name: 'finish', arguments: '{}' }] },
      { type: 'run_finished', outcome: 'finished', summary: 'Renamed it.', turns: 1 },
    ]);
    assert.match(finished, /✓ Finished after 1 turn\(s\)\nRenamed it\.\n$/);
  });

  it('shows failures with their reason, the plan with statuses, and colours only on a TTY', () => {
    const out = render([
      { type: 'plan_created', goal: 'Ship it', thought: '', steps: [
        { id: '1', title: 'Look', description: '', role: 'researcher', status: 'completed' },
        { id: '2', title: 'Change', description: '', role: 'coder', status: 'pending' },
      ] },
      { type: 'error', code: 'auth', message: 'check your API key' },
      { type: 'run_finished', outcome: 'failed', reason: 'the model refused the key', turns: 1 },
    ]);
    assert.match(out, /Plan: Ship it\n {2}● 1\. \[researcher\] Look\n {2}○ 2\. \[coder\] Change/);
    assert.match(out, /✗ The endpoint refused the API key: check your API key/);
    assert.doesNotMatch(out, /\bauth\b/);
    assert.match(out, /✗ Failed after 1 turn\(s\)\nthe model refused the key/);
    assert.ok(!out.includes('\x1b['), 'no escape codes without colour');
    assert.ok(render([{ type: 'error', code: 'x', message: 'y' }], true).includes('\x1b[31m'));
  });
});

describe('exitCodeFor', () => {
  it('maps outcomes to the documented exit codes', () => {
    assert.equal(exitCodeFor('finished'), 0);
    assert.equal(exitCodeFor('cancelled'), 130);
    for (const outcome of ['failed', 'step_limit', 'stuck', 'budget'] as const) assert.equal(exitCodeFor(outcome), 1);
  });

  it('ends with the task’s cost, naming this run’s share when earlier runs count too', () => {
    const call = { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 };
    const out = render([
      { type: 'usage', usage: call, total: call, cost: { effectiveTokens: 1100, costUsd: 0.0014 }, task: { effectiveTokens: 3300, costUsd: 0.0042 } },
      { type: 'run_finished', outcome: 'finished', summary: 'Done.', turns: 1 },
    ]);
    assert.match(out, /Cost: 3,300 effective tokens · \$0\.0042 \(task so far; this run 1,100 effective tokens · \$0\.0014\)\n$/);
    const first = render([
      { type: 'usage', usage: call, total: call, cost: { effectiveTokens: 1100 }, task: { effectiveTokens: 1100 } },
      { type: 'run_finished', outcome: 'failed', reason: 'no', turns: 1 },
    ]);
    assert.match(first, /Cost: 1,100 effective tokens\n$/);
    assert.doesNotMatch(render([{ type: 'run_finished', outcome: 'finished', turns: 0 }]), /Cost/);
  });

  it('says how a background command ended: its exit code, failed when not 0', () => {
    const rows: Array<[{ exitCode: number | null; stopped: boolean }, RegExp]> = [
      [{ exitCode: 0, stopped: false }, /^■ background command npm run dev exited with code 0$/m],
      [{ exitCode: 3, stopped: false }, /^✗ background command npm run dev failed: exit code 3$/m],
      [{ exitCode: null, stopped: false }, /^✗ background command npm run dev failed: killed by a signal$/m],
      [{ exitCode: null, stopped: true }, /^■ background command npm run dev stopped by the user$/m],
    ];
    for (const [ending, expected] of rows) {
      const out = render([
        { type: 'tool_call', callId: 'c', name: 'run_command', args: { command: 'npm run dev' } },
        { type: 'tool_result', callId: 'c', name: 'run_command', isError: false, content: 'still running', durationMs: 1, background: true },
        { type: 'command_ended', callId: 'c', ...ending },
      ]);
      assert.match(out, expected);
    }
  });
});

describe('the last line of an ending (outcome class, failed checks, durations)', () => {
  it('an unverified run names the failed check with its exit code, and the time run apart from the time waited', () => {
    const out = render([{
      type: 'run_finished', outcome: 'unverified', reason: 'Unverified: `npm test` exited 1 after the last change', turns: 4,
      failedChecks: [{ command: 'npm test', exitCode: 1 }], runningMs: 1300, waitingMs: 96_700,
    }]);
    assert.match(out, /^◐ Unverified: the checks did not pass after 4 turn\(s\) \(ran 1\.3 s, waited for you 96\.7 s\)$/m);
    assert.match(out, /^ {2}`npm test` exited 1 after the last change$/m);
  });

  it('a user\'s stop is not marked as a failure', () => {
    const out = render([{ type: 'run_finished', outcome: 'cancelled', reason: 'Stopped by the user.', turns: 1, runningMs: 500, waitingMs: 0 }]);
    assert.match(out, /^■ Cancelled after 1 turn\(s\) \(ran 0\.5 s\)$/m);
    assert.doesNotMatch(out, /✗|Failed/);
  });

  it('a tool call that waited for the approval shows both times', () => {
    const out = render([
      { type: 'tool_call', callId: 'c', name: 'run_command', args: { command: 'npm test' } },
      { type: 'tool_result', callId: 'c', name: 'run_command', isError: false, content: 'exit code 0', exitCode: 0, durationMs: 1300, waitedMs: 96_700 },
    ]);
    assert.match(out, /run_command \(1300 ms, waited for you 96700 ms\)/);
  });
});
