import type { AgentEvent, CostFigures, Usage } from '../../shared/events';
import type { ModelPrice } from '../model/modelCatalog';
import { CancelledError } from '../errors';
import { addUsage, ZERO_USAGE } from '../loop/usage';

/** Weight of a prompt token served from the provider's cache in effective tokens (providers bill them at 10-50%). */
export const CACHED_WEIGHT = 0.1;

/** Weight of a prompt token written to the provider's cache (Anthropic bills 5-minute cache writes at 1.25x the input price). */
export const CACHE_WRITE_WEIGHT = 1.25;

/** A call's prompt split by how it is billed: cache reads, cache writes, the rest (never negative). */
function promptParts(usage: Usage): { read: number; written: number; plain: number } {
  const read = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - read);
  return { read, written, plain: usage.promptTokens - read - written };
}

/** What a call costs in effective tokens: uncached prompt + 0.1 x cached prompt + 1.25 x cache writes + completion. */
export function effectiveTokens(usage: Usage): number {
  const { read, written, plain } = promptParts(usage);
  return plain + CACHED_WEIGHT * read + CACHE_WRITE_WEIGHT * written + usage.completionTokens;
}

/** What a call costs in US dollars at `price` (per million tokens); cache writes at `price.cacheWrite`, else 1.25x input. */
export function costUsd(usage: Usage, price: ModelPrice): number {
  const { read, written, plain } = promptParts(usage);
  const write = price.cacheWrite ?? price.input * CACHE_WRITE_WEIGHT;
  return (plain * price.input + read * price.cachedInput + written * write + usage.completionTokens * price.output) / 1_000_000;
}

/** Optional money side of a budget. */
export interface BudgetMoney {
  /** Price of the task's model; without it no cost is shown or limited. */
  price?: ModelPrice;
  /** Stop the task once it cost more than this many US dollars. */
  limitUsd?: number;
}

/**
 * The budget of a whole task, in effective tokens (what users pay: cached prompt tokens at the
 * discount) and optionally in money: sums the usage of every model call and aborts `signal` the
 * moment either sum passes its limit, so a step that is running stops at its next model call or tool.
 */
export class TaskBudget {
  private sum: Usage = ZERO_USAGE;
  private effective = 0;
  private cost = 0;
  private readonly controller = new AbortController();
  private readonly listeners = new Set<() => void>();

  /**
   * `limit` in effective tokens; `undefined` or a non-positive number means no limit. `earlier`: what
   * earlier runs of the same task spent (a follow-up, a resume), added to `taskFigures` only.
   */
  constructor(
    readonly limit: number | undefined,
    private readonly money: BudgetMoney = {},
    private readonly earlier?: CostFigures,
  ) {}

  /** Aborted once the budget is exceeded. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Tokens used so far. */
  get usage(): Usage {
    return this.sum;
  }

  /** Effective tokens used so far (unrounded). */
  get spent(): number {
    return this.effective;
  }

  /** Effective tokens left before the token limit; `Infinity` without one. */
  get remaining(): number {
    return this.limit !== undefined && this.limit > 0 ? Math.max(0, this.limit - this.effective) : Infinity;
  }

  /** Calls `listener` after every `add` (a step watching its own share); returns the unsubscribe. */
  onAdd(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get exceeded(): boolean {
    return this.controller.signal.aborted;
  }

  /** Effective tokens and money so far (money only when the model has a price). */
  figures(): CostFigures {
    const figures: CostFigures = { effectiveTokens: Math.round(this.effective) };
    if (this.money.price) figures.costUsd = this.cost;
    return figures;
  }

  /** The task's figures: this run's plus what its earlier runs spent. */
  taskFigures(): CostFigures {
    return this.earlier ? addFigures(this.earlier, this.figures()) : this.figures();
  }

  /** Adds one call's usage; aborts `signal` when a sum goes over its limit. */
  add(usage: Usage): void {
    this.sum = addUsage(this.sum, usage);
    this.effective += effectiveTokens(usage);
    if (this.money.price) this.cost += costUsd(usage, this.money.price);
    if (!this.exceeded) this.checkLimits();
    for (const listener of [...this.listeners]) listener();
  }

  private checkLimits(): void {
    const overTokens = this.limit !== undefined && this.limit > 0 && this.effective > this.limit;
    const overMoney = this.money.limitUsd !== undefined && this.money.limitUsd > 0 && this.money.price !== undefined && this.cost > this.money.limitUsd;
    // The stop's words reach the call in flight ("stopped: …"), not "cancelled by the user".
    if (overTokens || overMoney) this.controller.abort(new CancelledError(`stopped: ${this.reason()}`));
  }

  /** The sentence shown when the budget stops a task. */
  reason(): string {
    if (this.money.limitUsd && this.money.price && this.cost > this.money.limitUsd) {
      return `The task cost $${this.cost.toFixed(4)}, over its budget of $${this.money.limitUsd}; stopped.`;
    }
    const cached = this.sum.cachedTokens ? ` (${this.sum.cachedTokens} cached prompt tokens counted at ${CACHED_WEIGHT})` : '';
    return `The task used ${Math.round(this.effective)} tokens${cached}, over its budget of ${this.limit} tokens; stopped.`;
  }
}

/**
 * What the runs of a stored task spent in all (`undefined` when no call was counted). Each run
 * (from one `run_started` to the next) ends with its own figures (`cost`) and, since follow-ups carry
 * the task's figures, with the task's (`task`, which already holds every run before it); histories
 * recorded before `task` existed are summed run by run.
 */
export function spentByRuns(events: readonly AgentEvent[]): CostFigures | undefined {
  let done: CostFigures | undefined;
  let run: { own: CostFigures; task?: CostFigures } | undefined;
  const close = (): void => {
    if (run) done = run.task ?? addFigures(done, run.own);
    run = undefined;
  };
  for (const event of events) {
    if (event.type === 'run_started') close();
    else if (event.type === 'usage') run = { own: event.cost ?? { effectiveTokens: Math.round(effectiveTokens(event.total)) }, ...(event.task ? { task: event.task } : {}) };
  }
  close();
  return done;
}

function addFigures(a: CostFigures | undefined, b: CostFigures): CostFigures {
  if (!a) return b;
  const sum: CostFigures = { effectiveTokens: a.effectiveTokens + b.effectiveTokens };
  if (a.costUsd !== undefined || b.costUsd !== undefined) sum.costUsd = (a.costUsd ?? 0) + (b.costUsd ?? 0);
  return sum;
}

/** Figures in plain English, for the CLI and exports: "3,300 effective tokens · $0.0042" (money only with a price). */
export function figuresWords(f: CostFigures): string {
  const money = f.costUsd !== undefined ? ` · $${f.costUsd.toFixed(f.costUsd < 1 ? 4 : 2)}` : '';
  return `${Math.round(f.effectiveTokens).toLocaleString('en-US')} effective tokens${money}`;
}
