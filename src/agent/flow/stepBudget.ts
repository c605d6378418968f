import type { AgentEvent, StepBudgetLevel } from '../../shared/events';
import { CancelledError } from '../errors';
import type { AnyTool } from '../tools/tool';
import { ToolRegistry } from '../tools/toolRegistry';
import type { TaskBudget } from './taskBudget';

/** The planner's size words in effective tokens (as the task budget counts them). */
export const ESTIMATE_TOKENS: Readonly<Record<string, number>> = { small: 40_000, medium: 120_000, large: 300_000 };

/** Numbers below this are not token estimates (a model writing "3" means something else). */
export const MIN_ESTIMATE_TOKENS = 1_000;

/** Share of a step's budget after which its agent is told, once, to wrap up. */
export const WRAP_UP_SHARE = 0.8;

/** Least growth, as a share of the budget, worth a new `step_usage` event (views need no finer steps). */
export const USAGE_REPORT_SHARE = 0.02;

/** A step's spending as its views last heard it. */
export interface StepSpend {
  spent: number;
  level: StepBudgetLevel;
}

/**
 * Whether `now` is worth telling the views after `last` (the throttle of `step_usage`): always
 * when nothing was told yet or the level changed, else when spending grew by at least
 * `USAGE_REPORT_SHARE` of the budget (and by a whole token). `final` (the step ended) reports any change.
 */
export function usageReportDue(last: StepSpend | undefined, now: StepSpend, limit: number, final = false): boolean {
  if (!last || last.level !== now.level) return true;
  const grown = now.spent - last.spent;
  if (final) return grown !== 0;
  return grown >= Math.max(1, USAGE_REPORT_SHARE * limit);
}

/**
 * A planner's (or updater's) step estimate as effective tokens: `small` / `medium` / `large`
 * (any case) or a token number (or numeric string) of at least `MIN_ESTIMATE_TOKENS`. Anything
 * else, or nothing, is `undefined`: the step runs without a budget of its own.
 */
export function parseEstimate(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (Object.hasOwn(ESTIMATE_TOKENS, word)) return ESTIMATE_TOKENS[word];
    if (!/^\d+$/.test(word)) return undefined;
    value = Number(word);
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < MIN_ESTIMATE_TOKENS) return undefined;
  return Math.round(value);
}

/** A step's own budget: its estimate capped by what remains of the task budget; none without an estimate. */
export function stepTokenBudget(estimate: number | undefined, task: TaskBudget): number | undefined {
  if (estimate === undefined) return undefined;
  return Math.min(estimate, task.remaining);
}

const WRAP_UP_NOTE =
  'Note from Stepwise: this step has used about 80% of its token budget. Wrap up now: call `finish` with what is done and what is left.';

/**
 * Watches one step's share of the task budget: past `WRAP_UP_SHARE` it emits a notice and hands
 * the agent a wrap-up note once (appended to the next tool result); past the limit it emits a
 * notice and aborts `signal`, which ends the step (not completed). It tells the views the step's
 * spending as `step_usage` events (at the start, throttled while it runs, and at `close`, which
 * stops watching).
 */
export class StepBudget {
  private readonly start: number;
  private readonly controller = new AbortController();
  private readonly unsubscribe: () => void;
  private noteDue = false;
  private warned = false;
  private reported: StepSpend | undefined;

  constructor(
    readonly limit: number,
    private readonly task: TaskBudget,
    private readonly emit: (event: AgentEvent) => void,
    private readonly stepId: string,
  ) {
    this.start = task.spent;
    this.unsubscribe = task.onAdd(() => this.check());
    this.report(false);
  }

  /** Effective tokens this step has used. */
  get used(): number {
    return this.task.spent - this.start;
  }

  /** Aborted once the step used more than its budget. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get exceeded(): boolean {
    return this.controller.signal.aborted;
  }

  /** Why the step ended, for its summary and the plan updater. */
  reason(): string {
    return `step budget reached: the step used ${Math.round(this.used)} of its ${this.limit} tokens before finishing`;
  }

  /** `tools` with the wrap-up note appended, once, to the first tool result after it is due (not to `finish`). */
  wrap(tools: ToolRegistry): ToolRegistry {
    return new ToolRegistry(tools.names().map((name) => this.wrapTool(tools.get(name)!)));
  }

  close(): void {
    this.unsubscribe();
    this.report(true);
  }

  /** Sends a `step_usage` event when the views should hear of the step's spending (see `usageReportDue`). */
  private report(final: boolean): void {
    const spent = Math.round(this.used);
    // The level is the core's own verdict (the wrap-up note given, the step stopped), not a recount.
    const now: StepSpend = { spent, level: this.exceeded ? 'over' : this.warned ? 'low' : 'ok' };
    if (!usageReportDue(this.reported, now, this.limit, final)) return;
    this.reported = now;
    this.emit({ type: 'step_usage', stepId: this.stepId, spent, budget: Math.round(this.limit), level: now.level });
  }

  private wrapTool(tool: AnyTool): AnyTool {
    const wrapped = Object.create(tool) as AnyTool;
    wrapped.execute = async (args, context) => {
      const result = await tool.execute(args, context);
      if (!this.noteDue || result.finish) return result;
      this.noteDue = false;
      return { ...result, content: `${result.content}\n\n${WRAP_UP_NOTE}` };
    };
    return wrapped;
  }

  private check(): void {
    if (this.exceeded) return;
    if (this.used > this.limit) {
      this.emit({ type: 'notice', level: 'warning', code: 'step_limit', message: `Stopped the step: ${this.reason()}.` });
      // The stop's words reach the call in flight ("stopped: …"), not "cancelled by the user".
      this.controller.abort(new CancelledError(`stopped: ${this.reason()}`));
      this.report(false);
      return;
    }
    if (!this.warned && this.used >= WRAP_UP_SHARE * this.limit) {
      this.warned = true;
      this.noteDue = true;
      const message = `The step used ${Math.round(this.used)} of its ${this.limit} tokens; the agent was asked to wrap up.`;
      this.emit({ type: 'notice', level: 'info', code: 'other', message });
    }
    this.report(false);
  }
}
