import assert from 'node:assert/strict';
import path from 'node:path';
import { createToolContext } from '../../../src/agent/loop/toolContext';
import { silentLogger, type BackgroundEnding, type CommandRequest } from '../../../src/agent/ports';
import { settleBackgroundCommands } from '../../../src/agent/tools/backgroundCommands';
import { runCommandTool, STOPPED_BY_USER } from '../../../src/agent/tools/builtins/runCommand';
import type { ToolResult } from '../../../src/agent/tools/tool';
import { ExecaCommandRunner } from '../../../src/node/execaCommandRunner';
import type { AgentEvent } from '../../../src/shared/events';
import { eventually } from '../../support/processes';
import { recordingApprover, scriptedAsker, stubWorkspace } from '../../support/stubPorts';
import { isRunning, killAll, makeTempDir, processState, readPids } from './support';

/** A dev-server-like command: the shell and a child write their pids, print "ready", then tick forever. */
const SERVER = 'echo $$ >> pids.txt; (echo $BASHPID >> pids.txt; while true; do echo tick; sleep 0.1; done) & echo ready; wait';

describe('"Stop this command" and "Let it run in the background" (real processes)', function () {
  this.timeout(30000);
  let dir: string;
  let cleanup: () => Promise<void>;
  let runner: ExecaCommandRunner;
  const pids = () => readPids(path.join(dir, 'pids.txt'));

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('stepwise-control-'));
    runner = new ExecaCommandRunner({ killGraceMs: 500, shell: '/bin/bash' });
  });
  afterEach(async () => {
    killAll(pids());
    runner.dispose();
    await cleanup();
  });

  const request = (id: string, extra: Partial<CommandRequest> = {}): CommandRequest => ({
    command: SERVER, cwd: dir, timeoutMs: 20000, maxOutputChars: 10000, signal: new AbortController().signal, id, ...extra,
  });

  /** Runs `run_command` as the loop would, with a task signal of our own. */
  function runTool(callId: string, task = new AbortController()): { result: Promise<ToolResult>; events: AgentEvent[] } {
    const events: AgentEvent[] = [];
    const context = createToolContext(
      { workspace: stubWorkspace(dir), commands: runner, approver: recordingApprover(), asker: scriptedAsker(), logger: silentLogger, signal: task.signal, emit: (e) => events.push(e) },
      callId, 'run_command');
    return { result: runCommandTool.execute({ command: SERVER }, context), events };
  }

  const whenReady = async (events: AgentEvent[]) =>
    assert.ok(await eventually(() => events.some((e) => e.type === 'tool_output' && e.chunk.includes('ready')) && pids().length === 2, 10000), 'the command started');
  const assertAllGone = () => {
    const all = pids();
    assert.equal(all.length, 2, 'the shell and its child wrote their pids');
    for (const pid of all) assert.ok(!isRunning(pid), `pid ${pid} still runs (state ${processState(pid)})`);
  };

  it('stops one command: its tree is killed, the result says the user stopped it, the task signal is untouched', async () => {
    const task = new AbortController();
    const { result, events } = runTool('call-stop', task);
    await whenReady(events);
    assert.equal(runner.stop('call-stop'), true);
    const done = await result;
    assert.ok(done.content.startsWith(STOPPED_BY_USER), done.content);
    assert.match(done.content, /ready/);
    assert.equal(done.stopped, true);
    assert.equal(done.exitCode, null);
    assert.equal(task.signal.aborted, false);
    assertAllGone();
    assert.equal(runner.stop('call-stop'), false, 'nothing left to stop');
  });

  it('sends a command to the background: the call returns with the output so far, the process goes on and its later output is kept', async () => {
    const task = new AbortController();
    const { result, events } = runTool('call-bg', task);
    await whenReady(events);
    assert.equal(runner.toBackground('call-bg'), true);
    const done = await result;
    assert.match(done.content, /^still running in the background \(pid \d+\)/);
    assert.equal(done.background, true);
    assert.match(done.content, /ready/);
    assert.equal(done.exitCode, undefined);
    const outputEventsAtReturn = events.filter((e) => e.type === 'tool_output').length;
    // The task ends (Stop): a background command does not die with the call's signal.
    task.abort();
    const [listed] = runner.backgroundCommands();
    assert.equal(listed?.id, 'call-bg');
    assert.equal(listed?.kept, false);
    assert.ok(pids().every(isRunning), 'still running after the call returned and the task signal fired');
    assert.ok(await eventually(() => (runner.backgroundCommands()[0]?.output ?? '').includes('tick'), 5000), 'later output is kept');
    assert.equal(events.filter((e) => e.type === 'tool_output').length, outputEventsAtReturn, 'no events for a call that has returned');
    assert.equal(runner.toBackground('call-bg'), false, 'already in the background');

    const settled = await settleBackgroundCommands(runner);
    assert.deepEqual(settled.stopped.map((c) => c.id), ['call-bg']);
    assert.deepEqual(runner.backgroundCommands(), []);
    assertAllGone();
  });

  it('keeps a background command when the user says so, asks only once, and stops it on request', async () => {
    const endings: BackgroundEnding[] = [];
    const run = runner.run(request('call-keep', { onBackgroundEnd: (ending) => endings.push(ending) }));
    assert.ok(await eventually(() => pids().length === 2, 10000));
    runner.toBackground('call-keep');
    assert.ok((await run).background);
    const asked: string[][] = [];
    const first = await settleBackgroundCommands(runner, async (cmds) => (asked.push(cmds.map((c) => c.id)), true));
    assert.deepEqual(first.kept.map((c) => c.id), ['call-keep']);
    assert.ok(pids().every(isRunning));
    const second = await settleBackgroundCommands(runner, async () => assert.fail('not asked again for a kept command'));
    assert.deepEqual(second, { stopped: [], kept: [] });
    assert.deepEqual(asked, [['call-keep']]);
    assert.deepEqual(endings, [], 'still running: no ending told');
    assert.equal(runner.stop('call-keep'), true);
    assert.ok(await eventually(() => runner.backgroundCommands().length === 0, 10000));
    assertAllGone();
    assert.deepEqual(endings, [{ exitCode: null, stopped: true }], 'told once that it was stopped');
  });

  it('a background command that ends by itself is forgotten, leaves nothing behind, and tells its exit code', async () => {
    const endings: BackgroundEnding[] = [];
    const run = runner.run(request('call-short', { command: 'echo $$ >> pids.txt; (echo $BASHPID >> pids.txt; sleep 300) & echo ready; sleep 0.5; exit 3', onBackgroundEnd: (ending) => endings.push(ending) }));
    assert.ok(await eventually(() => pids().length === 2, 10000));
    runner.toBackground('call-short');
    assert.ok((await run).background);
    assert.ok(await eventually(() => runner.backgroundCommands().length === 0, 10000), 'forgotten once the shell exited');
    assertAllGone();
    assert.deepEqual(endings, [{ exitCode: 3, stopped: false }]);
  });

  it('refuses unknown ids, and a failed "keep" question stops the commands', async () => {
    assert.equal(runner.stop('nope'), false);
    assert.equal(runner.toBackground('nope'), false);
    const run = runner.run(request('call-ask'));
    assert.ok(await eventually(() => pids().length === 2, 10000));
    runner.toBackground('call-ask');
    await run;
    const settled = await settleBackgroundCommands(runner, () => Promise.reject(new Error('dialog failed')));
    assert.deepEqual(settled.stopped.map((c) => c.id), ['call-ask']);
    assertAllGone();
  });
});
