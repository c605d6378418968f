import { compactTokens } from '../shared/compactTokens';
import type { AgentEvent, AgentEventOf, CostFigures, EventEnvelope } from '../shared/events';
import { endingWords } from '../agent/tools/backgroundEndings';
import { figuresWords } from '../agent/flow/taskBudget';
import { durationsCli, errorWordsCli, nextActionCli, outcomeWordsCli, planChangeCli } from './cliAdvice';
import { OUTCOME_CLASS, type OutcomeClass } from '../shared/outcomeClass';

/** The last line's mark and colour per outcome class: ✓ green, ◐ yellow, ■ plain, ✗ red. */
const CLASS_LOOK: Record<OutcomeClass, { mark: string; color: string }> = {
  done: { mark: '✓', color: '32' },
  partial: { mark: '◐', color: '33' },
  stopped: { mark: '■', color: '0' },
  failed: { mark: '✗', color: '31' },
};

/** Where the renderer writes; a TTY gets colours. */
export interface RenderTarget {
  write(text: string): void;
  color: boolean;
}

const STATUS_ICON: Record<string, string> = {
  pending: '○', in_progress: '◐', completed: '●', failed: '✗', blocked: '⊘', skipped: '–',
};

function preview(text: string, maxLines: number, maxChars = 400): string {
  const lines = text.split('\n');
  let out = lines.slice(0, maxLines).join('\n');
  if (out.length > maxChars) out = out.slice(0, maxChars) + '…';
  if (lines.length > maxLines) out += `\n… (${lines.length - maxLines} more lines)`;
  return out;
}

function compactArgs(args: unknown): string {
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  return text.length > 160 ? text.slice(0, 160) + '…' : text;
}

/** "Cost: 3,300 effective tokens · $0.0042", and this run's share when earlier runs of the task count too. */
export function costLine(figures: { run?: CostFigures; task?: CostFigures } | undefined): string | undefined {
  const total = figures?.task ?? figures?.run;
  if (!total) return undefined;
  const run = figures?.run;
  const share = run && figures?.task && figures.task.effectiveTokens > run.effectiveTokens ? ` (task so far; this run ${figuresWords(run)})` : '';
  return `Cost: ${figuresWords(total)}${share}`;
}

/**
 * Turns events into readable terminal output: streamed assistant text, tool calls with their
 * output and results, plan progress, and the outcome. Stateful only to keep line breaks tidy.
 */
export class ConsoleRenderer {
  private midLine = false;
  /** Each budgeted step's last `step_usage`, for its finished line (the core's figures, as the views show them). */
  private readonly spend = new Map<string, AgentEventOf<'step_usage'>>();

  constructor(private readonly out: RenderTarget) {}

  /** The run's and the task's figures from the last `usage` event, for the cost line at the end. */
  private figures?: { run?: CostFigures; task?: CostFigures };
  /** Commands by call id, to name a background command when it ends. */
  private readonly commands = new Map<string, string>();
  /** The last error, which the run's reason may name as what ended it. */
  private lastError?: { code: string; message: string };
  /** The last text the model wrote (streamed already): a direct answer's summary is that text, not printed twice. */
  private lastText = '';

  /** A call and its arguments; a command is remembered to name it if it ends in the background. */
  private toolCall(event: AgentEventOf<'tool_call'>): void {
    const command = (event.args as { command?: unknown } | undefined)?.command;
    if (typeof command === 'string') this.commands.set(event.callId, command);
    this.line(this.paint('36', `→ ${event.name} ${compactArgs(event.args)}`));
  }

  /** A command the user left in the background ended after its call returned: say how, failed when it did. */
  private commandEnded(event: AgentEventOf<'command_ended'>): void {
    const failed = !event.stopped && event.exitCode !== 0;
    const command = this.commands.get(event.callId);
    this.line(this.paint(failed ? '31' : '2', `${failed ? '✗' : '■'} background command ${command ? compactArgs(command) : event.callId} ${endingWords(event)}`));
  }

  /** The outcome in words, the summary and reason, what to do next, and the task's cost. */
  private runFinished(event: AgentEventOf<'run_finished'>, runId: string): void {
    // Mark and colour from the outcome's class (src/shared/outcomeClass.ts), never a switch of our own.
    const look = CLASS_LOOK[OUTCOME_CLASS[event.outcome]];
    const ok = OUTCOME_CLASS[event.outcome] === 'done';
    const steps = event.stepsCompleted !== undefined ? `, ${event.stepsCompleted} plan step(s) completed` : '';
    this.line(this.paint(look.color, `${look.mark} ${outcomeWordsCli(event.outcome)} after ${event.turns} turn(s)${steps}${durationsCli(event)}`));
    for (const check of event.failedChecks ?? []) this.line(this.paint('31', `  \`${check.command}\` ${check.exitCode === null ? 'timed out or was killed' : `exited ${check.exitCode}`} after the last change`));
    if (event.summary && event.summary.trim() !== this.lastText.trim()) this.line(event.summary);
    if (event.reason && !ok) this.line(this.paint('31', event.reason));
    // The error that ended the run is the one its reason names; its advice beats the outcome's.
    const ending = this.lastError && event.reason?.includes(this.lastError.message) ? this.lastError.code : undefined;
    const next = ok ? undefined : nextActionCli(event.outcome, ending, runId);
    if (next) this.line(this.paint('33', `Next: ${next}`));
    const cost = costLine(this.figures);
    if (cost) this.line(this.paint('2', cost));
  }

