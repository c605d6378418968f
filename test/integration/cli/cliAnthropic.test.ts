import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeAnthropic, type FakeAnthropicServer, type FakeAnthropicTurn, type FakeBlock, type RecordedAnthropicRequest } from '../../support/fakeAnthropicServer';
import { spawn } from 'node:child_process';
import { CLI_PATH, runCliProcess, TEST_STEPWISE_HOME, type CliRun } from './cliProcess';

// Issue 23, acceptance 1: the built CLI with `--provider anthropic` against a fake server that
// speaks Anthropic's streaming Messages format event by event.

const KEY = 'sk-ant-test-0123456789abcdef';
const tool = (name: string, input: unknown, id?: string): FakeBlock => ({ type: 'tool_use', name, input: JSON.stringify(input), ...(id ? { id } : {}) });
const finish = (summary = 'done'): FakeAnthropicTurn => ({ blocks: [tool('finish', { summary })] });

type Block = Record<string, unknown> & { type: string };
const turns = (request: RecordedAnthropicRequest | undefined) => (request?.body?.messages ?? []) as Array<{ role: string; content: Block[] }>;
const assistantTurns = (request: RecordedAnthropicRequest | undefined) => turns(request).filter((m) => m.role === 'assistant');

describe('stepwise run --provider anthropic (CLI): Anthropic Messages stream replays', function () {
  this.timeout(60_000);
  let ws: string;
  let fake: FakeAnthropicServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-anthropic-'));
    await writeFile(path.join(ws, 'a.txt'), 'alpha\n');
  });

  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function run(script: FakeAnthropicTurn[], extra: string[] = [], model = 'claude-sonnet-4-6'): Promise<CliRun> {
    fake = await startFakeAnthropic(script);
    return runCliProcess(
      ['run', 'Do the task.', '--workspace', ws, '--provider', 'anthropic', '--model', model, '--base-url', fake.url, '--no-plan', ...extra],
      { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: '' },
    );
  }
  const json = ['--json'];
  /** The CLI's human output (no `--json`): exit code and stdout, for the cost line and the set-up commands. */
  async function runCommand(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', STEPWISE_HOME: TEST_STEPWISE_HOME, ANTHROPIC_API_KEY: KEY },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stdout, stderr };
  }
  async function runPlain(script: FakeAnthropicTurn[], model = 'claude-sonnet-4-6') {
    fake = await startFakeAnthropic(script);
    return runCommand(['run', 'Do the task.', '--workspace', ws, '--provider', 'anthropic', '--model', model, '--base-url', fake.url, '--no-plan']);
  }
  const finished = (r: CliRun) => r.events.find((e): e is AgentEventOf<'run_finished'> => e.type === 'run_finished');
  const results = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result');
  const retries = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'notice'> => e.type === 'notice' && e.code === 'retry');

  it('a tool call whose JSON arrives in odd fragments (split keys, an escape cut in half, unicode) runs with the whole arguments', async () => {
    const fragments = ['', '{"pa', 'th"', ': "note', 's.txt", "con', 'tent": "na\\u00', 'efve \u2713 ', '\u65e5\u672c"', '}'];
    const r = await run([{ blocks: [{ type: 'text', text: 'Writing it.' }, { type: 'tool_use', name: 'write_file', id: 'toolu_01', fragments }] }, finish()], [...json, '--auto-approve', 'edit']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readFile(path.join(ws, 'notes.txt'), 'utf8'), 'na\u00efve \u2713 \u65e5\u672c');
    assert.deepEqual(results(r).map((x) => [x.name, Boolean(x.isError)]), [['write_file', false], ['finish', false]]);
    const second = fake!.messageRequests()[1];
    const [assistant] = assistantTurns(second);
    assert.deepEqual(assistant!.content, [
      { type: 'text', text: 'Writing it.' },
      { type: 'tool_use', id: 'toolu_01', name: 'write_file', input: { path: 'notes.txt', content: 'na\u00efve \u2713 \u65e5\u672c' } },
    ]);
    const answer = turns(second).at(-1)!;
    assert.equal(answer.role, 'user');
    assert.equal(answer.content[0]!.type, 'tool_result');
    assert.equal(answer.content[0]!.tool_use_id, 'toolu_01');
    // The request itself: Anthropic's headers and shapes.
    assert.equal(second!.headers['x-api-key'], KEY);
    assert.ok(second!.headers['anthropic-version'], 'anthropic-version header');
    assert.equal(second!.body!.stream, true);
    assert.equal(typeof second!.body!.max_tokens, 'number');
    assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), 'the key is a known secret');
  });

  it('two parallel tool calls: both run; their results go back as two tool_result blocks of one user turn', async () => {
    const r = await run(
      [{ blocks: [tool('write_file', { path: 'one.txt', content: '1' }, 'toolu_a'), tool('write_file', { path: 'two.txt', content: '2' }, 'toolu_b')] }, finish()],
      [...json, '--auto-approve', 'edit'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readFile(path.join(ws, 'one.txt'), 'utf8'), '1');
    assert.equal(await readFile(path.join(ws, 'two.txt'), 'utf8'), '2');
    const sent = turns(fake!.messageRequests()[1]);
    assert.deepEqual(assistantTurns(fake!.messageRequests()[1])[0]!.content.map((b) => [b.type, b.id]), [['tool_use', 'toolu_a'], ['tool_use', 'toolu_b']]);
    const last = sent.at(-1)!;
    assert.equal(last.role, 'user');
    assert.deepEqual(last.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id), ['toolu_a', 'toolu_b']);
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'user'], 'turns alternate');
  });

  it('extended thinking: each turn’s thinking block goes back unchanged with its signature, over three turns', async () => {
    const t1 = { type: 'thinking' as const, thinking: 'I should read a.txt first.', signature: 'EqQBCkYIARgCIkB+sig/one==' };
    const t2 = { type: 'thinking' as const, thinking: 'Now the folder listing — with ünïcode.', signature: 'ErUBCkYIARgCIkC+sig/two==' };
    const r = await run(
      [
        { blocks: [t1, tool('read_file', { path: 'a.txt' })] },
        { blocks: [t2, tool('list_files', {})] },
        { blocks: [{ type: 'thinking', thinking: 'All done.', signature: 'sig3' }, tool('finish', { summary: 'done' })] },
      ],
      [...json, '--thinking-budget', '2048'],
    );
    assert.equal(r.code, 0, r.stderr);
    const [first, second, third] = fake!.messageRequests();
    assert.deepEqual(first!.body!.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.equal(first!.body!.temperature, undefined, 'no temperature with thinking on');
    assert.deepEqual(assistantTurns(second)[0]!.content[0], t1);
    assert.deepEqual(assistantTurns(third)[0]!.content[0], t1);
    assert.deepEqual(assistantTurns(third)[1]!.content[0], t2);
    const thinking = r.events.filter((e): e is AgentEventOf<'assistant_message'> => e.type === 'assistant_message').map((e) => e.thinking);
    assert.deepEqual(thinking, [t1.thinking, t2.thinking, 'All done.']);
    const shown = r.events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
    assert.ok(!shown.includes('I should read'), 'thinking is not streamed as the answer');
  });

  it('redacted_thinking goes back unchanged, in its place before the visible thinking and the call', async () => {
    const redacted = { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' };
    const visible = { type: 'thinking' as const, thinking: 'Reading the file.', signature: 'sig-visible' };
    const r = await run([{ blocks: [redacted, visible, tool('read_file', { path: 'a.txt' })] }, finish()], [...json, '--thinking-budget', '1024']);
    assert.equal(r.code, 0, r.stderr);
    const content = assistantTurns(fake!.messageRequests()[1])[0]!.content;
    assert.deepEqual(content.slice(0, 2), [redacted, visible]);
    assert.equal(content[2]!.type, 'tool_use');
  });

  it('a 529 overloaded_error and an overloaded error event inside the stream are retried; the run finishes', async () => {
    const r = await run(
      [
        { status: 529, errorType: 'overloaded_error', message: 'Overloaded' },
        { blocks: [], errorAfterBlocks: { blocks: 0, type: 'overloaded_error', message: 'Overloaded' } },
        finish(),
      ],
      json,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake!.messageRequests().length, 3);
    const notes = retries(r).map((n) => n.message);
    assert.equal(notes.length, 2, notes.join('\n'));
    assert.match(notes[0]!, /overloaded \(529: overloaded_error: Overloaded\)/);
    assert.match(notes[1]!, /error event \(overloaded_error: Overloaded\)/);
    assert.equal(finished(r)!.outcome, 'finished');
  });

  it('a 429 with retry-after waits what the server asked and logs the anthropic-ratelimit headers', async () => {
    const r = await run(
      [
        {
          status: 429,
          errorType: 'rate_limit_error',
          message: 'Number of request tokens has exceeded your per-minute rate limit',
          headers: { 'retry-after': '1', 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:01Z' },
        },
        finish(),
      ],
      json,
    );
    assert.equal(r.code, 0, r.stderr);
    const [note] = retries(r);
    assert.equal(note?.retry?.delayMs, 1000, 'retry-after: 1 is honoured');
    assert.match(note!.message, /rate limited \(429/);
    assert.match(r.stderr, /rate limits: requests-remaining=0, tokens-reset=2026-01-01T00:00:01Z/);
  });

  it('stop_reason max_tokens is handled like length: asked to continue once, a second cut ends failed', async () => {
    const r = await run(
      [
        { blocks: [{ type: 'text', text: 'Here is the first half of a very long' }], stopReason: 'max_tokens' },
        { blocks: [{ type: 'text', text: 'and the second half is also too' }], stopReason: 'max_tokens' },
      ],
      json,
    );
    assert.notEqual(r.code, 0);
    const end = finished(r)!;
    assert.equal(end.outcome, 'failed');
    assert.match(end.reason ?? '', /the model's answer was cut off/);
    const lastUser = turns(fake!.messageRequests()[1]).at(-1)!;
    assert.equal(lastUser.role, 'user');
    assert.match(JSON.stringify(lastUser.content), /cut off/);
  });

  it('cache writes and reads are in the usage and the cost line (reads at 0.1, writes at 1.25 of the input price)', async () => {
    const r = await runPlain([
      { blocks: [tool('read_file', { path: 'a.txt' })], usage: { input_tokens: 200, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0, output_tokens: 40 } },
      { blocks: [tool('finish', { summary: 'done' })], usage: { input_tokens: 100, cache_creation_input_tokens: 400, cache_read_input_tokens: 2000, output_tokens: 40 } },
    ]);
    assert.equal(r.code, 0, r.stderr);
    // claude-sonnet-4 list prices per 1M: input $3, cache read $0.30, cache write $3.75, output $15.
    // Call 1: 200 + 1.25 x 2000 + 40 = 2,740 tokens, $0.0087; call 2: 100 + 0.1 x 2000 + 1.25 x 400 + 40 = 840, $0.0030.
    assert.match(r.stdout, /Cost: 3,580 effective tokens · \$0\.0117/);
  });

  it('usage events carry the cache figures (prompt = input + cache writes + cache reads)', async () => {
    const r = await run(
      [{ blocks: [tool('finish', { summary: 'done' })], usage: { input_tokens: 100, cache_creation_input_tokens: 400, cache_read_input_tokens: 2000, output_tokens: 40 } }],
      json,
    );
    assert.equal(r.code, 0, r.stderr);
    const usage = r.events.find((e): e is AgentEventOf<'usage'> => e.type === 'usage')!.usage;
    assert.deepEqual(usage, { promptTokens: 2500, completionTokens: 40, totalTokens: 2540, cachedTokens: 2000, cacheWriteTokens: 400 });
  });

  it('the requests carry cache_control on the stable prefix (last system block, last tool) and on the last user turn only', async () => {
    const r = await run([{ blocks: [tool('read_file', { path: 'a.txt' })] }, { blocks: [tool('list_files', {})] }, finish()], json);
    assert.equal(r.code, 0, r.stderr);
    for (const request of fake!.messageRequests()) {
      const system = request.body!.system as Block[];
      assert.ok(system.length > 0);
      assert.deepEqual(system.at(-1)!.cache_control, { type: 'ephemeral' });
      assert.ok(system.slice(0, -1).every((b) => b.cache_control === undefined));
      const tools = request.body!.tools as Block[];
      assert.deepEqual(tools.at(-1)!.cache_control, { type: 'ephemeral' });
      assert.ok(tools.slice(0, -1).every((b) => b.cache_control === undefined));
      const marked = turns(request).flatMap((m, i) => m.content.map((b, j) => [i, j, b.cache_control] as const)).filter(([, , c]) => c !== undefined);
      const messages = turns(request);
      const last = messages.length - 1;
      assert.deepEqual(marked, [[last, messages[last]!.content.length - 1, { type: 'ephemeral' }]], 'one moving breakpoint, on the last block of the last user turn');
      assert.equal(messages[last]!.role, 'user');
    }
    assert.equal(fake!.messageRequests().length, 3);
  });

  it('set-up from the terminal: models and check with --preset anthropic (key from ANTHROPIC_API_KEY)', async () => {
    fake = await startFakeAnthropic([{ blocks: [{ type: 'text', text: 'OK' }] }], { models: ['claude-sonnet-4-6', 'claude-haiku-4-5'], requireKey: KEY });
    const models = await runCommand(['models', '--preset', 'anthropic', '--base-url', fake.url, '--json']);
    assert.equal(models.code, 0, models.stderr);
    assert.deepEqual((JSON.parse(models.stdout) as { models: Array<{ id: string }> }).models.map((m) => m.id), ['claude-sonnet-4-6', 'claude-haiku-4-5']);
    const check = await runCommand(['check', '--preset', 'anthropic', '--base-url', fake.url, '--model', 'claude-sonnet-4-6']);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /Connected/);
    assert.equal(fake.messageRequests()[0]!.headers['x-api-key'], KEY);
  });
});
