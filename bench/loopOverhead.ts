import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { EventStream } from '../src/agent/events/eventStream';
import { runAgent } from '../src/agent/loop/runAgent';
import { systemClock } from '../src/agent/clock';
import { silentLogger } from '../src/agent/ports';
import { defineTool } from '../src/agent/tools/tool';
import { ToolRegistry } from '../src/agent/tools/toolRegistry';
import { ScriptedModel } from '../test/support/scriptedModel';
import { recordingApprover, scriptedAsker, stubCommandRunner, stubWorkspace } from '../test/support/stubPorts';

/** Median and p95 of the loop's own time per turn with a zero-latency model and a no-op tool. */
export async function benchLoopOverhead(turns = 300, runs = 3): Promise<{ medianMs: number; p95Ms: number; turns: number }> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const noop = defineTool({
      name: 'noop',
      description: 'Does nothing.',
      category: 'read',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => ({ content: `ok ${n}: ` + 'some realistic tool output line\n'.repeat(20) }),
    });
    let last = 0;
    const model = new ScriptedModel((_request, index) => {
      const now = performance.now();
      if (index > 0) samples.push(now - last);
      last = now;
      if (index >= turns - 1) return { toolCalls: [{ name: 'finish', arguments: { summary: 'done' } }] };
      return { text: `Step ${index}.`, toolCalls: [{ name: 'noop', arguments: { n: index } }] };
    });
    const finish = defineTool({
      name: 'finish', description: 'Ends the run.', category: 'meta', parameters: z.object({ summary: z.string() }),
      execute: async ({ summary }) => ({ content: 'Finished.', finish: { summary } }),
    });
    const events = new EventStream(`bench-${run}`);
    events.subscribe(() => {});
    const result = await runAgent({
      task: 'benchmark', model, tools: new ToolRegistry([noop, finish]), workspace: stubWorkspace(), commands: stubCommandRunner(),
      approver: recordingApprover(), asker: scriptedAsker(), logger: silentLogger, clock: systemClock, events,
      signal: new AbortController().signal, limits: { maxTurns: turns + 5, maxInputTokens: 100_000, maxToolResultTokens: 6_000 },
    });
    if (result.outcome !== 'finished') throw new Error(`bench run ended ${result.outcome}: ${result.reason}`);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { medianMs: at(0.5), p95Ms: at(0.95), turns: samples.length };
}
