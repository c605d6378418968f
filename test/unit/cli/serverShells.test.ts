import { strict as assert } from 'node:assert';
import { guardRequest, sameSecret, type GuardedRequest } from '../../../src/cli/servers/httpGuard';
import { allowedCategories, parseServerStart, serverTaskArgv, type ServerStart } from '../../../src/cli/servers/serverTask';
import { takePortFlag } from '../../../src/cli/servers/httpServer';
import { AcpUpdateMapper, toolTitle } from '../../../src/cli/servers/acpUpdates';
import { parseCliArgs, UsageError } from '../../../src/cli/cliArgs';
import type { ApprovalCategory } from '../../../src/shared/events';

const TOKEN = 'k7-secret-token';
const PORT = 4321;
const ok = { host: `127.0.0.1:${PORT}`, authorization: `Bearer ${TOKEN}` };

describe('stepwise serve: the request guard (Host, Origin, token)', () => {
  const cases: [string, GuardedRequest, number | 'ok'][] = [
    ['loopback host and the token', ok, 'ok'],
    ['localhost', { ...ok, host: `localhost:${PORT}` }, 'ok'],
    ['[::1]', { ...ok, host: `[::1]:${PORT}` }, 'ok'],
    ['upper-case host', { ...ok, host: `LOCALHOST:${PORT}` }, 'ok'],
    ['its own origin', { ...ok, origin: `http://127.0.0.1:${PORT}` }, 'ok'],
    ['no Host', { authorization: ok.authorization }, 403],
    ['a rebound name', { ...ok, host: `attacker.example:${PORT}` }, 403],
    ['a name ending like localhost', { ...ok, host: `evil-localhost:${PORT}` }, 403],
    ['another port', { ...ok, host: `127.0.0.1:${PORT + 1}` }, 403],
    ['no port', { ...ok, host: '127.0.0.1' }, 403],
    ['a foreign origin', { ...ok, origin: 'https://attacker.example' }, 403],
    ['an https origin on our port', { ...ok, origin: `https://127.0.0.1:${PORT}` }, 403],
    ['origin null (sandboxed frame, file:)', { ...ok, origin: 'null' }, 403],
    ['a garbage origin', { ...ok, origin: '::::' }, 403],
    ['no token', { host: ok.host }, 401],
    ['an empty bearer', { ...ok, authorization: 'Bearer ' }, 401],
    ['a wrong token', { ...ok, authorization: 'Bearer nope' }, 401],
    ['a prefix of the token', { ...ok, authorization: `Bearer ${TOKEN.slice(0, -1)}` }, 401],
    ['the token and more', { ...ok, authorization: `Bearer ${TOKEN}x` }, 401],
    ['another scheme', { ...ok, authorization: `Basic ${TOKEN}` }, 401],
    ['the bare token', { ...ok, authorization: TOKEN }, 401],
  ];
  for (const [what, request, expected] of cases) {
    it(`${what} → ${expected}`, () => {
      const verdict = guardRequest(request, PORT, TOKEN);
      if (expected === 'ok') assert.deepEqual(verdict, { ok: true });
      else assert.equal(verdict.ok ? 'ok' : verdict.status, expected);
    });
  }

  it('compares secrets of any length without throwing', () => {
    assert.equal(sameSecret('a', 'a'), true);
    assert.equal(sameSecret('a', 'a'.repeat(1000)), false);
    assert.equal(sameSecret('', TOKEN), false);
  });
});

