import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, watch, writeSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { eventually, rssMb, taggedPids } from '../../support/processes';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { startCli, type CliProcess, type CliRun } from './cliProcess';

// Issue 11's numbered cases against the built CLI: real processes, real files, a real HTTP model.
// Every case is bounded (a deadline fails it instead of hanging), no process carrying the CLI's
// tag (STEPWISE_TASK=<cli pid>.…) may be left in /proc, and file bytes are checked exactly.

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const done: FakeTurn[] = [{ text: 'Done.' }];

describe('stepwise run (CLI): hard limits (issue 11)', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  const clis: CliProcess[] = [];

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-limits-'));
  });
  afterEach(async () => {
    for (const cli of clis.splice(0)) {
      const pid = cli.child.pid!;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
      for (const survivor of taggedPids(`${pid}.`)) process.kill(survivor, 'SIGKILL');
    }
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function start(script: FakeTurn[], approve = 'read'): Promise<CliProcess> {
    fake = await startFakeOpenAI([...script, ...done]);
    const cli = startCli(['run', 'go', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', approve]);
    clis.push(cli);
    return cli;
  }

  /** The run's end, or a failure naming the case once `ms` pass (the CLI must never hang). */
  async function within(cli: CliProcess, ms: number): Promise<CliRun> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the CLI did not end within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([cli.done, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  const results = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result');
  const survivors = (cli: CliProcess) => taggedPids(`${cli.child.pid}.`);

  it('1. daemons started with setsid (&, -f, in a subshell) end with the task', async () => {
    const command = `setsid sleep 3001 & setsid -f sleep 3002; ( setsid bash -c 'sleep 3003' & ); sleep 0.3; echo started; sleep 0.5`;
    const cli = await start([{ toolCalls: [call('run_command', { command })] }], 'command');
    await cli.waitForEvent((e) => e.type === 'tool_output' && e.chunk.includes('started'));
    const during = survivors(cli);
    assert.ok(during.length >= 4, `the shell and three daemons carry the tag while running (saw ${during.length})`);
    const r = await within(cli, 20_000);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(survivors(cli), [], 'no tagged process outlives the task');
  });

  it('2a. SIGHUP (terminal closed) ends the running command, setsid daemons included, and the CLI', async () => {
    const command = 'sleep 300 & setsid -f sleep 3004; echo started; wait';
    const cli = await start([{ toolCalls: [call('run_command', { command })] }], 'command');
    await cli.waitForEvent((e) => e.type === 'tool_output' && e.chunk.includes('started'));
    assert.ok(survivors(cli).length >= 2);
    cli.child.kill('SIGHUP');
    const r = await within(cli, 12_000);
    assert.equal(r.code, 130, r.stderr);
    assert.deepEqual(survivors(cli), []);
  });

  it('2b. SIGKILL of the CLI: the watchdog ends the running command', async () => {
    const command = 'sleep 300 & setsid -f sleep 3005; echo started; wait';
    const cli = await start([{ toolCalls: [call('run_command', { command })] }], 'command');
    await cli.waitForEvent((e) => e.type === 'tool_output' && e.chunk.includes('started'));
    assert.ok(survivors(cli).length >= 2);
    cli.child.kill('SIGKILL');
    await within(cli, 5_000);
    assert.ok(await eventually(() => survivors(cli).length === 0, 5_000), `survivors: ${survivors(cli).join(' ')}`);
  });

  it('3. read_file and search_files on a FIFO are refused at once', async () => {
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    const cli = await start([{ toolCalls: [call('read_file', { path: 'pipe' }), call('search_files', { pattern: 'x', path: 'pipe' })] }]);
    const r = await within(cli, 15_000);
    assert.equal(r.code, 0, r.stderr);
    const [read, search] = results(r);
    assert.ok(read?.isError && /FIFO|not a regular file/.test(read.content), read?.content);
    assert.ok(search?.isError && /FIFO|not a regular file/.test(search.content), search?.content);
  });

  it('4a. a catastrophic regex never blocks the CLI: SIGTERM ends it within a second or two', async () => {
    await writeFile(path.join(ws, 'a.txt'), `${'a'.repeat(40)}b\n`);
    const cli = await start([{ toolCalls: [call('search_files', { pattern: '^(a+)+\\1$' })] }]);
    await cli.waitForEvent((e) => e.type === 'tool_call');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const sent = Date.now();
    cli.child.kill('SIGTERM');
    const r = await within(cli, 10_000);
    assert.ok(Date.now() - sent < 2_500, `took ${Date.now() - sent} ms to end after SIGTERM`);
    assert.equal(r.code, 130, r.stderr);
  });

  it('4b. a catastrophic regex left alone stops at its deadline with a clear error', async () => {
    await writeFile(path.join(ws, 'a.txt'), `${'a'.repeat(40)}b\n`);
    const cli = await start([{ toolCalls: [call('search_files', { pattern: '^(a+)+\\1$' })] }]);
    const r = await within(cli, 20_000);
    assert.equal(r.code, 0, r.stderr);
    const [search] = results(r);
    assert.ok(search?.isError && /took over 5 s/.test(search.content), search?.content);
  });

  it('5. read_file on 1 GB sparse files reads only a prefix (bounded RSS)', async () => {
    const sparse = (name: string, head: string) => {
      const fd = openSync(path.join(ws, name), 'w');
      if (head) writeSync(fd, head);
      ftruncateSync(fd, 1024 ** 3);
      closeSync(fd);
    };
    sparse('zeros.img', '');
    // Text for the first 8 KB and more (so it is not called binary), then a 1 GB hole.
    sparse('log.txt', Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const cli = await start([{ toolCalls: [call('read_file', { path: 'zeros.img' }), call('read_file', { path: 'log.txt' })] }]);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(cli.child.pid!))), 10);
    const r = await within(cli, 20_000).finally(() => clearInterval(sampler));
    assert.equal(r.code, 0, r.stderr);
    const [zeros, log] = results(r);
    assert.ok(zeros?.isError && /binary file \(1073741824 bytes\)/.test(zeros.content), zeros?.content);
    assert.ok(!log?.isError && /^1\tline 1\n\tline 2\n/.test(log!.content), log?.content);
    assert.match(log!.content, /\[Lines 1-500 of a 1\.0 GB file \(lines not counted\)\. To read more, call read_file with start_line=501\.\]$/);
    assert.ok(peak > 0 && peak < 400, `peak RSS ${peak.toFixed(0)} MB`);
  });

  it('6. a 40,000-character path is answered at once', async () => {
    const long = `${'abcdefghi/'.repeat(4000)}x.txt`;
    const cli = await start([{ toolCalls: [call('read_file', { path: long }), call('write_file', { path: long, content: 'x' })] }], 'edit');
    const started = Date.now();
    const r = await within(cli, 15_000);
    assert.ok(Date.now() - started < 10_000);
    const [read, write] = results(r);
    assert.ok(read?.isError && /characters long/.test(read.content), read?.content);
    assert.ok(write?.isError && /characters long/.test(write.content), write?.content);
  });

  it('8. write_file over a Latin-1 file refuses and leaves its bytes', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    await writeFile(path.join(ws, 'latin.txt'), latin1);
    const cli = await start([{ toolCalls: [call('write_file', { path: 'latin.txt', content: 'café au lait\n' })] }], 'edit');
    const r = await within(cli, 15_000);
    assert.deepEqual(await readFile(path.join(ws, 'latin.txt')), latin1);
    const [write] = results(r);
    assert.ok(write?.isError && /not UTF-8/.test(write.content), write?.content);
  });

  it('9. a 0444 file is not written, even by root', async () => {
    const file = path.join(ws, 'locked.txt');
    await writeFile(file, 'keep me\n');
    chmodSync(file, 0o444);
    const cli = await start([
      { toolCalls: [call('write_file', { path: 'locked.txt', content: 'changed\n' })] },
      { toolCalls: [call('edit_file', { path: 'locked.txt', edits: [{ search: 'keep', replace: 'lose' }] })] },
    ], 'edit');
    const r = await within(cli, 15_000);
    assert.equal(await readFile(file, 'utf8'), 'keep me\n');
    for (const result of results(r)) assert.ok(result.isError && /read-only/.test(result.content), result.content);
  });

  it('10. SIGKILL mid-write leaves no temp file beside the user\'s files, and the next start removes it', async () => {
    const big = 'x'.repeat(6 * 1024 * 1024);
    await writeFile(path.join(ws, 'big.txt'), 'old\n');
    const tmp = path.join(ws, '.stepwise', 'tmp');
    mkdirSync(tmp, { recursive: true });
    let caught = false;
    // inotify tells us the moment the temporary file is created: kill the CLI right then, mid-write.
    const watcher = watch(tmp, (_event, name) => {
      if (caught || !String(name).endsWith('.stepwise-tmp')) return;
      caught = true;
      cli.child.kill('SIGKILL');
    });
    const cli = await start([{ toolCalls: [call('write_file', { path: 'big.txt', content: big })], chunkChars: 1024 * 1024 }], 'edit');
    await within(cli, 40_000).finally(() => watcher.close());
    assert.ok(caught, 'the write was seen in progress');
    assert.equal(cli.child.signalCode, 'SIGKILL');
    const bytes = await readFile(path.join(ws, 'big.txt'), 'utf8');
    assert.ok(bytes === 'old\n' || bytes === big, 'the file is the old or the new content, never a mix');
    assert.deepEqual(readdirSync(ws).filter((name) => name.endsWith('.stepwise-tmp')), [], 'no temp file beside the target');
    // A stale temp of a writer that is gone, as a crash leaves it; the next run cleans the folder.
    mkdirSync(tmp, { recursive: true });
    await writeFile(path.join(tmp, '.999999999.abcdef.big.txt.stepwise-tmp'), 'partial');
    await fake?.close();
    const next = await start([]);
    const again = await within(next, 15_000);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(readdirSync(tmp).filter((name) => name.endsWith('.stepwise-tmp')), []);
  });
});
