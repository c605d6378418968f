import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent } from '../../../src/agent/loop/runAgent';
import type { BackgroundEnding, CommandRunner } from '../../../src/agent/ports';
import { BackgroundEndings, endingWords, untoldEndings } from '../../../src/agent/tools/backgroundEndings';
import { runCommandTool } from '../../../src/agent/tools/builtins/runCommand';
import type { ModelRequest } from '../../../src/agent/model/types';
import type { AgentEvent } from '../../../src/shared/events';
import { ExecaCommandRunner } from '../../../src/node/execaCommandRunner';
import { stubWorkspace } from '../../support/stubPorts';
import { finishTool, makeRun } from './harness';
import { resumeTask } from '../../../src/agent/flow/resumeTask';
import { runTask } from '../../../src/agent/flow/runTask';
import { call, finish, flowModel, harness, requestsOf } from '../flow/flowHarness';

/** Text of the user notes a request carries after the task. */
function notes(request: ModelRequest | undefined): string[] {
  return (request?.messages ?? []).filter((m) => m.role === 'user').map((m) => String(m.content)).slice(1);
}

describe('background commands: the model hears how they ended', () => {
  let dir: string;
  let runner: ExecaCommandRunner;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'stepwise-bg-'));
    runner = new ExecaCommandRunner({ killGraceMs: 200 });
  });
  afterEach(async () => {
    await runner.stopBackground();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a command left in the background that exits 3 is told to the model at its next turn, as failed', async () => {
    let ended!: (ending: BackgroundEnding) => void;
    const ending = new Promise<BackgroundEnding>((resolve) => (ended = resolve));
    // The shell's own listener (VS Code's card update) is still told.
    const hostRunner: CommandRunner = { sandboxMode: () => 'off', run: (request) => runner.run({ ...request, onBackgroundEnd: (e) => { request.onBackgroundEnd?.(e); ended(e); } }) };
    let pid = 0;
    const h = makeRun(
      [
        { toolCalls: [{ id: 'bg', name: 'run_command', arguments: { command: "trap 'exit 3' USR1; echo started; while :; do sleep 0.05; done" } }] },
        async (request) => {
          // The model's second turn: the user's choice is in the result; now the command ends by itself.
          pid = Number(/pid (\d+)/.exec(String(request.messages.at(-1)?.content))?.[1]);
          assert.ok(pid > 0, 'the background result names the pid');
          process.kill(pid, 'SIGUSR1');
          assert.deepEqual(await ending, { exitCode: 3, stopped: false });
          return { toolCalls: [{ id: 'f1', name: 'finish', arguments: { summary: 'waited' } }] };
        },
        { text: 'done' },
      ],
      [runCommandTool, finishTool],
      { workspace: stubWorkspace(dir), commands: hostRunner },
    );
    h.options.events.subscribe(({ event }) => {
      if (event.type === 'tool_output' && event.chunk.includes('started')) runner.toBackground(event.callId);
    });
    // finish is judged and refused once, so a third request shows whether the note arrived.
    h.options.judgeFinish = async () => ({ accept: false, content: 'Check again.' });
    h.options.limits = { ...h.options.limits, maxTurns: 3 };
    await runAgent(h.options);
    const [, second, third] = h.model.requests;
    assert.ok(!notes(second).some((n) => n.includes('have ended')), 'not told before it ended');
    const told = notes(third).find((n) => n.includes('have ended'));
    assert.ok(told, `the next request tells of the ending: ${JSON.stringify(notes(third))}`);
    assert.match(told, /call bg\): failed: exit code 3/);
    assert.match(told, /trap 'exit 3' USR1/);
    const result = h.ofType('tool_result').find((r) => r.callId === 'bg');
    assert.equal(result?.background, true);
  });
});

describe('background endings between runs', () => {
  it('a follow-up first tells the model of a background command that ended after the task’s last turn', async () => {
    const h1 = harness(flowModel({ direct: [call('list_files', { path: '.' }), finish('Listed.')] }), { task: 'List files', planMode: 'never' });
    await runTask(h1.options);
    // VS Code appends the ending after the stored run when no run is active.
    const history: AgentEvent[] = [
      ...h1.events.slice(0, 2),
      { type: 'tool_call', callId: 'srv', name: 'run_command', args: { command: 'npm run serve' } },
      ...h1.events.slice(2),
      { type: 'command_ended', callId: 'srv', exitCode: 1, stopped: false },
    ];
    const model = flowModel({ direct: [finish('It failed with exit code 1.')] });
    const h2 = harness(model, { task: 'unused', workspace: h1.workspace });
    const { task: _t, planMode: _p, review: _r, ...rest } = h2.options;
    await resumeTask({ ...rest, history, resumedFrom: 'run-1', instruction: 'Is the server still up?' });
    const told = notes(requestsOf(model, 'direct')[0]).find((n) => n.includes('have ended'));
    assert.match(told ?? '', /`npm run serve` \(call srv\): failed: exit code 1/);
  });
});

describe('background endings: the ledger and its words', () => {
  const rows: Array<[BackgroundEnding, string]> = [
    [{ exitCode: 0, stopped: false }, 'exited with code 0'],
    [{ exitCode: 1, stopped: false }, 'failed: exit code 1'],
    [{ exitCode: null, stopped: false }, 'failed: killed by a signal'],
    [{ exitCode: null, stopped: true }, 'stopped by the user'],
  ];
  for (const [ending, words] of rows) it(`${JSON.stringify(ending)} → ${words}`, () => assert.equal(endingWords(ending), words));

  it('tells each ending once', () => {
    const ledger = new BackgroundEndings();
    assert.equal(ledger.takeNote(), undefined);
    ledger.record({ callId: 'c1', command: 'npm run dev', exitCode: 1, stopped: false });
    assert.match(ledger.takeNote() ?? '', /`npm run dev` \(call c1\): failed: exit code 1/);
    assert.equal(ledger.takeNote(), undefined);
  });

  it('finds the endings a stored task recorded after the model’s last turn', () => {
    const events: AgentEvent[] = [
      { type: 'turn_started', turn: 1, maxTurns: 5 },
      { type: 'tool_call', callId: 'a', name: 'run_command', args: { command: 'serve' } },
      { type: 'tool_call', callId: 'b', name: 'run_command', args: { command: 'watch' } },
      { type: 'command_ended', callId: 'a', exitCode: 0, stopped: false },
      { type: 'turn_started', turn: 2, maxTurns: 5 },
      { type: 'run_finished', outcome: 'finished', turns: 2 },
      { type: 'command_ended', callId: 'b', exitCode: 2, stopped: false },
    ];
    assert.deepEqual(untoldEndings(events), [{ callId: 'b', command: 'watch', exitCode: 2, stopped: false }]);
  });
});
