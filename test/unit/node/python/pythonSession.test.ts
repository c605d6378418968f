import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PythonRequest } from '../../../../src/agent/tools/python/pythonPort';
import { NO_PYTHON } from '../../../../src/node/python/findPython';
import { PythonSession } from '../../../../src/node/python/pythonSession';

/** Debian's interpreter, which has pandas and matplotlib after `npm run setup` (PATH's python3 may be a pyenv shim without them). */
export const TEST_PYTHON = process.env.STEPWISE_TEST_PYTHON ?? '/usr/bin/python3';

/** True while `pid` is a live (not zombie) process. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

describe('PythonSession (one real Python process per task)', function () {
  this.timeout(60_000);
  let ws: string;
  let session: PythonSession | undefined;
  const request = (code: string, extra: Partial<PythonRequest> = {}): PythonRequest => ({ code, timeoutMs: 20_000, maxOutputChars: 30_000, signal: new AbortController().signal, ...extra });

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-python-'));
  });
  afterEach(async () => {
    await session?.dispose();
    session = undefined;
    await rm(ws, { recursive: true, force: true });
  });
  const open = (extra: Partial<ConstructorParameters<typeof PythonSession>[0]> = {}) =>
    (session = new PythonSession({ cwd: ws, chartsDir: path.join(ws, 'charts'), python: TEST_PYTHON, interruptGraceMs: 1500, ...extra }));

  it('keeps variables between runs and prints the value of a last expression', async () => {
    const s = open();
    const first = await s.run(request('x = 41\nprint("set")'));
    assert.equal(first.status, 'ok');
    assert.equal(first.fresh, true);
    assert.match(first.output, /set/);
    const second = await s.run(request('x + 1'));
    assert.equal(second.status, 'ok');
    assert.equal(second.fresh, false);
    assert.equal(second.output.trim(), '42');
  });

  it('an exception is an error with its traceback; the session and its variables stay', async () => {
    const s = open();
    await s.run(request('kept = "yes"'));
    const failed = await s.run(request('1 / 0'));
    assert.equal(failed.status, 'error');
    assert.match(failed.output, /ZeroDivisionError/);
    assert.equal((await s.run(request('kept'))).output.trim(), "'yes'");
  });

  it('a timeout interrupts a running loop with KeyboardInterrupt and keeps the session', async () => {
    const s = open();
    await s.run(request('count = 0'));
    const pid = s.pid!;
    const looped = await s.run(request('while True:\n    count += 1', { timeoutMs: 500 }));
    assert.equal(looped.status, 'interrupted');
    assert.match(looped.output, /KeyboardInterrupt/);
    const after = await s.run(request('count > 0'));
    assert.equal(after.output.trim(), 'True');
    assert.equal(s.pid, pid, 'the same interpreter');
  });

  it('code that ignores the interrupt has its session ended; the next run starts a new one', async () => {
    const s = open();
    await s.run(request('import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nlost = 1'));
    const pid = s.pid!;
    const stuck = await s.run(request('while True:\n    pass', { timeoutMs: 300 }));
    assert.equal(stuck.status, 'restarted');
    assert.match(stuck.output, /ignored the interrupt/);
    assert.equal(alive(pid), false, 'the old interpreter is gone');
    const next = await s.run(request('"lost" in globals()'));
    assert.equal(next.fresh, true);
    assert.match(next.output, /^\[Python 3[^\n]*\]\nFalse\n$/, 'a new session says so and has no old variables');
  });

  it('cancellation ends the session; dispose ends the interpreter and what it started', async () => {
    const s = open();
    await s.run(request('import subprocess\nchild = subprocess.Popen(["sleep", "300"])\nchild.pid'));
    const controller = new AbortController();
    const pending = s.run(request('import time\ntime.sleep(30)', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    assert.equal((await pending).status, 'cancelled');
    assert.equal(s.pid, undefined);
    const again = await s.run(request('import subprocess\nchild = subprocess.Popen(["sleep", "300"])\nprint(child.pid)'));
    const sleeper = Number(again.output.trim().split('\n').at(-1));
    const pid = s.pid!;
    assert.ok(alive(sleeper) && alive(pid));
    await s.dispose();
    assert.equal(alive(pid), false, 'the interpreter is gone');
    assert.equal(alive(sleeper), false, 'its child is gone');
    assert.equal((await s.run(request('1'))).status, 'unavailable');
  });

  it('output is capped like a command\'s (head and tail kept)', async () => {
    const s = open();
    const big = await s.run(request('for i in range(20000):\n    print("line", i)', { maxOutputChars: 2000 }));
    assert.equal(big.status, 'ok');
    assert.ok(big.output.length <= 2100, 'the cap plus the omission line');
    assert.ok(big.omittedChars > 0);
    assert.match(big.output, /line 0\n/);
    assert.match(big.output, /line 19999/);
  });

  it('save_chart writes a PNG into the charts folder and names it workspace-relative; show_table prints markdown', async () => {
    const s = open({ chartsDir: path.join(ws, '.stepwise/reports/charts') });
    const result = await s.run(request([
      'import pandas as pd, matplotlib.pyplot as plt',
      'df = pd.DataFrame({"region": ["north", "south", "东部"], "sales": [3, 5, 4]})',
      'df.plot.bar(x="region", y="sales", title="销售额")',
      'save_chart("sales by region")',
      'show_table(df.sort_values("sales", ascending=False), n=2)',
    ].join('\n')));
    assert.equal(result.status, 'ok', result.output);
    assert.deepEqual(result.charts, ['.stepwise/reports/charts/sales-by-region.png']);
    const png = readFileSync(path.join(ws, result.charts[0]!));
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    // fonts-wqy-microhei (npm run setup) is first in the driver's font list: no glyph goes missing.
    assert.doesNotMatch(result.output, /missing from (?:current )?font/i, 'Chinese labels render');
    assert.match(result.output, /chart saved: \.stepwise\/reports\/charts\/sales-by-region\.png\n/);
    assert.match(result.output, /\| region \| sales \|\n\|---\|---\|\n\| south \| 5 \|\n\| 东部 \| 4 \|\n\(first 2 of 3 rows\)/);
  });

  it('says clearly when the interpreter exits before it is ready (not a Python 3)', async () => {
    const s = open({ python: '/bin/false' });
    const result = await s.run(request('1'));
    assert.equal(result.status, 'unavailable');
    assert.match(result.output, /^Python \(\/bin\/false\) did not start: exit\. No Python 3 interpreter found/);
    assert.equal(s.pid, undefined);
  });

  it('says clearly when there is no Python', async () => {
    const s = open({ python: path.join(ws, 'no-such-python3') });
    const result = await s.run(request('1'));
    assert.equal(result.status, 'unavailable');
    assert.ok(result.output.includes(NO_PYTHON), result.output);
    assert.equal(existsSync(path.join(ws, 'charts')), false);
  });
});
