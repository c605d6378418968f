import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { ExecaCommandRunner } from '../src/node/execaCommandRunner';
import { CommandSandbox } from '../src/node/sandbox/commandSandbox';
import { fixedSandbox } from '../src/node/sandbox/sandboxSource';

/** Median of a list of numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds from spawn to exit of one process (output ignored). */
function spawnToExit(file: string, args: readonly string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - started));
  });
}

/** What the bench reports: through the runner (what a task sees) and the bare spawn-to-exit cost of bwrap. */
export interface SandboxBench {
  plainMs: number;
  sandboxedMs: number;
  overheadMs: number;
  /** `bash -c true` vs the same inside bwrap, spawn to exit: the sandbox's own cost, without the runner's clean-up. */
  spawnPlainMs: number;
  spawnSandboxedMs: number;
  spawnOverheadMs: number;
  runs: number;
}

/**
 * The sandbox's cost per command: `true` through the real runner, plain and in a workspace-write
 * bubblewrap sandbox, alternated so load changes hit both alike; overhead = difference of medians.
 * Through the runner a sandboxed command skips the /proc sweeps a plain one needs afterwards (its
 * namespace ends with it), which can make it faster on a busy machine; the bare spawn-to-exit
 * figures show bubblewrap's own cost.
 */
export async function benchSandboxOverhead(runs = 40): Promise<SandboxBench | { unavailable: string }> {
  const ws = mkdtempSync('/var/tmp/stepwise-bench-sandbox-');
  const box = await CommandSandbox.open({ mode: 'workspace-write', workspace: ws, allowHosts: [], webPolicy: { allowHosts: [], denyHosts: [] } });
  if (!(box instanceof CommandSandbox)) {
    rmSync(ws, { recursive: true, force: true });
    return { unavailable: box.unavailable };
  }
  const plain = new ExecaCommandRunner();
  const sandboxed = new ExecaCommandRunner({ sandbox: fixedSandbox(box) });
  const times = { plain: [] as number[], sandboxed: [] as number[], spawnPlain: [] as number[], spawnSandboxed: [] as number[] };
  const wrapped = await box.wrapShell('/bin/bash', 'true', ws);
  const signal = new AbortController().signal;
  try {
    for (let i = 0; i < runs + 3; i++) {
      for (const [name, runner] of [['plain', plain], ['sandboxed', sandboxed]] as const) {
        const result = await runner.run({ command: 'true', cwd: ws, timeoutMs: 10_000, maxOutputChars: 1000, signal });
        if (result.exitCode !== 0) throw new Error(`${name} \`true\` failed: ${result.output}`);
        if (i >= 3) times[name].push(result.durationMs);
      }
      const bare = await spawnToExit('/bin/bash', ['-c', 'true']);
      const boxed = await spawnToExit(wrapped.file, wrapped.args);
      if (i >= 3) {
        times.spawnPlain.push(bare);
        times.spawnSandboxed.push(boxed);
      }
    }
  } finally {
    plain.dispose();
    sandboxed.dispose();
    await box.dispose();
    rmSync(ws, { recursive: true, force: true });
  }
  const plainMs = median(times.plain);
  const sandboxedMs = median(times.sandboxed);
  const spawnPlainMs = median(times.spawnPlain);
  const spawnSandboxedMs = median(times.spawnSandboxed);
  return { plainMs, sandboxedMs, overheadMs: sandboxedMs - plainMs, spawnPlainMs, spawnSandboxedMs, spawnOverheadMs: spawnSandboxedMs - spawnPlainMs, runs };
}
