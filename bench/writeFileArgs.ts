import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeOpenAI, type FakeTurn } from '../test/support/fakeOpenAIServer';

/** One size's figures: Stepwise end to end, and the same stream read by curl from the same fake in the same run. */
export interface WriteFileArgsFigures {
  mb: number;
  ms: number;
  /** `curl -sN` reading the very same SSE answer to /dev/null: the transport's and the fake's own cost. */
  curlMs: number;
  ok: boolean;
}

/**
 * `write_file` with an argument of `mb` MB, end to end: the built CLI against a loopback fake model
 * that streams the call in 256-character fragments (real providers send a few characters a chunk),
 * until the file is on disk and the task ends; beside it, curl reading the same answer. What stops
 * a big write with the default limits is the task budget (2M effective tokens): the answer's output
 * tokens count (~0.26M per MB), as they are what a provider bills most, so the bench lifts it with
 * `--token-budget` (README, "Large generated files"). `BENCH_NODE_ARGS` (e.g. `--cpu-prof`) is
 * passed to the CLI's Node, to profile it.
 */
export async function benchWriteFileArgs(mb: number, chunkChars = 256): Promise<WriteFileArgsFigures> {
  const line = 'const value = "write_file bench line with some text in it";\n';
  const content = line.repeat(Math.ceil((mb * 1024 * 1024) / line.length));
  const big: FakeTurn = { toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'big.txt', content }) }], chunkChars };
  const fake = await startFakeOpenAI([big, big, { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'Wrote it.' }) }] }]);
  const base = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-write-'));
  try {
    const curlMs = await timed('curl', ['-sN', '-o', '/dev/null', '-H', 'content-type: application/json', '-d', '{"model":"fake-model","stream":true,"messages":[]}', `${fake.url}/chat/completions`], {});
    const cli = path.join(__dirname, '..', 'dist', 'cli.js');
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const ms = await timed(process.execPath, [...nodeArgs, cli, 'run', 'Write big.txt', '--workspace', base, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read,edit', '--verify-mode', 'off', '--token-budget', '1000000000'], {
      PATH: process.env.PATH ?? '', HOME: base, STEPWISE_HOME: path.join(base, '.home'), OPENAI_API_KEY: 'sk-bench', NO_COLOR: '1',
    });
    const size = (await stat(path.join(base, 'big.txt')).catch(() => undefined))?.size;
    return { mb, ms, curlMs, ok: size === Buffer.byteLength(content) };
  } finally {
    await fake.close();
    await rm(base, { recursive: true, force: true });
  }
}

/** Wall time of one child process, from spawn to exit. */
async function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t = performance.now();
  const child = spawn(command, args, { stdio: 'ignore', env: Object.keys(env).length > 0 ? env : process.env });
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return performance.now() - t;
}
