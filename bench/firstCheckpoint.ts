import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeOpenAI } from '../test/support/fakeOpenAIServer';

/** What the first checkpoint of a big tree costs the task, and what it costs on its own. */
export interface FirstCheckpointFigures {
  files: number;
  bytes: number;
  /** Start of the built CLI to the model's first request, in the big tree and in a one-file folder (same run). */
  firstRequestMs: number;
  firstRequestSmallMs: number;
  /** Start of the CLI to the `checkpoint` event of the task's start (the first snapshot written), in the big tree. */
  firstCheckpointMs: number;
  /** The anchor: `git add -A && git write-tree` of the same tree into a fresh repository. */
  gitMs: number;
}

/** A tree of `files` files and about `bytes` bytes: small source files, and 40 large ones that carry most of the bytes. */
async function makeTree(root: string, files: number, bytes: number): Promise<void> {
  const large = 40;
  const small = files - large;
  const line = 'export const value = compute(1234, "some words of text");\n';
  const smallText = (i: number) => `// file ${i}\n` + line.repeat(25);
  let written = 0;
  for (let i = 0; i < small; i++) {
    const dir = path.join(root, 'src', `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 50) % 20}`);
    if (i % 50 === 0) await mkdir(dir, { recursive: true });
    const text = smallText(i);
    await writeFile(path.join(dir, `file${i % 50}.ts`), text);
    written += text.length;
  }
  await mkdir(path.join(root, 'data'), { recursive: true });
  const each = Math.max(0, Math.floor((bytes - written) / large));
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < large; i++) {
    // Distinct content per file (git would store equal files once): a counter in each megabyte.
    const parts: Buffer[] = [];
    for (let done = 0; done < each; done += block.length) {
      const b = Buffer.from(block);
      b.write(`file ${i} block ${done}\n`.repeat(8), 0);
      parts.push(done + block.length > each ? b.subarray(0, each - done) : b);
    }
    await writeFile(path.join(root, 'data', `blob${i}.bin`), Buffer.concat(parts));
  }
}

/** Runs one task in `workspace` through the built CLI; ms from spawn to the first model request and to the start checkpoint. */
async function timeTask(workspace: string, home: string): Promise<{ firstRequestMs: number; firstCheckpointMs: number }> {
  let t0 = 0;
  let firstRequestMs = NaN;
  const fake = await startFakeOpenAI((_request, index) => {
    if (index === 0) firstRequestMs = performance.now() - t0;
    return { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'Nothing to do.' }) }] };
  });
  try {
    const cli = path.join(__dirname, '..', 'dist', 'cli.js');
    t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'run', 'Say hello', '--workspace', workspace, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--verify-mode', 'off'], {
      stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: process.env.PATH ?? '', HOME: home, STEPWISE_HOME: path.join(home, '.stepwise'), OPENAI_API_KEY: 'sk-bench', NO_COLOR: '1' },
    });
    let firstCheckpointMs = NaN;
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let at;
      while ((at = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        if (Number.isNaN(firstCheckpointMs) && line.includes('"type":"checkpoint"')) firstCheckpointMs = performance.now() - t0;
      }
    });
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { firstRequestMs, firstCheckpointMs };
  } finally {
    await fake.close();
  }
}

/**
 * The first checkpoint of a 20,000-file / 500 MB tree must be off the task's path: the model's first
 * request comes as soon after the start as in a one-file folder, while the snapshot (timed to its
 * event) takes as long as git's own `add -A && write-tree` of the tree, the anchor in the same run.
 */
export async function benchFirstCheckpoint(files = 20_000, bytes = 500 * 1024 * 1024): Promise<FirstCheckpointFigures> {
  const base = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-first-cp-'));
  try {
    const big = path.join(base, 'big');
    const small = path.join(base, 'small');
    await makeTree(big, files, bytes);
    await mkdir(small, { recursive: true });
    await writeFile(path.join(small, 'README.md'), '# small\n');
    const smallRun = await timeTask(small, path.join(base, 'home-small'));
    const bigRun = await timeTask(big, path.join(base, 'home-big'));
    const anchorDir = path.join(base, 'anchor.git');
    spawnSync('git', ['init', '-q', '--bare', anchorDir]);
    const t = performance.now();
    spawnSync('sh', ['-c', `git --git-dir="${anchorDir}" --work-tree=. add -A && git --git-dir="${anchorDir}" --work-tree=. write-tree`], { cwd: big, stdio: 'ignore' });
    const gitMs = performance.now() - t;
    return { files, bytes, firstRequestMs: bigRun.firstRequestMs, firstRequestSmallMs: smallRun.firstRequestMs, firstCheckpointMs: bigRun.firstCheckpointMs, gitMs };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
