import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isRunning } from '../../support/processes';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { startCli } from './cliProcess';


describe('stepwise run (CLI): Ctrl-C', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  const started: number[] = [];

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-cancel-'));
  });
  afterEach(async () => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  it('mid-stream: aborts the model call, exits 130 with outcome cancelled', async () => {
    fake = await startFakeOpenAI([{ text: 'Thinking about it slowly', chunkChars: 3, hangAfterChunks: 3, hangMs: 30_000 }]);
    const cli = startCli(['run', 'explain', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json']);
    started.push(cli.child.pid!);
    await cli.waitForEvent((e) => e.type === 'text_delta');
    cli.child.kill('SIGINT');
    const r = await cli.done;
    assert.equal(r.code, 130, r.stderr);
    const end = r.events[r.events.length - 1];
    assert.ok(end?.type === 'run_finished' && end.outcome === 'cancelled');
    assert.ok(r.events.some((e) => e.type === 'state' && e.state === 'CANCELLED'));
  });

  it('mid-command: kills the whole process tree, exits 130', async () => {
    const command = 'sleep 300 & echo $! >> pids.txt; sleep 300 & echo $! >> pids.txt; echo $$ >> pids.txt; echo started; wait';
    fake = await startFakeOpenAI([{ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] }]);
    const cli = startCli(['run', 'run it', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'command']);
    started.push(cli.child.pid!);
    await cli.waitForEvent((e) => e.type === 'tool_output' && e.chunk.includes('started'));
    const pids = (await readFile(path.join(ws, 'pids.txt'), 'utf8')).trim().split('\n').map(Number);
    started.push(...pids);
    assert.equal(pids.length, 3);
    assert.ok(pids.every(isRunning), 'the tree is running before Ctrl-C');
    cli.child.kill('SIGINT');
    const r = await cli.done;
    assert.equal(r.code, 130, r.stderr);
    // The CLI only exits once the runner has seen the whole group gone.
    assert.deepEqual(pids.filter(isRunning), [], 'no process of the tree outlives the CLI');
    const result = r.events.find((e) => e.type === 'tool_result');
    assert.ok(result && result.type === 'tool_result' && /cancel/i.test(result.content));
  });
});
