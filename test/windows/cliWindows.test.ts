import { strict as assert } from 'node:assert';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentEventOf } from '../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../support/fakeOpenAIServer';
import { eventsOf, localAppDataFolder, requireSimulation, runNodeWin, windowsProcessNames, winPath, type WinRun } from './winSim';

// Issue 24, acceptance 1: the built CLI run by Node.js for Windows under Wine (process.platform is
// win32, commands go through cmd.exe), against the fake OpenAI server on loopback.

const CLI = path.resolve(__dirname, '../../dist/cli.js');
const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const results = (events: AgentEvent[]) => events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result');
const pings = () => windowsProcessNames().filter((n) => n.toLowerCase() === 'ping.exe').length;

describe('Windows (simulation): the built CLI under Node.js for Windows', function () {
  this.timeout(180_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  before(() => requireSimulation());
  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-win-'));
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function run(script: FakeTurn[], extra: string[] = [], approve = 'read,edit,command'): Promise<WinRun & { events: AgentEvent[] }> {
    fake = await startFakeOpenAI([...script, { text: 'Done.' }]);
    const r = await runNodeWin([winPath(CLI), 'run', 'go', '--workspace', winPath(ws), '--model', 'm', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', approve, ...extra],
      { OPENAI_API_KEY: 'sk-test-key' }, 150_000);
    return { ...r, events: eventsOf(r) };
  }

  it('writes and edits files keeping CRLF, and runs cmd.exe commands with their exit codes and output', async () => {
    await writeFile(path.join(ws, 'crlf.txt'), 'alpha\r\nbeta\r\ngamma\r\n');
    const r = await run([
      { toolCalls: [call('write_file', { path: 'sub\\made.txt', content: 'one\r\ntwo\r\n' })] },
      { toolCalls: [call('edit_file', { path: 'crlf.txt', edits: [{ search: 'beta', replace: 'BETA' }] })] },
      { toolCalls: [call('run_command', { command: 'type sub\\made.txt && echo %OS% && exit /b 7' })] },
      { toolCalls: [call('run_command', { command: 'dir /b sub | find "made"' })] },
      { toolCalls: [call('search_files', { pattern: 'BE[T]A', path: '.' })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readFile(path.join(ws, 'sub', 'made.txt'), 'utf8'), 'one\r\ntwo\r\n');
    assert.equal(await readFile(path.join(ws, 'crlf.txt'), 'utf8'), 'alpha\r\nBETA\r\ngamma\r\n', 'the edit kept CRLF');
    const [write, edit, typed, listed, searched] = results(r.events);
    assert.equal(write?.isError, false, write?.content);
    assert.equal(edit?.isError, false, edit?.content);
    assert.equal(typed?.exitCode, 7, typed?.content);
    assert.match(typed!.content, /^exit code 7\none\r\ntwo\r\nWindows_NT/);
    assert.equal(listed?.exitCode, 0, listed?.content);
    assert.match(listed!.content, /made\.txt/);
    // No rg.exe under the simulation: the JavaScript engine searches, with Windows paths inside.
    assert.equal(searched?.isError, false, searched?.content);
    assert.match(searched!.content, /crlf\.txt.*2.*BETA/s);
    const prompt = fake!.chatRequests()[0]?.body?.messages?.[0]?.content;
    assert.match(String(prompt), /OS: win32/);
    assert.match(String(prompt), /run_command runs through cmd\.exe/, 'the model is told its shell (Wine has no working PowerShell: cmd.exe)');
  });

  it('a 3 s timeout ends a `ping -n 120` tree, and what `start /b` left running ends with the call', async () => {
    assert.equal(pings(), 0, 'no ping.exe before the test');
    let seen = 0;
    const watcher = setInterval(() => (seen = Math.max(seen, pings())), 1500);
    const r = await run([
      { toolCalls: [call('run_command', { command: 'ping -n 120 127.0.0.1', timeout_seconds: 3 })] },
      { toolCalls: [call('run_command', { command: 'start /b ping -n 90 127.0.0.1 > nul & echo started' })] },
    ]).finally(() => clearInterval(watcher));
    assert.equal(r.code, 0, r.stderr);
    const [timedOut, leftover] = results(r.events);
    assert.equal(timedOut?.isError, true);
    assert.match(timedOut!.content, /^timed out after 3s; the process was killed/);
    assert.equal(leftover?.exitCode, 0, leftover?.content);
    assert.match(leftover!.content, /started/);
    assert.ok(seen >= 1, 'ping.exe was in the Windows process list while the commands ran');
    assert.equal(pings(), 0, 'no ping.exe is left in the Windows process list');
  });

  it('--verify runs its check through cmd.exe: a passing check finishes, a failing one does not', async () => {
    const script = (): FakeTurn[] => [{ toolCalls: [call('write_file', { path: 'a.txt', content: 'ok\r\n' })] }, { toolCalls: [call('finish', { summary: 'Wrote a.txt.' })] }];
    const ending = (r: WinRun & { events: AgentEvent[] }) => r.events.findLast((e): e is AgentEventOf<'run_finished'> => e.type === 'run_finished');
    const good = await run(script(), ['--verify', 'type a.txt']);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(ending(good)?.outcome, 'finished');
    const bad = await run(script(), ['--verify', 'type missing.txt']);
    assert.equal(ending(bad)?.outcome, 'unverified', `${JSON.stringify(ending(bad))}\n${bad.stderr}`);
    assert.notEqual(bad.code, 0, 'a failing check keeps the task from finishing');
    assert.deepEqual(ending(bad)?.failedChecks?.at(-1), { command: 'type missing.txt', exitCode: 1 });
  });

  it('keeps history under %LOCALAPPDATA%\\Stepwise and says plainly that checkpoints are off without git.exe', async () => {
    const history = path.join(localAppDataFolder(), 'Stepwise', 'history');
    const before = existsSync(history) ? readdirSync(history).length : 0;
    const r = await run([{ toolCalls: [call('write_file', { path: 'b.txt', content: 'b' })] }]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(history) && readdirSync(history).length > before, `a task file under ${history}`);
    // The simulation has no Git for Windows: this branch is what a user without git.exe sees.
    const notice = r.events.find((e): e is AgentEventOf<'notice'> => e.type === 'notice' && /Checkpoints are off/.test(e.message));
    assert.match(notice?.message ?? '', /git\.exe was not found \(install Git for Windows/);
  });
});
