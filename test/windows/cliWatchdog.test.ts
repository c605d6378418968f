import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer } from '../support/fakeOpenAIServer';
import { requireSimulation, runNodeWin, terminateWindowsProcess, windowsProcesses, winPath } from './winSim';

// Issue 24: when the CLI itself is killed (TerminateProcess: no exit handler runs), the Windows
// watchdog it started sees its pipe close and ends the running command's tree.

const CLI = path.resolve(__dirname, '../../dist/cli.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pings = () => windowsProcesses().filter((p) => p.name.toLowerCase() === 'ping.exe');

describe('Windows (simulation): the CLI killed mid-command', function () {
  this.timeout(180_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  before(() => requireSimulation());
  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-winkill-'));
  });
  afterEach(async () => {
    for (const p of pings()) terminateWindowsProcess(p.pid);
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  it('ends the running command\'s tree through the watchdog', async () => {
    assert.equal(pings().length, 0, 'no ping.exe before the test');
    fake = await startFakeOpenAI([{ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command: 'ping -n 150 127.0.0.1 > nul', timeout_seconds: 600 }) }] }, { text: 'Done.' }]);
    const cli = runNodeWin([winPath(CLI), 'run', 'go', '--workspace', winPath(ws), '--model', 'm', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read,command'],
      { OPENAI_API_KEY: 'sk-test-key' }, 150_000);
    let ping = pings()[0];
    for (let i = 0; i < 60 && !ping; i++) {
      await sleep(1000);
      ping = pings()[0];
    }
    assert.ok(ping, 'the command started');
    const list = windowsProcesses();
    const shell = list.find((p) => p.pid === ping.ppid);
    const node = list.find((p) => p.pid === shell?.ppid);
    assert.equal(shell?.name.toLowerCase(), 'cmd.exe');
    assert.equal(node?.name.toLowerCase(), 'node.exe', 'the CLI runs the shell');
    terminateWindowsProcess(node!.pid);
    await cli;
    let left = pings().length;
    for (let i = 0; i < 30 && left > 0; i++) {
      await sleep(1000);
      left = pings().length;
    }
    assert.equal(left, 0, 'ping.exe outlived the killed CLI');
  });
});
