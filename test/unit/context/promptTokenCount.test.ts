import assert from 'node:assert/strict';
import { z } from 'zod';
import { o200kCounter } from '../../../src/agent/context/tokenCounter';
import { ToolError } from '../../../src/agent/errors';
import { runAgent } from '../../../src/agent/loop/runAgent';
import { defineTool } from '../../../src/agent/tools/tool';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedBody } from '../../support/fakeOpenAIServer';
import { finishTool, makeRun } from '../loop/harness';
import { makeModel } from '../model/support';

// The budget's token count against what the real adapter sent over HTTP: each request body the fake
// server recorded, counted the way OpenAI's cookbook counts a chat request (every string the model
// reads, 3 tokens of framing per message, 3 for the reply's priming, the tools' JSON as sent).

/** One turn of the script: what the model calls (raw arguments) and what each call answers. */
interface Row {
  name: string;
  text?: string;
  calls: Array<{ args: string; output: string; error?: boolean }>;
}

const code = [
  "import { readFile } from 'node:fs/promises';",
  'export async function load(path: string): Promise<Record<string, unknown>> {',
  '  const text = await readFile(path, "utf8");',
  "  if (!text.trim()) throw new Error(`empty file: ${path}\\n`);",
  '  return JSON.parse(text.replace(/\\r\\n/g, "\\n")) as Record<string, unknown>;',
  '}',
].join('\n');
const log = Array.from({ length: 120 }, (_, i) => `${i % 7 ? 'PASS' : 'FAIL'} src/money/round${i}.test.ts (${(i * 0.37).toFixed(2)} s)\n  ✓ rounds "half-even" case ${i}`).join('\n');
const json = JSON.stringify({ items: [{ id: 1, name: 'Ünïcode "quoted"', tags: ['a\\b', 'c/d'] }, { id: 2, nested: { ok: true, n: null } }] }, null, 2);
const arg = (value: Record<string, unknown>) => JSON.stringify(value);

const ROWS: Row[] = [
  { name: 'code with quotes, backslashes and template literals', calls: [{ args: arg({ path: 'src/load.ts' }), output: code }] },
  { name: 'pretty JSON with escapes', calls: [{ args: arg({ path: 'data.json' }), output: json }] },
  { name: 'CJK text and emoji', calls: [{ args: arg({ path: '说明.md' }), output: '金额四舍五入的规则：银行家舍入法。🧮✅ 参见 docs/金额.md\n'.repeat(12) }] },
  { name: 'a failing call (sent with an error mark)', calls: [{ args: arg({ path: 'missing.txt' }), output: 'File not found: missing.txt', error: true }] },
  { name: 'two calls in one turn', calls: [{ args: arg({ path: 'a.ts' }), output: 'export const a = 1;' }, { args: arg({ path: 'b.ts' }), output: 'export const b = 2;' }] },
  { name: 'empty arguments (sent as {})', calls: [{ args: '', output: 'src/\n  a.ts\n  b.ts' }] },
  { name: 'long arguments of an edit', text: 'Rewriting the loader.', calls: [{ args: arg({ path: 'src/load.ts', content: `${code}\n${code}` }), output: 'Wrote 12 lines.' }] },
  { name: 'a long test log', calls: [{ args: arg({ path: 'test.log' }), output: log }] },
  { name: 'prose before a call', text: 'The rounding happens in `Money.round`; I will check its callers next, starting with the invoice totals.', calls: [{ args: arg({ path: 'src/money.ts' }), output: 'export class Money {}' }] },
  { name: 'Windows paths', calls: [{ args: arg({ path: 'C:\\Users\\dev\\repo\\src\\a.ts' }), output: 'C:\\Users\\dev\\repo\\src\\a.ts:1: export {}' }] },
  ...Array.from({ length: 8 }, (_, i): Row => ({ name: `short turn ${i + 1}`, calls: [{ args: arg({ path: `f${i}.txt` }), output: 'ok' }] })),
];

/** Every string the model reads in a message (keys are the wire format's, not tokens the model sees). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The cookbook's count of a recorded request body. */
function wireTokens(body: RecordedBody): number {
  let total = 3;
  for (const message of body.messages ?? []) total += 3 + strings(message).reduce((sum, s) => sum + o200kCounter.count(s), 0);
  for (const tool of body.tools ?? []) total += o200kCounter.count(JSON.stringify(tool));
  return total;
}

describe('prompt token count against the request bodies sent (real adapter, fake server over HTTP)', () => {
  let fake: FakeOpenAIServer | undefined;
  afterEach(async () => fake?.close());

  it('counts every request within 2% of the tokens its body carries, on every kind of turn', async () => {
    const turns: FakeTurn[] = ROWS.map((row, r) => ({
      ...(row.text ? { text: row.text } : {}),
      toolCalls: row.calls.map((call, c) => ({ name: 'show', arguments: call.args, id: `call_${r}_${c}_${'x'.repeat(r % 3)}` })),
    }));
    turns.push({ toolCalls: [{ name: 'finish', arguments: arg({ summary: 'Checked the rounding.' }) }] });
    fake = await startFakeOpenAI(turns);
    const outputs = ROWS.flatMap((row) => row.calls);
    const show = defineTool({
      name: 'show',
      description: 'Shows a file, a folder or a log of the workspace.',
      category: 'read',
      parameters: z.object({ path: z.string().optional(), content: z.string().optional() }),
      execute: async () => {
        const next = outputs.shift()!;
        if (next.error) throw new ToolError(next.output);
        return { content: next.output };
      },
    });
    const h = makeRun([], [show, finishTool], { model: makeModel(fake.url) });
    h.options.limits = { ...h.options.limits, maxTurns: ROWS.length + 5 };
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished', result.reason);

    const counted = h.ofType('context').map((event) => event.used);
    const sent = fake.chatRequests().map((request) => wireTokens(request.body!));
    assert.equal(counted.length, sent.length, 'one budget check per request');
    assert.equal(sent.length, ROWS.length + 1);
    const rows = sent.map((wire, i) => ({ request: i, after: i === 0 ? 'the task' : ROWS[i - 1]!.name, counted: counted[i]!, wire, off: (counted[i]! - wire) / wire }));
    const outside = rows.filter((row) => Math.abs(row.off) > 0.02);
    assert.deepEqual(outside, [], 'requests counted more than 2% off what their body carries');
  });
});
