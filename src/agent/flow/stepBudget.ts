import type { AgentEvent } from '../../shared/events';
import type { AnyTool } from '../tools/tool';
import { ToolRegistry } from '../tools/toolRegistry';
import type { TaskBudget } from './taskBudget';

/** The planner's size words in effective tokens (as the task budget counts them). */
export const ESTIMATE_TOKENS: Readonly<Record<string, number>> = { small: 40_000, medium: 120_000, large: 300_000 };

/** Numbers below this are not token estimates (a model writing "3" means something else). */
export const MIN_ESTIMATE_TOKENS = 1_000;

/** Share of a step's budget after which its agent is told, once, to wrap up. */
export const WRAP_UP_SHARE = 0.8;

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
 * notice and aborts `signal`, which ends the step (not completed). `close` stops watching.
 */
export class StepBudget {
  private readonly start: number;
  private readonly controller = new AbortController();
  private readonly unsubscribe: () => void;
  private noteDue = false;
  private warned = false;

  constructor(
    readonly limit: number,
    private readonly task: TaskBudget,
    private readonly emit: (event: AgentEvent) => void,
  ) {
    this.start = task.spent;
    this.unsubscribe = task.onAdd(() => this.check());
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
      this.controller.abort();
      return;
    }
    if (!this.warned && this.used >= WRAP_UP_SHARE * this.limit) {
      this.warned = true;
      this.noteDue = true;
      const message = `The step used ${Math.round(this.used)} of its ${this.limit} tokens; the agent was asked to wrap up.`;
      this.emit({ type: 'notice', level: 'info', code: 'other', message });
    }
  }
}
