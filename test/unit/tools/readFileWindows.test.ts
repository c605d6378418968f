import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { o200kCounter } from '../../../src/agent/context/tokenCounter';
import { fitToolOutput } from '../../../src/agent/context/toolOutputBudget';
import { silentLogger } from '../../../src/agent/ports';
import { builtinTools } from '../../../src/agent/tools/builtins/index';
import type { ToolContext } from '../../../src/agent/tools/tool';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';

// read_file reads windows through ranged reads and remembers line starts between calls: every
// window must equal what splitting the whole file would show, whatever the line endings, BOM,
// final newline, start line and token cap.

describe('read_file windows over ranged reads', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stepwise-windows-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const registry = new ToolRegistry(builtinTools());
  const context = (workspace: NodeWorkspace, maxTokens = 6_000): ToolContext => ({
    workspace, commands: { sandboxMode: () => 'off', run: () => Promise.reject(new Error('no commands')) }, logger: silentLogger,
    signal: new AbortController().signal, callId: 'c', asker: { ask: async () => undefined },
    requestApproval: async () => ({ approved: true }), emit: () => undefined,
    resultTokens: { max: maxTokens, counter: o200kCounter },
  });

  let seed = 11;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

  for (let round = 0; round < 12; round++) {
    it(`random file ${round + 1}: every window matches the split file`, async () => {
      const count = 1 + Math.floor(random() * 9000);
      const eol = pick(['\n', '\r\n']);
      // Some empty lines, but not the last one (an empty last line without a newline is no line).
      const lines = Array.from({ length: count }, (_, i) => (random() < 0.05 && i < count - 1 ? '' : `${i + 1} ${'αbc def '.repeat(Math.floor(random() * 12))}`));
      const text = (round % 3 === 0 ? '\ufeff' : '') + lines.join(eol) + (random() < 0.5 ? eol : '');
      const name = `f${round}.txt`;
      await writeFile(path.join(dir, name), text);
      const workspace = new NodeWorkspace(dir);
      const maxTokens = pick([6_000, 1_500, 300]);
      for (let probe = 0; probe < 8; probe++) {
        const start = probe === 0 ? 1 : 1 + Math.floor(random() * count);
        const result = await registry.execute('read_file', { path: name, start_line: start }, context(workspace, maxTokens));
        assert.equal(result.isError, undefined, result.content);
        const body = result.content.split('\n').filter((l) => /^\d*\t/.test(l));
        // The column holds the number on the window's first line and each fifth line, else nothing.
        const shown = body.map((_, i) => start + i);
        for (const [i, l] of body.entries()) {
          const n = start + i;
          assert.equal(l.slice(0, l.indexOf('\t')), i === 0 || n % 5 === 0 ? String(n) : '', `the column of line ${n}`);
          assert.equal(l.slice(l.indexOf('\t') + 1), lines[n - 1], `line ${n}`);
        }
        const last = shown[shown.length - 1]!;
        const footer = result.content.split('\n').at(-1)!;
        if (last < count) assert.equal(footer, `[Lines ${start}-${last} of ${count}. To read more, call read_file with start_line=${last + 1}.]`);
        else if (start > 1) assert.equal(footer, `[Lines ${start}-${last} of ${count}.]`);
        assert.ok(o200kCounter.count(body.join('\n')) <= maxTokens, 'the window fits the token cap');
      }
      const past = await registry.execute('read_file', { path: name, start_line: count + 1 }, context(workspace));
      assert.equal(past.content, `start_line ${count + 1} is past the end of ${name}, which has ${count} lines.`);
    });
  }
});

describe('read_file through the loop\'s result cap', () => {
  it('a dense-code window fits the cap, so the loop never cuts its middle out', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'stepwise-dense-'));
    try {
      const line = (n: number) => `  q${n}=[${Array.from({ length: 30 }, (_, k) => ((n * 37 + k * 11) % 251).toString(16)).join(',')}].reduce((a,b)=>a^b<<${n % 7},0x${n.toString(16)});`;
      await writeFile(path.join(dir, 'dense.js'), Array.from({ length: 500 }, (_, i) => line(i + 1)).join('\n') + '\n');
      const registry = new ToolRegistry(builtinTools());
      for (const cap of [6_000, 2_000]) {
        const context: ToolContext = {
          workspace: new NodeWorkspace(dir), commands: { sandboxMode: () => 'off', run: () => Promise.reject(new Error('none')) }, logger: silentLogger,
          signal: new AbortController().signal, callId: 'c', asker: { ask: async () => undefined },
          requestApproval: async () => ({ approved: true }), emit: () => undefined, resultTokens: { max: cap, counter: o200kCounter },
        };
        const result = await registry.execute('read_file', { path: 'dense.js' }, context);
        assert.ok(result.content.length <= 20_000 + 200);
        // The same cut the loop applies to every result (act.ts): nothing may be omitted.
        assert.equal(fitToolOutput(result.content, cap, o200kCounter, 'hint').omittedChars, 0, `cap ${cap}`);
        assert.match(result.content, /\[Lines 1-\d+ of 500\. To read more, call read_file with start_line=\d+\.\]$/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
