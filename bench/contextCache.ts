import { EventStream } from '../src/agent/events/eventStream';
import { systemClock } from '../src/agent/clock';
import { countMessageTokens, o200kCounter } from '../src/agent/context/tokenCounter';
import { runAgent } from '../src/agent/loop/runAgent';
import { DEFAULT_LIMITS } from '../src/agent/loop/runTypes';
import { toolResultBudget } from '../src/agent/context/toolOutputBudget';
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

/** One context policy: the prompt budget and, where not the product's default, its knobs. */
export interface ContextPolicy {
  maxInputTokens: number;
  contextLowWater?: number;
  contextKeepHead?: number;
  /** Share of the budget one tool output may take (1: the fixed 6,000-token cap of before). */
  toolOutputShare?: number;
  /** The configured per-output cap (default 6,000, the product's). */
  maxToolResultTokens?: number;
  /** The model reads one window of every cut output with read_output before going on (what cutting costs when the model wants more). */
  readCuts?: boolean;
}

const CUT_MARKER = /read_output \{"call_id": ("[^"]+"), "start_line": (\d+)\}/;

/**
 * The script as a model: the next scripted turn, or (with `readCuts`) first one read_output call
 * for the window a cut output left out. `step()` is the scripted turn whose tools are running.
 */
function scriptModel(script: ReturnType<typeof longTaskScript>, readCuts: boolean): { model: ScriptedModel; step: () => number } {
  let next = 0;
  const model = new ScriptedModel((request) => {
    const last = request.messages.at(-1);
    const cut = readCuts && last?.role === 'tool' && last.name !== 'read_output' ? CUT_MARKER.exec(last.content) : null;
    if (cut) return { toolCalls: [{ name: 'read_output', arguments: { call_id: JSON.parse(cut[1]!) as string, start_line: Number(cut[2]) } }] };
    return script[next++]?.response ?? { text: 'done' };
  });
  return { model, step: () => next - 1 };
}

/** Runs the real agent loop over the 40-turn script under one context policy. */
export async function measurePolicy(policy: ContextPolicy): Promise<CacheFigures> {
  const { maxInputTokens, maxToolResultTokens = DEFAULT_LIMITS.maxToolResultTokens, readCuts = false, ...knobs } = policy;
  const script = longTaskScript();
  const { model, step } = scriptModel(script, readCuts);
  const events = new EventStream('bench-cache');
  events.subscribe(() => {});
  const result = await runAgent({
    task: 'The invoice totals are rounded wrongly in several modules; find out why, fix it and make the tests pass.',
    model, tools: longTaskTools(script, step), workspace: stubWorkspace(), commands: stubCommandRunner(),
    approver: recordingApprover(), asker: scriptedAsker(), logger: silentLogger, clock: systemClock, events,
    signal: new AbortController().signal,
    // Eliding policies only: compaction (a separate mechanism) would change the transcript.
    limits: { maxTurns: 100, maxInputTokens, maxToolResultTokens, ...knobs, autoCompact: false },
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

/** The policies compared at one budget. */
export interface PolicyFigures {
  /** Before issue 14: elide oldest first only until the prompt fits; a fixed 6,000-token output cap. */
  today: CacheFigures;
  /** The product's defaults: batched eliding to half with a kept opening, outputs capped at a twentieth of the budget. */
  batched: CacheFigures;
  /** Never elide (unbounded budget, so the 6,000-token output cap). */
  never: CacheFigures;
  /** Never elide, with the same output cap as `batched`: what eliding alone costs or saves. */
  neverSameCap: CacheFigures;
  /** `batched`, with the model reading one window of every cut output (one more turn each). */
  batchedReadingCuts: CacheFigures;
}

/** The four policies at one budget, each over the same scripted transcript. */
export async function benchContextCache(budget: number): Promise<PolicyFigures> {
  const unbounded = 100_000_000;
  return {
    today: await measurePolicy({ maxInputTokens: budget, contextLowWater: 1, contextKeepHead: 0, toolOutputShare: 1 }),
    batched: await measurePolicy({ maxInputTokens: budget }),
    never: await measurePolicy({ maxInputTokens: unbounded }),
    neverSameCap: await measurePolicy({ maxInputTokens: unbounded, maxToolResultTokens: toolResultBudget(DEFAULT_LIMITS.maxToolResultTokens, budget) }),
    batchedReadingCuts: await measurePolicy({ maxInputTokens: budget, readCuts: true }),
  };
}

/** Prints acceptance 1 of issue 14: the 40-turn task at budgets 20k and 50k, the policies side by side. */
export async function printContextCache(): Promise<void> {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const k = (x: number) => `${(x / 1000).toFixed(0)}k`.padStart(6);
  const verdict = (ok: boolean, miss: string) => (ok ? 'OK' : miss);
  console.log('\n# Cache-stable context: scripted 40-turn task (real agent loop; cost = uncached + 0.1 x cached prefix)');
  console.log('budget  policy                                   prompt  cached prefix: mean per request / share of tokens  effective  rewrites');
  for (const budget of [20_000, 50_000]) {
    const r = await benchContextCache(budget);
    const rows: Array<[string, CacheFigures]> = [
      ['today: elide until it fits, 6k outputs', r.today],
      ['batched (defaults): elide to half', r.batched],
      ['never elide (6k outputs)', r.never],
      ['never elide, same output cap', r.neverSameCap],
      ['batched, model reads each cut output', r.batchedReadingCuts],
    ];
    for (const [name, f] of rows) {
      console.log(`${k(budget)}  ${name.padEnd(40)} ${k(f.promptTokens)}  ${pct(f.meanCachedShare).padStart(6)} / ${pct(f.cachedTokens / f.promptTokens).padStart(6)}${' '.repeat(34)}${k(f.effective)}  ${f.rewrites}`);
    }
    const vsToday = r.batched.effective / r.today.effective;
    const vsNever = r.batched.effective / r.never.effective;
    const vsSameCap = r.batched.effective / r.neverSameCap.effective;
    const mean = r.batched.meanCachedShare;
    const share = r.batched.cachedTokens / r.batched.promptTokens;
    console.log(
      `        output cap ${toolResultBudget(DEFAULT_LIMITS.maxToolResultTokens, budget)} tokens; batched / today ${vsToday.toFixed(2)}x (target <= 0.6: ${verdict(vsToday <= 0.6, 'OVER TARGET')}); ` +
        `batched / never elide ${vsNever.toFixed(2)}x, / never elide with the same cap ${vsSameCap.toFixed(2)}x (target <= 1: ${verdict(Math.max(vsNever, vsSameCap) <= 1, 'OVER TARGET')})`,
    );
    console.log(
      `        if the model reads one window of every cut output (${r.batchedReadingCuts.requests - r.batched.requests} more requests): ` +
        `${(r.batchedReadingCuts.effective / r.today.effective).toFixed(2)}x today, ${(r.batchedReadingCuts.effective / r.never.effective).toFixed(2)}x never elide`,
    );
    console.log(
      `        mean cached prefix ${pct(mean)} per request, ${pct(share)} of tokens (target >= 85%: ${verdict(Math.min(mean, share) >= 0.85, 'UNDER TARGET')}; ` +
        `ceiling for any eliding policy with this output cap ${pct(cachedShareCeiling(r.neverSameCap, budget))} per request)`,
    );
  }
  console.log('"today" is the same loop with contextLowWater = 1, contextKeepHead = 0 and toolOutputShare = 1 (elide oldest first, only until the prompt fits, 6,000-token outputs: before issue 14).');
  console.log('Cut outputs are kept whole for the task and read back with read_output, so the lower cap loses nothing the model can ask for.');
}
