import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../src/agent/ports';
import { applyEdits } from '../src/agent/tools/edit/applyEdits';
import { builtinTools } from '../src/agent/tools/builtins';
import type { ToolContext } from '../src/agent/tools/tool';
import { ToolRegistry } from '../src/agent/tools/toolRegistry';
import { ExecaCommandRunner } from '../src/node/execaCommandRunner';
import { NodeWorkspace } from '../src/node/nodeWorkspace';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A 100,000-line source file with realistic, non-unique lines. */
function bigFile(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(i % 10 === 0 ? `function handler${i}(request, response) {` : i % 10 === 9 ? '}' : `    const value${i % 7} = compute(request, ${i % 13});`);
  }
  return out.join('\n') + '\n';
}

/**
 * Median time of one `edit_file` call on a 100,000-line file: the whole tool (read, match, diff for
 * the approval, atomic write) on a real file, for an exact and a whitespace-drifted search, and the
 * pure matching alone.
 */
export async function benchEditFile(lines = 100_000, runs = 15): Promise<{ exactMs: number; tolerantMs: number; matchOnlyMs: number; lines: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-'));
  try {
    await writeFile(path.join(dir, 'big.js'), bigFile(lines));
    const registry = new ToolRegistry(builtinTools());
    const context: ToolContext = {
      workspace: new NodeWorkspace(dir), commands: new ExecaCommandRunner(), logger: silentLogger,
      signal: new AbortController().signal, callId: 'bench', asker: { ask: async () => undefined },
      requestApproval: async () => ({ approved: true }), emit: () => {},
    };
    const target = Math.floor(lines * 0.7 / 10) * 10; // a line deep in the file
    const exactTimes: number[] = [];
    const tolerantTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Flip the line back and forth so every call really edits.
      const [from, to] = i % 2 === 0 ? [`handler${target}(`, `renamed${target}(`] : [`renamed${target}(`, `handler${target}(`];
      let t = performance.now();
      let result = await registry.execute('edit_file', { path: 'big.js', edits: [{ search: `function ${from}request, response) {`, replace: `function ${to}request, response) {` }] }, context);
      exactTimes.push(performance.now() - t);
      if (result.isError) throw new Error(result.content);
      // Search text with the indentation lost and trailing spaces added: the tolerant matcher's path.
      const body = `const value${(target + 1) % 7} = compute(request, ${(target + 1) % 13});`;
      const [a, b] = i % 2 === 0 ? [`function ${to}request, response) {`, `function ${from}request, response) {`] : [`function ${to}request, response) {`, `function ${from}request, response) {`];
      t = performance.now();
      result = await registry.execute('edit_file', { path: 'big.js', edits: [{ search: `${a}  \n${body}`, replace: `${b}\n    ${body}` }] }, context);
      tolerantTimes.push(performance.now() - t);
      if (result.isError) throw new Error(result.content);
      // Undo the tolerant edit's rename so the next exact edit finds its line.
      await registry.execute('edit_file', { path: 'big.js', edits: [{ search: b, replace: a }] }, context);
    }
    const text = bigFile(lines);
    const matchTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const r = applyEdits(text, [{ search: `function handler${target}(request, response) {`, replace: 'function x() {' }]);
      matchTimes.push(performance.now() - t);
      if (!r.ok) throw new Error(r.message);
    }
    return { exactMs: median(exactTimes), tolerantMs: median(tolerantTimes), matchOnlyMs: median(matchTimes), lines };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
