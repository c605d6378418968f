import { EventStream } from '../src/agent/events/eventStream';
import { systemClock } from '../src/agent/clock';
import { countMessageTokens, o200kCounter } from '../src/agent/context/tokenCounter';
import { runAgent } from '../src/agent/loop/runAgent';
import type { ChatMessage, ModelRequest } from '../src/agent/model/types';
import { silentLogger } from '../src/agent/ports';
import { ScriptedModel } from '../test/support/scriptedModel';
import { recordingApprover, scriptedAsker, stubCommandRunner, stubWorkspace } from '../test/support/stubPorts';
import { longTaskScript, longTaskTools } from './longTask';

/** Figures of one policy over the scripted task. */
export interface CacheFigures {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  /** Mean over requests of (cached prefix / prompt). */
  meanCachedShare: number;
  /** Uncached + 0.1 x cached prefix, summed over requests. */
  effective: number;
  /** Requests whose prefix differed from the previous request before its end (history rewritten). */
  rewrites: number;
  /** Per request: its prompt tokens and the part of them that was not a cached prefix. */
  perRequest: Array<{ prompt: number; uncached: number }>;
}

/**
 * The most any eliding policy can reach at `budget` on this transcript: each request's new turn is
 * never cached and its prompt is at most the budget (and at most the never-elided prompt), so a
 * request's share is at most 1 - new / min(prompt, budget); the first request has nothing cached.
 */
export function cachedShareCeiling(never: CacheFigures, budget: number): number {
  const shares = never.perRequest.map((r, i) => (i === 0 ? 0 : 1 - r.uncached / Math.min(r.prompt, budget)));
  return shares.reduce((sum, x) => sum + x, 0) / shares.length;
}

/** Tokens of a request's byte-identical prefix with the previous request, message by message. */
function prefixTokens(previous: ChatMessage[] | undefined, current: ChatMessage[], count: (m: ChatMessage) => number): { cached: number; rewrote: boolean } {
  if (!previous) return { cached: 0, rewrote: false };
  let cached = 0;
  let i = 0;
  for (; i < Math.min(previous.length, current.length); i++) {
    if (JSON.stringify(previous[i]) !== JSON.stringify(current[i])) break;
    cached += count(current[i]!);
  }
  return { cached, rewrote: i < previous.length };
}

/** Runs the real agent loop over the 40-turn script with a prompt budget, a low-water share and (optionally) a kept-opening share. */
export async function measurePolicy(maxInputTokens: number, contextLowWater: number, contextKeepHead?: number): Promise<CacheFigures> {
  const script = longTaskScript();
  const model = new ScriptedModel((_request, index) => script[index]?.response ?? { text: 'done' });
  const events = new EventStream('bench-cache');
  events.subscribe(() => {});
  const result = await runAgent({
    task: 'The invoice totals are rounded wrongly in several modules; find out why, fix it and make the tests pass.',
    model, tools: longTaskTools(script, () => model.calls - 1), workspace: stubWorkspace(), commands: stubCommandRunner(),
    approver: recordingApprover(), asker: scriptedAsker(), logger: silentLogger, clock: systemClock, events,
    signal: new AbortController().signal,
    // Eliding policies only: compaction (a separate mechanism) would change the transcript.
    limits: { maxTurns: 100, maxInputTokens, maxToolResultTokens: 6_000, contextLowWater, ...(contextKeepHead === undefined ? {} : { contextKeepHead }), autoCompact: false },
  });
  if (result.outcome !== 'finished') throw new Error(`bench run ended ${result.outcome}: ${result.reason}`);
  const cache = new WeakMap<ChatMessage, number>();
  const count = (m: ChatMessage) => cache.get(m) ?? (cache.set(m, countMessageTokens(o200kCounter, m)), cache.get(m)!);
  const toolTokens = o200kCounter.count(JSON.stringify(model.requests[0]!.tools));
  return figures(model.requests, toolTokens, count);
}

function figures(requests: ModelRequest[], toolTokens: number, count: (m: ChatMessage) => number): CacheFigures {
  let promptTokens = 0;
  let cachedTokens = 0;
  let shares = 0;
  let rewrites = 0;
  const perRequest: CacheFigures['perRequest'] = [];
  let previous: ChatMessage[] | undefined;
  for (const request of requests) {
    const prompt = toolTokens + request.messages.reduce((sum, m) => sum + count(m), 0);
    const prefix = prefixTokens(previous, request.messages, count);
    // The tool schemas are sent before the messages and never change: part of the cached prefix.
    const cached = previous ? toolTokens + prefix.cached : 0;
    if (prefix.rewrote) rewrites++;
    promptTokens += prompt;
    cachedTokens += cached;
    shares += cached / prompt;
    perRequest.push({ prompt, uncached: prompt - cached });
    previous = request.messages;
  }
  return {
    requests: requests.length,
    promptTokens,
    cachedTokens,
    meanCachedShare: shares / requests.length,
    effective: promptTokens - cachedTokens + 0.1 * cachedTokens,
    rewrites,
    perRequest,
  };
}

/** The three policies at one budget: the previous one (elide oldest first until it just fits), batched (low water 0.5, the default opening kept), never elide. */
export async function benchContextCache(budget: number): Promise<{ today: CacheFigures; batched: CacheFigures; never: CacheFigures }> {
  return {
    today: await measurePolicy(budget, 1, 0),
    batched: await measurePolicy(budget, 0.5),
    never: await measurePolicy(100_000_000, 0.5),
  };
}

/** Prints acceptance 1 of issue 14: the 40-turn task at budgets 20k and 50k, three policies side by side. */
export async function printContextCache(): Promise<void> {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const k = (x: number) => `${(x / 1000).toFixed(0)}k`.padStart(6);
  console.log('\n# Cache-stable context: scripted 40-turn task (real agent loop; cost = uncached + 0.1 x cached prefix)');
  console.log('budget  policy                          prompt  cached prefix: mean per request / share of tokens  effective  rewrites');
  for (const budget of [20_000, 50_000]) {
    const r = await benchContextCache(budget);
    const rows: Array<[string, CacheFigures]> = [['today: elide until it just fits', r.today], ['batched: elide to half, append', r.batched], ['never elide', r.never]];
    for (const [name, f] of rows) {
      console.log(`${k(budget)}  ${name.padEnd(31)} ${k(f.promptTokens)}  ${pct(f.meanCachedShare).padStart(6)} / ${pct(f.cachedTokens / f.promptTokens).padStart(6)}${' '.repeat(34)}${k(f.effective)}  ${f.rewrites}`);
    }
    const vsToday = r.batched.effective / r.today.effective;
    const vsNever = r.batched.effective / r.never.effective;
    console.log(
      `        batched / today ${vsToday.toFixed(2)}x (target <= 0.6: ${vsToday <= 0.6 ? 'OK' : 'OVER TARGET'}); ` +
        `batched / never elide ${vsNever.toFixed(2)}x (target <= 1: ${vsNever <= 1 ? 'OK' : 'OVER TARGET'}); ` +
        `mean cached prefix ${pct(r.batched.meanCachedShare)} (target >= 85%: ${r.batched.meanCachedShare >= 0.85 ? 'OK' : 'UNDER TARGET'}; ` +
        `ceiling for any eliding policy at this budget ${pct(cachedShareCeiling(r.never, budget))})`,
    );
  }
  console.log('"today" is the same loop with contextLowWater = 1 and contextKeepHead = 0 (elide oldest first, only until the prompt fits, as before batching).');
}
