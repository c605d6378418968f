import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { startCli, type CliProcess, type CliRun } from './cliProcess';

// search_files through the built CLI with no `rg` on PATH: the JS engine's worker threads start
// from dist/search-worker.js beside the bundles and give rg's results in rg's order.

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const FILES = 3_000; // 47 batches: past the 16 the CLI's own thread scans, so workers read most of them

describe('stepwise run (CLI): search_files without rg on PATH', function () {
  this.timeout(60_000);
  let ws: string;
  let bin: string;
  let fake: FakeOpenAIServer | undefined;
  const clis: CliProcess[] = [];

  before(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-js-search-cli-'));
    bin = await mkdtemp(path.join(tmpdir(), 'stepwise-js-search-bin-'));
    // PATH holds git (checkpoints) and nothing else: no rg.
    symlinkSync(execFileSync('which', ['git'], { encoding: 'utf8' }).trim(), path.join(bin, 'git'));
    writeFileSync(path.join(ws, '.gitignore'), 'build/\n');
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(ws, 'src', `pkg${Math.floor(i / 100)}`);
      if (i % 100 === 0) mkdirSync(dir, { recursive: true });
      const extra = i === 1234 ? 'const needle = 1;\n' : i === 2345 ? 'let answer = 42;\n' : '';
      writeFileSync(path.join(dir, `f${String(i).padStart(4, '0')}.ts`), `export const v${i} = ${i};\n${extra}`);
    }
    mkdirSync(path.join(ws, 'build'));
    writeFileSync(path.join(ws, 'build', 'out.js'), 'const needle = 2;\nlet answer = 7;\n');
    writeFileSync(path.join(ws, 'blob.bin'), Buffer.from('needle\0\0\0'));
  });
  after(async () => {
    for (const cli of clis.splice(0)) {
      try {
        process.kill(cli.child.pid!, 'SIGKILL');
      } catch {}
    }
    await fake?.close();
    await rm(ws, { recursive: true, force: true });
    await rm(bin, { recursive: true, force: true });
  });

  const run = async (args: unknown): Promise<string> => {
    await fake?.close();
    fake = await startFakeOpenAI([{ toolCalls: [call('search_files', args)] }, { text: 'Done.' }]);
    const cli = startCli(['run', 'go', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read'], { PATH: bin });
    clis.push(cli);
    const r: CliRun = await cli.done;
    assert.equal(r.code, 0, r.stderr);
    const [result] = r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result');
    assert.ok(result && !result.isError, result?.content);
    return result.content;
  };

  it('finds a word in one of 3,000 files, never in the ignored folder, and names the binary file it skipped', async () => {
    const content = await run({ pattern: 'needle' });
    assert.match(content, /src\/pkg12\/f1234\.ts:2: const needle = 1;/);
    assert.doesNotMatch(content, /build\/out\.js/);
    assert.match(content, /Not searched: blob\.bin/);
  });

  it('runs a regex in the workers and gives the match with its context', async () => {
    const content = await run({ pattern: 'answer = \\d+' });
    assert.match(content, /src\/pkg23\/f2345\.ts:2: let answer = 42;/);
    assert.match(content, /export const v2345 = 2345;/);
    assert.doesNotMatch(content, /answer = 7/);
  });
});
