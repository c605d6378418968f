import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeOpenAI } from '../test/support/fakeOpenAIServer';

/**
 * `write_file` with an argument of `mb` MB, end to end: the built CLI against a loopback fake model
 * that streams the call in 256-character fragments, until the file is on disk and the task ends.
 * Returns the wall time and whether the file arrived whole. The task budget is lifted: the default
 * (2M effective tokens) stops a task whose answer is over ~8 MB, as it should for a real model.
 * `BENCH_NODE_ARGS` (e.g. `--cpu-prof`) is passed to the CLI's Node, to profile it.
 */
export async function benchWriteFileArgs(mb: number, chunkChars = 256): Promise<{ mb: number; ms: number; ok: boolean }> {
  const line = 'const value = "write_file bench line with some text in it";\n';
  const content = line.repeat(Math.ceil((mb * 1024 * 1024) / line.length));
  const fake = await startFakeOpenAI([
    { toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'big.txt', content }) }], chunkChars },
    { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'Wrote it.' }) }] },
  ]);
  const base = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-write-'));
  try {
    const cli = path.join(__dirname, '..', 'dist', 'cli.js');
    const t = performance.now();
    const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), cli, 'run', 'Write big.txt', '--workspace', base, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read,edit', '--verify-mode', 'off', '--token-budget', '1000000000'], {
      stdio: 'ignore', env: { PATH: process.env.PATH ?? '', HOME: base, STEPWISE_HOME: path.join(base, '.home'), OPENAI_API_KEY: 'sk-bench', NO_COLOR: '1' },
    });
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const ms = performance.now() - t;
    const size = (await stat(path.join(base, 'big.txt')).catch(() => undefined))?.size;
    return { mb, ms, ok: size === Buffer.byteLength(content) };
  } finally {
    await fake.close();
    await rm(base, { recursive: true, force: true });
  }
}
