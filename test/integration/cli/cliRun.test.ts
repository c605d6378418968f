import { strict as assert } from 'node:assert';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeScript, type RecordedMessage } from '../../support/fakeOpenAIServer';
import type { AgentEventOf } from '../../../src/shared/events';
import { runCliProcess, type CliRun } from './cliProcess';

// The headless CLI end to end: the built bundle, a real HTTP server speaking the OpenAI streaming
// format, real files and real processes. Each test scripts the model's turns.

const call = (name: string, args: unknown, id?: string) => ({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args), ...(id ? { id } : {}) });

describe('stepwise run (CLI) against an OpenAI-compatible server', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-cli-'));
    await mkdir(path.join(ws, 'src'));
    await writeFile(
      path.join(ws, 'src/math.js'),
      'function add(a, b) {\n    // TODO: implement\n    return 0;\n}\n\nmodule.exports = { add };\n',
    );
    await writeFile(path.join(ws, 'README.md'), '# demo\n');
  });

  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function run(script: FakeScript, extra: string[] = [], options: { rejectTools?: boolean } = {}): Promise<CliRun> {
    fake = await startFakeOpenAI(script, options);
    return runCliProcess([
      'run', 'Make add() return the sum and check it.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url,
      '--no-plan', '--json', ...extra,
    ]);
  }

  const toolResults = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result');
  const lastEvent = (r: CliRun) => r.events[r.events.length - 1];
  const toolMessages = (messages: RecordedMessage[] | undefined) => (messages ?? []).filter((m) => m.role === 'tool');

  it('lists, reads, edits with whitespace drift, runs a command and finishes; the file is changed on disk', async () => {
    const r = await run(
      [
        { text: 'Let me look around.', toolCalls: [call('list_files', { recursive: true }, 'call_list')] },
        { toolCalls: [call('read_file', { path: 'src/math.js' })] },
        {
          text: 'Implementing add.',
          // The model's search text has lost the file's 4-space indentation: the tolerant matcher must
          // find it and keep the file's indentation in the replacement.
          toolCalls: [call('edit_file', { path: 'src/math.js', edits: [{ search: '// TODO: implement\nreturn 0;', replace: 'return a + b;' }] })],
        },
        { toolCalls: [call('run_command', { command: `node -e "console.log('sum=' + require('./src/math.js').add(2, 3))"` })] },
        { toolCalls: [call('finish', { summary: 'add() now returns a + b; verified: sum=5.' })] },
      ],
      ['--auto-approve', 'read,edit,command'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      await readFile(path.join(ws, 'src/math.js'), 'utf8'),
      'function add(a, b) {\n    return a + b;\n}\n\nmodule.exports = { add };\n',
    );
    const results = toolResults(r);
    assert.deepEqual(results.map((e) => e.name), ['list_files', 'read_file', 'edit_file', 'run_command', 'finish']);
    assert.deepEqual(results.map((e) => e.isError), [false, false, false, false, false]);
    assert.match(results[0]!.content, /src\/math\.js/);
    assert.match(results[1]!.content, /^1\tfunction add/);
    assert.match(results[3]!.content, /sum=5/);
    assert.ok(r.events.some((e) => e.type === 'tool_output' && e.chunk.includes('sum=5')), 'command output streamed as events');
    assert.equal(r.events[0]!.type, 'run_started');
    const end = lastEvent(r);
    assert.ok(end?.type === 'run_finished' && end.outcome === 'finished');
    assert.equal(end.summary, 'add() now returns a + b; verified: sum=5.');
    // seq is monotonic from 0
    assert.deepEqual(r.envelopes.map((e) => e.seq), r.envelopes.map((_, i) => i));
    // the model saw its tool results answered by id, and was offered the built-in tools; a task that
    // does not ask for the web gets no web tool (taskTools)
    const second = fake!.requests[1]!.body!;
    assert.deepEqual(toolMessages(second.messages).map((m) => m.tool_call_id), ['call_list']);
    assert.deepEqual(
      (fake!.requests[0]!.body!.tools ?? []).map((t) => t.function.name).sort(),
      ['ask_user', 'edit_file', 'finish', 'list_files', 'read_file', 'read_output', 'run_command', 'search_files', 'write_file'],
    );
  });

  it('runs parallel tool calls of one turn in order, each answered by its id', async () => {
    const r = await run([
      { toolCalls: [call('read_file', { path: 'README.md' }, 'call_a'), call('read_file', { path: 'src/math.js' }, 'call_b')] },
      { toolCalls: [call('finish', { summary: 'read both' })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    const answered = toolMessages(fake!.requests[1]!.body!.messages);
    assert.deepEqual(answered.map((m) => m.tool_call_id), ['call_a', 'call_b']);
    assert.match(String(answered[0]!.content), /# demo/);
    assert.match(String(answered[1]!.content), /function add/);
  });

  it('waits out a 429 with retry-after and then succeeds', async () => {
    const r = await run([
      { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached', type: 'rate_limit' } } },
      { toolCalls: [call('finish', { summary: 'after the rate limit' })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake!.requests.length, 2);
    const notice = r.events.find((e) => e.type === 'notice' && e.code === 'retry');
    assert.ok(notice && notice.type === 'notice', 'a retry notice is shown');
    assert.match(notice.message, /1(\.0)?\s?s|1000\s?ms/);
  });

  it('retries a connection dropped before any output', async () => {
    const r = await run([{ dropAfterChunks: 0 }, { toolCalls: [call('finish', { summary: 'second try' })] }]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake!.requests.length, 2);
  });

  it('ends cleanly with a clear error when the stream drops after partial output', async () => {
    const r = await run([{ text: 'I will now explain the whole codebase in great detail', chunkChars: 4, dropAfterChunks: 5 }]);
    assert.equal(r.code, 1);
    const streamed = r.events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
    assert.ok(streamed.length > 0 && 'I will now explain the whole codebase in great detail'.startsWith(streamed), 'partial text was shown');
    const error = r.events.find((e) => e.type === 'error');
    assert.ok(error && error.type === 'error');
    assert.equal(error.code, 'interrupted');
    const end = lastEvent(r);
    assert.ok(end?.type === 'run_finished' && end.outcome === 'failed');
    assert.equal(fake!.requests.length, 1, 'not retried after output was shown');
  });

  it('answers malformed JSON arguments with an error result the model corrects from', async () => {
    const r = await run([
      { toolCalls: [call('read_file', '{"path": "src/math.js"')] },
      { toolCalls: [call('read_file', { path: 'src/math.js' })] },
      { toolCalls: [call('finish', { summary: 'fixed my call' })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    const [bad, good] = toolResults(r);
    assert.ok(bad!.isError);
    assert.match(bad!.content, /not valid JSON/);
    assert.ok(!good!.isError);
    assert.match(String(toolMessages(fake!.requests[1]!.body!.messages)[0]!.content), /not valid JSON/);
  });

  it('answers an unknown tool with the list of valid tools', async () => {
    const r = await run([
      { toolCalls: [call('delete_everything', {})] },
      { toolCalls: [call('finish', { summary: 'ok' })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    const [unknown] = toolResults(r);
    assert.ok(unknown!.isError);
    assert.match(unknown!.content, /Unknown tool `delete_everything`/);
    assert.match(unknown!.content, /read_file/);
  });

  it('works with a model that only speaks the text tool protocol', async () => {
    const block = (name: string, args: unknown) => '```tool\n' + JSON.stringify({ name, arguments: args }) + '\n```';
    const r = await run(
      [
        { text: 'I will write the file.\n' + block('write_file', { path: 'notes/hello.txt', content: 'hello from a local model\n' }) },
        { text: 'Done.\n' + block('finish', { summary: 'wrote notes/hello.txt' }) },
      ],
      ['--auto-approve', 'edit'],
      { rejectTools: true },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readFile(path.join(ws, 'notes/hello.txt'), 'utf8'), 'hello from a local model\n');
    assert.ok(r.events.some((e) => e.type === 'notice' && e.code === 'tool_protocol'), 'the switch is announced');
    const lastRequest = fake!.requests[fake!.requests.length - 1]!.body!;
    assert.equal(lastRequest.tools, undefined, 'no native tools once switched');
    const visible = r.events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
    assert.ok(!visible.includes('```tool'), 'tool blocks are not shown as prose');
  });

  it('denies edits without a TTY unless auto-approved, and nothing changes', async () => {
    const before = await readFile(path.join(ws, 'src/math.js'), 'utf8');
    const r = await run([
      { toolCalls: [call('write_file', { path: 'src/math.js', content: 'overwritten' })] },
      { toolCalls: [call('finish', { summary: 'could not write' })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readFile(path.join(ws, 'src/math.js'), 'utf8'), before);
    const [denied] = toolResults(r);
    assert.ok(denied!.isError);
    assert.match(denied!.content, /--auto-approve edit/);
  });

  it('exits 1 with a clear reason at the step limit', async () => {
    const r = await run((_req, i) => ({ toolCalls: [call('read_file', { path: 'README.md', start_line: 1, end_line: i + 1 })] }), ['--max-steps', '3']);
    assert.equal(r.code, 1);
    const end = lastEvent(r);
    assert.ok(end?.type === 'run_finished' && end.outcome === 'step_limit');
    assert.match(end.reason ?? '', /3 turns/);
  });

  it('exits 2 on usage errors', async () => {
    const noTask = await runCliProcess(['run']);
    assert.equal(noTask.code, 2);
    assert.match(noTask.stderr, /Usage: stepwise run/);
    const badFlag = await runCliProcess(['run', 'x', '--max-steps', 'many', '--model', 'm', '--base-url', 'http://127.0.0.1:9']);
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /--max-steps needs a positive whole number/);
    const badCategory = await runCliProcess(['run', 'x', '--auto-approve', 'everything', '--model', 'm']);
    assert.equal(badCategory.code, 2);
    assert.match(badCategory.stderr, /unknown category "everything"/);
  });
});
