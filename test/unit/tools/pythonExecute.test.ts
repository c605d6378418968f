import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pythonExecuteTool } from '../../../src/agent/tools/python/pythonExecute';
import { PythonSession } from '../../../src/node/python/pythonSession';
import { ToolHarness } from './toolHarness';

const PYTHON = process.env.STEPWISE_TEST_PYTHON ?? '/usr/bin/python3';

describe('python_execute (the tool over a real Python session)', function () {
  this.timeout(30_000);
  let ws: string;
  let session: PythonSession;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-pytool-'));
    session = new PythonSession({ cwd: ws, chartsDir: path.join(ws, 'charts'), python: PYTHON, interruptGraceMs: 1000 });
  });
  afterEach(async () => {
    await session.dispose();
    await rm(ws, { recursive: true, force: true });
  });

  function harness(approved: boolean): ToolHarness {
    const h = new ToolHarness({ decide: () => (approved ? { approved: true } : { approved: false, reason: 'not now' }) });
    h.registry.register(pythonExecuteTool(session));
    return h;
  }

  it('asks a `command` approval showing the whole code; a refusal runs nothing', async () => {
    const h = harness(false);
    const code = 'import os\nos.makedirs("made")\nprint("x")';
    const result = await h.call('python_execute', { code });
    assert.equal(h.approvals.length, 1);
    assert.equal(h.approvals[0]!.category, 'command');
    assert.equal(h.approvals[0]!.title, 'Run Python: `import os` (+2 lines)');
    assert.ok(h.approvals[0]!.detail.startsWith(code));
    assert.equal(result.isError, true);
    assert.match(result.content, /The user rejected the Python code \(it did not run\)\. Reason: not now/);
    assert.equal(session.pid, undefined, 'no interpreter was even started');
  });

  const cases: { name: string; calls: { code: string; timeout_seconds?: number }[]; expect: RegExp; isError?: boolean }[] = [
    { name: 'an ok run says so, with the new-session note on the first call', calls: [{ code: '6 * 7' }], expect: /^ok \(new Python session: no earlier variables\)\n\[Python 3[^\n]*\]\n42$/ },
    { name: 'an exception keeps the session and says so', calls: [{ code: 'a = 1' }, { code: 'raise ValueError("bad")' }], expect: /^error: the code raised an exception \(traceback below\); the session and its variables are kept\n[\s\S]*ValueError: bad/, isError: true },
    { name: 'a timeout interrupts and keeps the session', calls: [{ code: 'a = 1' }, { code: 'import time\ntime.sleep(20)', timeout_seconds: 1 }], expect: /^timed out after 1s: interrupted \(KeyboardInterrupt\); the session and its variables are kept/, isError: true },
    { name: 'code that ignores the interrupt loses the session and is told so', calls: [{ code: 'import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)' }, { code: 'while True: pass', timeout_seconds: 1 }], expect: /^timed out after 1s and ignored the interrupt: the Python session was ended; the next call starts a new one \(all variables lost\)/, isError: true },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const h = harness(true);
      let last;
      for (const args of c.calls) last = await h.call('python_execute', args);
      assert.match(last!.content, c.expect, last!.content);
      assert.equal(last!.isError, c.isError);
    });
  }
});