  private paint(code: string, text: string): string {
    return this.out.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  private line(text: string): void {
    if (this.midLine) this.out.write('\n');
    this.out.write(text + '\n');
    this.midLine = false;
  }

  /** Renders one envelope. */
  render(envelope: EventEnvelope): void {
    this.renderEvent(envelope.event, envelope.runId);
  }

  private renderEvent(event: AgentEvent, runId: string): void {
    switch (event.type) {
      case 'run_started':
        this.line(this.paint('2', `Stepwise · ${event.model} · ${event.workspace}`));
        break;
      case 'assistant_message':
        if (event.text.trim()) this.lastText = event.text;
        break;
      case 'text_delta':
        this.out.write(event.text);
        this.midLine = !event.text.endsWith('\n');
        break;
      case 'tool_call':
        this.toolCall(event);
        break;
      case 'command_ended':
        this.commandEnded(event);
        break;
      case 'usage':
        if (event.cost || event.task) this.figures = { run: event.cost, task: event.task };
        break;
      case 'tool_output':
        this.out.write(this.paint('2', event.chunk));
        this.midLine = !event.chunk.endsWith('\n');
        break;
      case 'tool_result': {
        const icon = event.isError ? this.paint('31', '✗') : this.paint('32', '✓');
        this.line(`${icon} ${event.name} (${Math.round(event.durationMs)} ms${event.waitedMs ? `, waited for you ${Math.round(event.waitedMs)} ms` : ''})`);
        const body = preview(event.content, event.isError ? 12 : 4);
        if (body) this.line(this.paint('2', body.replace(/^/gm, '  ')));
        break;
      }
      case 'approval_answered':
        if (!event.approved) this.line(this.paint('33', `  not approved${event.reason ? `: ${event.reason}` : ''}`));
        break;
      case 'question_asked':
        this.line(`? ${event.question}`);
        break;
      case 'notice':
        this.line(this.paint('33', `! ${event.message}`));
        break;
      case 'error':
        this.lastError = { code: event.code, message: event.message };
        this.line(this.paint('31', `✗ ${errorWordsCli(event.code)}: ${event.message}`));
        break;
      case 'plan_created':
      case 'plan_updated':
        this.plan(event);
        break;
      case 'step_started':
        this.spend.delete(event.stepId);
        this.line(this.paint('1', `▶ step ${event.stepId}`));
        break;
      case 'step_usage':
        if (!this.spend.has(event.stepId)) this.line(this.paint('2', `  step budget: ${compactTokens(event.budget)} tokens`));
        this.spend.set(event.stepId, event);
        break;
      case 'step_finished':
        this.line(`${STATUS_ICON[event.status] ?? '?'} step ${event.stepId} ${event.status}${this.spendNote(event)}: ${preview(event.summary, 3)}`);
        break;
      case 'report':
        this.line(this.paint('1', `Report${event.path ? ` saved to ${event.path}` : ''}`));
        break;
      case 'run_finished':
        this.runFinished(event, runId);
        break;
      case 'delegate_started':
      case 'delegate_finished':
        this.delegate(event);
        break;
      case 'rules_loaded':
        this.line(this.paint('2', `Rules: ${event.files.map((f) => f.path + (f.truncated ? ' (cut)' : '')).join(', ')}`));
        break;
      case 'compaction_finished':
        this.line(this.paint('33', `! Context compacted: ${event.summarizedMessages} older messages summarized (${event.tokensBefore} → ${event.tokensAfter} tokens)`));
        break;
      default:
        this.renderRest(event);
    }
  }

  /** The plan as made or changed: one line per step, a custom role's name in place of its built-in role. */
  private plan(event: AgentEventOf<'plan_created' | 'plan_updated'>): void {
    this.line(this.paint('1', event.type === 'plan_created' ? `Plan: ${event.goal}` : planChangeCli(event)));
    for (const step of event.steps) {
      const estimate = step.estimate === undefined ? '' : this.paint('2', `  ≈${compactTokens(step.estimate)} tokens`);
      this.line(`  ${STATUS_ICON[step.status] ?? '?'} ${step.id}. [${step.agent ?? step.role}] ${step.title}${estimate}`);
    }
  }

  /** A delegated sub-run's start and end (its own tool calls print between them). */
  private delegate(event: AgentEventOf<'delegate_started' | 'delegate_finished'>): void {
    if (event.type === 'delegate_started') this.line(this.paint('1', `▶ delegated to ${event.role}: ${preview(event.task, 2)}`));
    else this.line(`${event.outcome === 'finished' ? this.paint('32', '✓') : this.paint('31', '✗')} ${event.role} ${event.outcome}: ${preview(event.summary, 3)}`);
  }

  /** The events `renderEvent` leaves: a message the user sent while the task ran, where it was delivered. */
  private renderRest(event: AgentEvent): void {
    if (event.type === 'user_message') this.line(this.paint('36', `» you (while it ran${event.delivered === 'plan' ? ', to the plan updater' : ''}): ${event.text}`));
  }

  /** " (12k / 40k tokens)" for a budgeted step, saying so when its budget ended it; "" for others. */
  private spendNote(event: AgentEventOf<'step_finished'>): string {
    const spend = this.spend.get(event.stepId);
    if (!spend) return '';
    const figures = `${compactTokens(spend.spent)} / ${compactTokens(spend.budget)} tokens`;
    return event.budgetReached ? ` (${figures}, token budget used up)` : ` (${figures})`;
  }
}
