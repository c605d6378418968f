import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ExecaCommandRunner } from '../../../src/node/execaCommandRunner';
import type { CommandRequest } from '../../../src/agent/ports';
import { isRunning, killAll, makeTempDir, processState, readPids } from './support';

describe('ExecaCommandRunner (real processes)', function () {
  this.timeout(30000);
  let dir: string;
  let cleanup: () => Promise<void>;
  let started: number[];
  let runner: ExecaCommandRunner;

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('stepwise-runner-'));
    started = [];
    runner = new ExecaCommandRunner({ killGraceMs: 500 });
  });
  afterEach(async () => {
    killAll(started);
    runner.dispose();
    await cleanup();
  });

  const request = (command: string, extra: Partial<CommandRequest> = {}): CommandRequest => ({
    command,
    cwd: dir,
    timeoutMs: 20000,
    maxOutputChars: 10000,
    signal: new AbortController().signal,
    ...extra,
  });

  /** The pids a command wrote to `pids.txt`, remembered so afterEach can kill leftovers. */
  const pidsWritten = () => {
    const pids = readPids(path.join(dir, 'pids.txt'));
    started.push(...pids);
    return pids;
  };

  const assertTreeGone = (pids: number[], expected: number) => {
    assert.equal(pids.length, expected, `the command should have written ${expected} pids`);
    for (const pid of pids) assert.ok(!isRunning(pid), `pid ${pid} still runs (state ${processState(pid)})`);
  };

  it('reports the exit code and captures stdout and stderr interleaved', async () => {
    // stdout and stderr are separate pipes: the command waits until err-1 has arrived before printing out-2.
    const result = await runner.run(
      request('echo out-1; echo err-1 >&2; while [ ! -f go ]; do sleep 0.02; done; echo out-2; exit 3', {
        onOutput: (text) => {
          if (text.includes('err-1')) writeFileSync(path.join(dir, 'go'), '');
        },
      }),
    );
    assert.equal(result.exitCode, 3);
    assert.equal(result.signal, null);
    assert.equal(result.timedOut, false);
    assert.equal(result.cancelled, false);
    assert.equal(result.omittedChars, 0);
    assert.match(result.output, /out-1\n/);
    assert.match(result.output, /err-1\n/);
    assert.ok(result.output.indexOf('out-2') > result.output.indexOf('err-1'), result.output);
    const ok = await runner.run(request('true'));
    assert.equal(ok.exitCode, 0);
    assert.equal(ok.output, '');
  });

  it('runs in cwd, through a shell, with stdin closed and pagers disabled', async () => {
    const result = await runner.run(request('pwd; cat; echo "pager=$PAGER git=$GIT_PAGER"; for i in 1 2; do echo n$i; done'));
    assert.equal(result.exitCode, 0);
    assert.equal(result.output, `${dir}\npager=cat git=cat\nn1\nn2\n`);
  });

  it('streams output to onOutput while the command is still running', async () => {
    const go = path.join(dir, 'go');
    const chunks: { text: string; stream: string }[] = [];
    // The command waits for a file that only the onOutput listener creates: without streaming it would time out.
    const result = await runner.run(
      request(`echo first; echo warn >&2; while [ ! -f go ]; do sleep 0.02; done; echo second`, {
        timeoutMs: 15000,
        onOutput: (text, stream) => {
          chunks.push({ text, stream });
          if (text.includes('first')) writeFileSync(go, '');
        },
      }),
    );
    assert.equal(result.timedOut, false);
    assert.equal(result.exitCode, 0);
    assert.ok(existsSync(go));
    assert.equal(chunks.filter((c) => c.stream === 'stdout').map((c) => c.text).join(''), 'first\nsecond\n');
    assert.equal(chunks.filter((c) => c.stream === 'stderr').map((c) => c.text).join(''), 'warn\n');
  });

  it('decodes a UTF-8 character split across two chunks', async () => {
    const go = path.join(dir, 'go');
    const chunks: string[] = [];
    const result = await runner.run(
      request(`printf 'A\\342\\202'; while [ ! -f go ]; do sleep 0.02; done; printf '\\254B\\n'`, {
        timeoutMs: 15000,
        onOutput: (text) => {
          chunks.push(text);
          if (text.includes('A')) writeFileSync(go, '');
        },
      }),
    );
    assert.equal(result.timedOut, false);
    assert.equal(result.output, 'A€B\n');
    assert.deepEqual(chunks, ['A', '€B\n']);
  });

  it('on timeout ends the whole process tree, grandchildren included', async () => {
    const result = await runner.run(
      request('echo $$ > pids.txt; sleep 300 & echo $! >> pids.txt; sleep 300 & echo $! >> pids.txt; echo ready; wait', {
        timeoutMs: 1500,
      }),
    );
    assert.equal(result.timedOut, true);
    assert.equal(result.cancelled, false);
    assert.equal(result.exitCode, null);
    assert.equal(result.signal, 'SIGTERM');
    assert.match(result.output, /ready/);
    assertTreeGone(pidsWritten(), 3);
  });

  it('sends SIGKILL to what ignores SIGTERM after the grace delay', async () => {
    const result = await runner.run(
      request(`echo $$ > pids.txt; bash -c 'trap "" TERM; echo $$ >> pids.txt; echo ready; while :; do sleep 0.05; done' & wait`, {
        timeoutMs: 1500,
      }),
    );
    assert.equal(result.timedOut, true);
    assert.match(result.output, /ready/);
    assertTreeGone(pidsWritten(), 2);
  });

  it('on abort ends the whole process tree and reports cancelled', async () => {
    const controller = new AbortController();
    const result = await runner.run(
      request('echo $$ > pids.txt; sleep 300 & echo $! >> pids.txt; sleep 300 & echo $! >> pids.txt; echo ready; wait', {
        signal: controller.signal,
        onOutput: (text) => {
          if (text.includes('ready')) controller.abort();
        },
      }),
    );
    assert.equal(result.cancelled, true);
    assert.equal(result.timedOut, false);
    assert.equal(result.exitCode, null);
    assertTreeGone(pidsWritten(), 3);
  });

  it('does not start anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runner.run(request('touch ran.txt', { signal: controller.signal }));
    assert.equal(result.cancelled, true);
    assert.equal(existsSync(path.join(dir, 'ran.txt')), false);
  });

  it('returns when the shell exits even if a background child still holds the output, and stops that child', async () => {
    const result = await runner.run(request('sleep 300 & echo $! > pids.txt; echo leader-done', { timeoutMs: 15000 }));
    assert.equal(result.timedOut, false);
    assert.equal(result.exitCode, 0);
    assert.equal(result.output, 'leader-done\n');
    assertTreeGone(pidsWritten(), 1);
  });

  it('also stops leftovers that closed their output', async () => {
    const result = await runner.run(request('sleep 300 >/dev/null 2>&1 & echo $! > pids.txt; echo ok', { timeoutMs: 15000 }));
    assert.equal(result.exitCode, 0);
    assertTreeGone(pidsWritten(), 1);
  });

  it('caps 10 MB of output to head and tail with the omitted count', async () => {
    const cap = 10000;
    const result = await runner.run(
      request(`echo START; head -c 10000000 /dev/zero | tr '\\0' x; echo; echo END`, { maxOutputChars: cap }),
    );
    assert.equal(result.exitCode, 0);
    const total = 'START\n'.length + 10000000 + 1 + 'END\n'.length;
    assert.equal(result.omittedChars, total - cap);
    assert.ok(result.output.startsWith('START\nxxx'), result.output.slice(0, 20));
    assert.ok(result.output.endsWith('xxx\nEND\n'), result.output.slice(-20));
    assert.match(result.output, new RegExp(`\\[\\.\\.\\. ${total - cap} characters omitted \\.\\.\\.\\]`));
    const marker = `\n[... ${total - cap} characters omitted ...]\n`;
    assert.equal(result.output.length, cap + marker.length);
  });

  it('keeps memory flat while a command prints 50 MB', async () => {
    const gc = exposeGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    let streamed = 0;
    const result = await runner.run(
      request(`head -c 50000000 /dev/zero | tr '\\0' y`, {
        maxOutputChars: 20000,
        onOutput: (text) => {
          streamed += text.length;
        },
      }),
    );
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    assert.equal(streamed, 50000000);
    assert.ok(growth < 20 * 1024 * 1024, `heap grew by ${growth} bytes`);
    assert.equal(result.omittedChars, 50000000 - 20000);
  });

  it('reports a missing working folder or shell as output instead of throwing', async () => {
    const result = await runner.run(request('echo hi', { cwd: path.join(dir, 'missing') }));
    assert.equal(result.exitCode, null);
    assert.match(result.output, /does not exist/);
    const noShell = await new ExecaCommandRunner({ shell: path.join(dir, 'no-such-shell') }).run(request('echo hi'));
    assert.equal(noShell.exitCode, null);
    assert.match(noShell.output, /Could not start .*no-such-shell.*ENOENT/);
  });

  it('uses sh when bash is not on PATH', async () => {
    const saved = process.env.PATH;
    process.env.PATH = dir; // an empty folder: no bash here
    try {
      const result = await new ExecaCommandRunner().run(request('echo "$0"'));
      assert.equal(result.output, '/bin/sh\n');
    } finally {
      process.env.PATH = saved;
    }
  });

  it('uses the shell it is given', async () => {
    const sh = new ExecaCommandRunner({ shell: '/bin/sh' });
    const result = await sh.run(request('echo "$0"'));
    assert.equal(result.output, '/bin/sh\n');
  });
});

/** `global.gc`, made available at run time when node was started without --expose-gc. */
function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const v8 = require('node:v8') as typeof import('node:v8');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vm = require('node:vm') as typeof import('node:vm');
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
