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

/**
 * The sandbox's cost per command: `true` through the real runner, plain and in a workspace-write
 * bubblewrap sandbox, alternated so load changes hit both alike. Overhead = difference of medians.
 */
export async function benchSandboxOverhead(runs = 40): Promise<{ plainMs: number; sandboxedMs: number; overheadMs: number; runs: number } | { unavailable: string }> {
  const ws = mkdtempSync('/var/tmp/stepwise-bench-sandbox-');
  const box = await CommandSandbox.open({ mode: 'workspace-write', workspace: ws, allowHosts: [], webPolicy: { allowHosts: [], denyHosts: [] } });
  if (!(box instanceof CommandSandbox)) {
    rmSync(ws, { recursive: true, force: true });
    return { unavailable: box.unavailable };
  }
  const plain = new ExecaCommandRunner();
  const sandboxed = new ExecaCommandRunner({ sandbox: fixedSandbox(box) });
  const times = { plain: [] as number[], sandboxed: [] as number[] };
  const signal = new AbortController().signal;
  try {
    for (let i = 0; i < runs + 3; i++) {
      for (const [name, runner] of [['plain', plain], ['sandboxed', sandboxed]] as const) {
        const result = await runner.run({ command: 'true', cwd: ws, timeoutMs: 10_000, maxOutputChars: 1000, signal });
        if (result.exitCode !== 0) throw new Error(`${name} \`true\` failed: ${result.output}`);
        if (i >= 3) times[name].push(result.durationMs);
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
  return { plainMs, sandboxedMs, overheadMs: sandboxedMs - plainMs, runs };
}
