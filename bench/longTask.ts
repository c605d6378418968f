import { z } from 'zod';
import { defineTool } from '../src/agent/tools/tool';
import { ToolRegistry } from '../src/agent/tools/toolRegistry';
import { readOutputTool } from '../src/agent/tools/builtins/readOutput';
import type { ScriptedResponse } from '../test/support/scriptedModel';

// A scripted 40-turn coding task: realistic source files, test logs of 3-8k tokens, edits and
// re-runs. Deterministic (seeded), so every policy in one bench run sees the same transcript.

/** A small seeded PRNG (mulberry32), so the transcript is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['order', 'invoice', 'customer', 'total', 'items', 'discount', 'tax', 'currency', 'amount', 'status', 'payment', 'refund', 'ledger', 'account', 'balance'];

function sourceFile(rand: () => number, name: string, lines: number): string {
  const out = [`import { Money } from './money';`, `import type { ${cap(WORDS[0]!)} } from './types';`, ''];
  let n = 0;
  while (out.length < lines) {
    const w = WORDS[Math.floor(rand() * WORDS.length)]!;
    const v = WORDS[Math.floor(rand() * WORDS.length)]!;
    out.push(`/** Computes the ${w} of a ${v} (${name}, part ${n}). */`);
    out.push(`export function ${w}Of${cap(v)}${n}(input: ${cap(v)}, rate = ${(rand() * 10).toFixed(2)}): Money {`);
    out.push(`  const base = input.${w}.reduce((sum, x) => sum.add(x.${v} ?? Money.zero()), Money.zero());`);
    out.push(`  if (input.status === '${v}') return base.times(rate).round(${Math.floor(rand() * 4)});`);
    out.push(`  return base.minus(input.discount ?? Money.zero());`);
    out.push('}', '');
    n++;
  }
  return out.join('\n');
}

function testLog(rand: () => number, lines: number, failing: number): string {
  const out = ['> jest --ci', ''];
  for (let i = 0; out.length < lines; i++) {
    const w = WORDS[Math.floor(rand() * WORDS.length)]!;
    const ok = i >= failing;
    out.push(`${ok ? 'PASS' : 'FAIL'} src/${w}/${w}${i}.test.ts (${(rand() * 3).toFixed(3)} s)`);
    out.push(`  ${ok ? '✓' : '✕'} computes the ${w} for case ${i} (${Math.floor(rand() * 40)} ms)`);
    if (!ok) {
      out.push(`  ● ${w} › computes the ${w} for case ${i}`, '', `    expect(received).toEqual(expected)`, `    Expected: ${Math.floor(rand() * 1e6)}`, `    Received: ${Math.floor(rand() * 1e6)}`, `      at Object.<anonymous> (src/${w}/${w}${i}.test.ts:${Math.floor(rand() * 200)}:${Math.floor(rand() * 40)})`, '');
    }
  }
  out.push(`Tests: ${failing} failed, ${Math.floor(lines / 3)} passed`);
  return out.join('\n');
}

const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/** One turn of the script: what the model says and calls, and what the tool answers. */
interface ScriptedTurn {
  response: ScriptedResponse;
  output: string;
}

/** The 40 turns; the last one calls `finish`. */
export function longTaskScript(turns = 40, seed = 14): ScriptedTurn[] {
  const rand = prng(seed);
  const plan = ['list', 'read', 'search', 'read', 'test', 'read', 'edit', 'test', 'read', 'edit', 'read', 'search', 'edit', 'test'];
  const out: ScriptedTurn[] = [];
  for (let t = 0; t < turns - 1; t++) {
    const kind = plan[t % plan.length]!;
    const file = `src/${WORDS[t % WORDS.length]}/${WORDS[(t * 7) % WORDS.length]}.ts`;
    const say = `Turn ${t + 1}: ${kind === 'test' ? 'running the tests again to see what still fails' : `next I ${kind} ${file} to understand how the ${WORDS[t % WORDS.length]} flows`}.`;
    let call: ScriptedResponse['toolCalls'];
    let output: string;
    if (kind === 'list') {
      call = [{ name: 'list_files', arguments: { path: 'src' } }];
      output = Array.from({ length: 80 }, (_, i) => `src/${WORDS[i % WORDS.length]}/${WORDS[(i * 3) % WORDS.length]}${i}.ts`).join('\n');
    } else if (kind === 'read') {
      call = [{ name: 'read_file', arguments: { path: file } }];
      output = sourceFile(rand, file, 90 + Math.floor(rand() * 160));
    } else if (kind === 'search') {
      call = [{ name: 'search_files', arguments: { query: `${WORDS[t % WORDS.length]}Of` } }];
      output = Array.from({ length: 30 }, (_, i) => `src/${WORDS[i % WORDS.length]}.ts:${i * 7 + 3}: export function ${WORDS[t % WORDS.length]}Of${cap(WORDS[i % WORDS.length]!)}${i}(input`).join('\n');
    } else if (kind === 'test') {
      call = [{ name: 'run_command', arguments: { command: 'npm test' } }];
      output = testLog(rand, 220 + Math.floor(rand() * 380), 3);
    } else {
      const before = sourceFile(rand, file, 14);
      call = [{ name: 'edit_file', arguments: { path: file, old_text: before, new_text: before.replace(/round\(\d\)/g, 'round(2)') } }];
      output = `Edited ${file}: 1 replacement (lines 12-26).`;
    }
    out.push({ response: { text: say, toolCalls: call }, output });
  }
  out.push({ response: { text: 'All tests pass now.', toolCalls: [{ name: 'finish', arguments: { summary: 'Fixed the rounding of totals; tests pass.' } }] }, output: 'Finished.' });
  return out;
}

/** The tools of the script: each answers the output scripted for the turn that calls it; read_output is the real one. */
export function longTaskTools(script: ScriptedTurn[], turnOf: () => number): ToolRegistry {
  const make = (name: string) =>
    defineTool({
      name,
      description: `Scripted ${name} for the long-task bench.`,
      category: 'read',
      parameters: z.object({}).passthrough(),
      execute: async () => ({ content: script[turnOf()]?.output ?? '' }),
    });
  const finish = defineTool({
    name: 'finish',
    description: 'Ends the run.',
    category: 'meta',
    parameters: z.object({ summary: z.string() }),
    execute: async ({ summary }) => ({ content: 'Finished.', finish: { summary } }),
  });
  return new ToolRegistry([make('list_files'), make('read_file'), make('search_files'), readOutputTool, make('run_command'), make('edit_file'), finish]);
}