describe('server shells: the run each task becomes', () => {
  const start = (args: string[], autoApprove: ApprovalCategory[]): ServerStart => ({ args, autoApprove, workspace: '/srv', env: {}, cwd: '/srv', stderr: () => undefined });

  const cuts: [ApprovalCategory[], ApprovalCategory[] | undefined, ApprovalCategory[]][] = [
    [['read', 'edit'], undefined, ['read', 'edit']],
    [['read', 'edit'], ['read'], ['read']],
    [['read'], ['read', 'edit', 'command'], ['read']],
    [['read', 'edit'], [], []],
    [[], ['edit'], []],
  ];
  for (const [server, asked, expected] of cuts) {
    it(`server ${server.join(',') || '∅'} + asked ${asked?.join(',') ?? '(none)'} → ${expected.join(',') || '∅'}`, () => {
      assert.deepEqual(allowedCategories(server, asked), expected);
    });
  }

  it('builds a `run` the CLI parser accepts, with the task, folder, plan mode and the cut categories', () => {
    const argv = serverTaskArgv(start(['--model', 'm', '--plan', '--allow-command', 'npm test'], ['read', 'edit']), { task: 'Do it', workspace: '/w', planMode: 'never', autoApprove: ['edit', 'command'] });
    const options = parseCliArgs(argv, {}, '/cwd')!;
    assert.equal(options.command, 'run');
    assert.equal(options.task, 'Do it');
    assert.equal(options.workspace, '/w');
    assert.equal(options.planMode, 'never', "the task's plan mode replaces the server's --plan");
    assert.deepEqual(options.autoApprove, ['edit']);
    assert.deepEqual(options.allowCommands, ['npm test']);
    assert.equal(options.json, true);
  });

  it("keeps the server's plan flag when the task names none, and resumes for a follow-up", () => {
    const options = parseCliArgs(serverTaskArgv(start(['--model', 'm', '--plan'], ['read']), { task: 'More', resume: 'run-1', mcpConfig: '/tmp/m.json' }), {}, '/cwd')!;
    assert.equal(options.command, 'resume');
    assert.equal(options.taskId, 'run-1');
    assert.equal(options.task, 'More');
    assert.equal(options.planMode, 'always');
    assert.equal(options.workspace, '/srv');
    assert.equal(options.mcpConfig, '/tmp/m.json');
    assert.deepEqual(options.autoApprove, ['read']);
    const none = parseCliArgs(serverTaskArgv(start(['--model', 'm'], ['read']), { task: 'x', autoApprove: [] }), {}, '/cwd')!;
    assert.deepEqual(none.autoApprove, [], 'nothing auto-approved, not the default');
  });

  it('checks the start flags with the CLI parser and takes out the ones a server decides per task', async () => {
    const parsed = await parseServerStart(['--model', 'm', '--json', '--workspace', '.', '--review', 'ask', '--auto-approve', 'read,edit'], { env: {}, cwd: process.cwd(), stderr: () => undefined });
    assert.deepEqual(parsed.args, ['--model', 'm', '--auto-approve', 'read,edit']);
    assert.deepEqual(parsed.autoApprove, ['read', 'edit']);
    await assert.rejects(parseServerStart(['--model', 'm', '--nonsense'], { env: {}, cwd: process.cwd(), stderr: () => undefined }), UsageError);
    await assert.rejects(parseServerStart([], { env: {}, cwd: process.cwd(), stderr: () => undefined }), /No model/);
  });

  const ports: [string[], number | 'usage'][] = [
    [['--port', '8080', '--model', 'm'], 8080],
    [['--port=0'], 0],
    [['--model', 'm'], 0],
    [['--port', 'x'], 'usage'],
    [['--port', '70000'], 'usage'],
    [['--port'], 'usage'],
  ];
  for (const [args, expected] of ports) {
    it(`serve ${args.join(' ')} → ${expected}`, () => {
      if (expected === 'usage') assert.throws(() => takePortFlag(args), UsageError);
      else assert.equal(takePortFlag(args).port, expected);
    });
  }
});

