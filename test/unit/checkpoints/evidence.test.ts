import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { claimNote } from '../../../src/agent/flow/reportEvidence';
import { reportStrings } from '../../../src/agent/flow/language';
import { detectCheck } from '../../../src/agent/verify/detectCheck';
import { Evidence } from '../../../src/agent/verify/evidence';
import { MemoryWorkspace } from '../../support/memoryWorkspace';
import { call, finish, flowModel, harness, requestsOf, requestText } from '../flow/flowHarness';

describe('detectCheck: the workspace\'s obvious check', () => {
  const cases: Array<[string, Record<string, string>, string | undefined]> = [
    ['package.json test script', { 'package.json': '{"scripts":{"test":"mocha"}}' }, 'npm test'],
    ["npm's placeholder is not a check", { 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' }, undefined],
    ['package.json without scripts', { 'package.json': '{"name":"x"}' }, undefined],
    ['broken package.json falls through to the next detector', { 'package.json': '{', 'go.mod': 'module x\n' }, 'go test ./...'],
    ['pytest.ini', { 'pytest.ini': '[pytest]\n' }, 'pytest'],
    ['pyproject with a pytest section', { 'pyproject.toml': '[tool.pytest.ini_options]\nminversion = "6.0"\n' }, 'pytest'],
    ['pyproject without pytest', { 'pyproject.toml': '[project]\nname = "x"\n' }, undefined],
    ['setup.cfg tool:pytest', { 'setup.cfg': '[tool:pytest]\n' }, 'pytest'],
    ['conftest.py', { 'conftest.py': '' }, 'pytest'],
    ['go.mod', { 'go.mod': 'module example.com/x\n' }, 'go test ./...'],
    ['Cargo.toml', { 'Cargo.toml': '[package]\nname = "x"\n' }, 'cargo test'],
    ['Makefile with a test target', { Makefile: 'build:\n\tcc x.c\ntest: build\n\t./x --test\n' }, 'make test'],
    ['Makefile without one', { Makefile: 'build:\n\tcc x.c\n' }, undefined],
    ['package.json wins over a Makefile', { 'package.json': '{"scripts":{"test":"jest"}}', Makefile: 'test:\n\ttrue\n' }, 'npm test'],
    ['nothing', { 'README.md': '# x' }, undefined],
  ];
  for (const [name, files, expected] of cases) {
    it(`${name} → ${expected ?? 'none'}`, async () => {
      assert.equal(await detectCheck(new MemoryWorkspace(files)), expected);
    });
  }
});

describe('Evidence and the report\'s claims', () => {
  it('counts a check only when it ran after the last change; a changed tree after a non-check command is a change', () => {
    const e = new Evidence([]);
    e.observe({ type: 'tool_call', callId: 'w', name: 'write_file', args: { path: 'a' } });
    e.observe({ type: 'tool_result', callId: 'w', name: 'write_file', isError: false, content: 'ok', durationMs: 1 });
    e.observeTree('t1', 'c1');
    e.observe({ type: 'tool_call', callId: 'c1', name: 'run_command', args: { command: 'npm test' } });
    e.observe({ type: 'tool_result', callId: 'c1', name: 'run_command', isError: false, content: 'exit code 0\nok', durationMs: 1 });
    // The check's own side effects (coverage files) do not count as a change.
    e.observeTree('t2', 'c2');
    assert.ok(e.passedAfterLastChange());
    e.observe({ type: 'tool_call', callId: 'c2', name: 'run_command', args: { command: 'node gen.js' } });
    e.observe({ type: 'tool_result', callId: 'c2', name: 'run_command', isError: false, content: 'exit code 0', durationMs: 1 });
    e.observeTree('t3');
    assert.equal(e.passedAfterLastChange(), false, 'the generator changed files after the check');
    // The prose is never edited: the note stands apart, saying what the evidence shows.
    assert.equal(claimNote(['Refactored x; all tests pass. Done.'], e, reportStrings('en')), 'Note: the text above says the tests or checks pass; no check ran after the last change.');
  });

  it('names the failed check and its exit code in the note', () => {
    const e = new Evidence([]);
    e.observe({ type: 'tool_result', callId: 'w', name: 'edit_file', isError: false, content: 'ok', durationMs: 1 });
    e.observe({ type: 'tool_call', callId: 'c', name: 'run_command', args: { command: 'npm test' } });
    e.observe({ type: 'tool_result', callId: 'c', name: 'run_command', isError: false, content: 'exit code 1', exitCode: 1, durationMs: 1 });
    assert.equal(claimNote(['All tests pass.'], e, reportStrings('en')), 'Note: the text above says the tests or checks pass; `npm test` exited 1 after the last change.');
    assert.equal(claimNote(['Fixed toKelvin: 273.15.'], e, reportStrings('en')), undefined, 'no claim, no note');
  });

  it('counts a background check once it ends, and a stopped one not at all', () => {
    const e = new Evidence([]);
    e.observe({ type: 'tool_result', callId: 'w', name: 'edit_file', isError: false, content: 'ok', durationMs: 1 });
    e.observe({ type: 'tool_call', callId: 'b', name: 'run_command', args: { command: 'npm test' } });
    e.observe({ type: 'tool_result', callId: 'b', name: 'run_command', isError: false, content: 'still running', background: true, durationMs: 1 });
    assert.deepEqual(e.checksAfterLastChange(), []);
    e.observe({ type: 'command_ended', callId: 'b', exitCode: 2, stopped: false });
    assert.deepEqual(e.checksAfterLastChange().map((r) => [r.command, r.exitCode]), [['npm test', 2]]);
    e.observe({ type: 'tool_call', callId: 's', name: 'run_command', args: { command: 'pytest' } });
    e.observe({ type: 'tool_result', callId: 's', name: 'run_command', isError: false, content: 'x', background: true, durationMs: 1 });
    e.observe({ type: 'command_ended', callId: 's', exitCode: null, stopped: true });
    assert.equal(e.checksAfterLastChange().length, 1);
  });

  it('leaves claims alone when a check exited 0 after the last change', () => {
    const e = new Evidence([]);
    e.observe({ type: 'tool_result', callId: 'w', name: 'edit_file', isError: false, content: 'ok', durationMs: 1 });
    e.observe({ type: 'tool_call', callId: 'c', name: 'run_command', args: { command: 'pytest' } });
    e.observe({ type: 'tool_result', callId: 'c', name: 'run_command', isError: false, content: 'exit code 0', durationMs: 1 });
    assert.equal(claimNote(['All tests pass.'], e, reportStrings('en')), undefined);
  });
});

describe('verification at finish (direct run)', () => {
  it('answers the first finish after a change with a note naming the detected check, then accepts the agent\'s reason', async () => {
    const model = flowModel({
      direct: [call('write_file', { path: 'src/a.js', content: 'x\n' }), finish('Done.'), finish('Done; the tests need a database I do not have.')],
    });
    const h = harness(model, { task: 'edit a', planMode: 'never', files: { 'package.json': '{"scripts":{"test":"mocha"}}' } });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished');
    const requests = requestsOf(model, 'direct');
    assert.match(requestText(requests[0]!), /This workspace's check is `npm test`/);
    assert.match(requests[2]!.messages.at(-1)!.content, /^Not finished yet: files changed and no check ran after the last change\. Run `npm test`/);
    assert.equal(result.summary, 'Done; the tests need a database I do not have.');
  });

  it('asks nothing when verification is off, or when nothing changed', async () => {
    for (const [verify, first] of [
      [{ mode: 'off' as const, commands: [] }, call('write_file', { path: 'a', content: 'x' })],
      [undefined, call('read_file', { path: 'package.json' })],
    ] as const) {
      const model = flowModel({ direct: [first, finish('Done.')] });
      const h = harness(model, { task: 't', planMode: 'never', files: { 'package.json': '{"scripts":{"test":"mocha"}}' }, ...(verify ? { verify } : {}) });
      const result = await runTask(h.options);
      assert.equal(result.outcome, 'finished');
      assert.equal(requestsOf(model, 'direct').length, 2);
      if (verify) assert.doesNotMatch(requestText(requestsOf(model, 'direct')[0]!), /check/i);
    }
  });
});

describe('diagnostics after an edit', () => {
  it('appends the errors that are new in the edited file, not the ones that were there before', async () => {
    const model = flowModel({
      direct: [call('write_file', { path: 'src/a.ts', content: 'const x = ;\n' }), call('write_file', { path: 'src/b.ts', content: 'ok\n' }), finish('Done; said why.'), finish('Done.')],
    });
    const h = harness(model, { task: 'edit', planMode: 'never', verify: { mode: 'off', commands: [] }, files: { 'src/a.ts': 'old\n', 'src/b.ts': 'old\n' } });
    let settled = 0;
    h.options.diagnostics = {
      errors: async (path) => {
        const text = h.workspace.text(path) ?? '';
        return ['line 9: an old error', ...(text.includes('= ;') ? ['line 1: Expression expected.'] : [])];
      },
      settle: async () => {
        settled++;
      },
    };
    await runTask(h.options);
    const [afterA, afterB] = h.of('tool_result');
    assert.match(afterA!.content, /\n\nNew errors in src\/a\.ts after this edit:\n- line 1: Expression expected\.$/);
    assert.doesNotMatch(afterA!.content, /old error/);
    assert.doesNotMatch(afterB!.content, /New errors/);
    assert.equal(settled, 2);
  });
});
