import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { startCli, type CliProcess } from './cliProcess';

// Issue 28: a write_file whose argument is megabytes, streamed in small fragments as providers do,
// through the built CLI and a real HTTP model. The speed is the bench's (bench/writeFileArgs.ts);
// here: the file reaches the disk whole with the default limits, and what stops a bigger one says so.

/** About `mb` MB of text with what escaping and decoding must keep: quotes, backslashes, tabs, CRLF, accents, emoji. */
function content(mb: number): string {
  const line = 'const s = "quote \\" and \\\\ back";\tcafé 😀 \u2028 x=1\r\n';
  return line.repeat(Math.ceil((mb * 1024 * 1024) / line.length));
}

describe('stepwise run (CLI): write_file with a multi-megabyte argument (issue 28)', function () {
  this.timeout(120_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  const clis: CliProcess[] = [];

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-bigargs-'));
  });
  afterEach(async () => {
    for (const cli of clis.splice(0)) {
      try {
        process.kill(cli.child.pid!, 'SIGKILL');
      } catch {}
    }
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function run(text: string, chunkChars: number) {
    fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'big.txt', content: text }) }], chunkChars },
      { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'Wrote it.' }) }] },
    ]);
    const cli = startCli(['run', 'Write big.txt', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read,edit', '--verify-mode', 'off']);
    clis.push(cli);
    return cli.done;
  }

  it('a 2 MB argument in 64-character fragments (32,000 of them) reaches the disk whole, with the default limits, and the model sees its call whole', async () => {
    const text = content(2);
    const r = await run(text, 64);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readFile(path.join(ws, 'big.txt'), 'utf8'), text);
    const [result] = r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result' && e.name === 'write_file');
    assert.ok(result && !result.isError, result?.content);
    const [call] = r.events.filter((e): e is AgentEventOf<'tool_call'> => e.type === 'tool_call' && e.name === 'write_file');
    assert.equal((call?.args as { content?: string }).content, text, 'the event (and --json output) carries the argument whole');
    const second = fake!.chatRequests()[1]!.body!.messages!.find((m) => m.role === 'assistant' && m.tool_calls);
    assert.equal(JSON.parse(second!.tool_calls![0]!.function.arguments).content, text);
  });

  it('a 9 MB write with the default budget stops on the budget, saying so, and writes nothing', async () => {
    const r = await run(content(9), 256);
    assert.equal(r.code, 1);
    const finished = r.events.find((e): e is AgentEventOf<'run_finished'> => e.type === 'run_finished');
    assert.equal(finished?.outcome, 'budget');
    assert.match(finished!.reason ?? '', /over its budget of 2000000 tokens/);
    const [result] = r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result');
    assert.match(result!.content, /^stopped: The task used \d+ tokens, over its budget/);
    assert.ok(!existsSync(path.join(ws, 'big.txt')));
  });
});