describe('stepwise acp: events as session updates', () => {
  const steps = [
    { id: 's1', title: 'Read', description: '', role: 'researcher', status: 'pending' as const },
    { id: 's2', title: 'Write', description: '', role: 'coder', status: 'pending' as const },
  ];

  it('sends the plan whole on each change, with ACP statuses', () => {
    const mapper = new AcpUpdateMapper('/w');
    const entries = (u: ReturnType<AcpUpdateMapper['updates']>) => u.map((x) => (x.sessionUpdate === 'plan' ? x.entries.map((e) => `${e.content}:${e.status}`) : []));
    assert.deepEqual(entries(mapper.updates({ type: 'plan_created', goal: 'g', thought: '', steps })), [['Read:pending', 'Write:pending']]);
    assert.deepEqual(entries(mapper.updates({ type: 'step_started', stepId: 's1' })), [['Read:in_progress', 'Write:pending']]);
    assert.deepEqual(entries(mapper.updates({ type: 'step_finished', stepId: 's1', status: 'completed', summary: '' })), [['Read:completed', 'Write:pending']]);
    assert.deepEqual(entries(mapper.updates({ type: 'step_finished', stepId: 's2', status: 'failed', summary: '' })), [['Read:completed', 'Write (failed):pending']]);
    assert.deepEqual(mapper.updates({ type: 'step_started', stepId: 'unknown' }), []);
  });

  const table: [string, Parameters<AcpUpdateMapper['updates']>[0], unknown][] = [
    ['text', { type: 'text_delta', text: 'hi' }, [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }]],
    ['thinking', { type: 'assistant_message', text: 'x', toolCalls: [], thinking: 'hmm' }, [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }]],
    ['a command call', { type: 'tool_call', callId: 'c1', name: 'run_command', args: { command: 'npm test' }, category: 'command' },
      [{ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'run_command: npm test', kind: 'execute', status: 'pending', rawInput: { command: 'npm test' } }]],
    ['a file call, with its location', { type: 'tool_call', callId: 'c3', name: 'read_file', args: { path: 'src/a.ts' }, category: 'read' },
      [{ sessionUpdate: 'tool_call', toolCallId: 'c3', title: 'read_file: src/a.ts', kind: 'read', status: 'pending', rawInput: { path: 'src/a.ts' }, locations: [{ path: '/w/src/a.ts' }] }]],
    ['an edit diff', { type: 'approval_requested', callId: 'c2', category: 'edit', title: 'Edit a', detail: '', diff: { path: 'src/a.ts', before: 'a', after: 'b' } },
      [{ sessionUpdate: 'tool_call_update', toolCallId: 'c2', content: [{ type: 'diff', path: '/w/src/a.ts', oldText: 'a', newText: 'b' }] }]],
    ['a failed result', { type: 'tool_result', callId: 'c1', name: 'run_command', isError: true, content: 'exit 1', durationMs: 1 },
      [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'exit 1' } }] }]],
    ['a stopped result is not a failure', { type: 'tool_result', callId: 'c1', name: 'run_command', isError: true, stopped: true, content: 'stopped', durationMs: 1 },
      [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'stopped' } }] }]],
    ['the end, not finished', { type: 'run_finished', outcome: 'incomplete', summary: 'Half.', reason: 'step 2 skipped', turns: 1 },
      [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '\n\nHalf.\n\n[incomplete] step 2 skipped' } }]],
    ['a state change', { type: 'state', state: 'RUNNING' }, []],
  ];
  for (const [what, event, expected] of table) {
    it(what, () => assert.deepEqual(new AcpUpdateMapper('/w').updates(event), expected));
  }

  it('shows the task as the user message only when replaying a stored session', () => {
    const started = { type: 'run_started' as const, task: 'Fix it', workspace: '/w', model: 'm' };
    assert.deepEqual(new AcpUpdateMapper('/w').updates(started), []);
    assert.deepEqual(new AcpUpdateMapper('/w').updates(started, true), [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Fix it' } }]);
    // A replay sends each answer once, whole.
    const replay = new AcpUpdateMapper('/w');
    const said = [...replay.updates({ type: 'text_delta', text: 'Do' }, true), ...replay.updates({ type: 'text_delta', text: 'ne' }, true),
      ...replay.updates({ type: 'assistant_message', text: 'Done', toolCalls: [] }, true)];
    assert.deepEqual(said, [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done' } }]);
  });

  it('titles a call by what it acts on', () => {
    assert.equal(toolTitle('read_file', { path: 'a.ts' }), 'read_file: a.ts');
    assert.equal(toolTitle('finish', { summary: 'x' }), 'finish');
    assert.equal(toolTitle('run_command', { command: 'x'.repeat(200) }).length, 'run_command: '.length + 118);
  });
});
