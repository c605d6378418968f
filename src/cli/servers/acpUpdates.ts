import path from 'node:path';
import type { PlanEntry, SessionUpdate, ToolCallContent, ToolKind } from '@agentclientprotocol/sdk';
import type { AgentEvent, AgentEventOf, ApprovalCategory } from '../../shared/events';

/** A plan step as the plan events carry it. */
type PlanStep = AgentEventOf<'plan_created'>['steps'][number];

/** ACP's tool kinds by Stepwise's approval category (the one vocabulary of what a tool does). */
const KIND_OF_CATEGORY: Record<ApprovalCategory, ToolKind> = { read: 'read', edit: 'edit', command: 'execute', mcp: 'other', web: 'fetch' };

/** ACP's tool kind of a Stepwise tool call. */
export function toolKind(category: ApprovalCategory | undefined): ToolKind {
  return category ? KIND_OF_CATEGORY[category] : 'other';
}

/** A short title for a tool call: its name and the path, command or query it acts on. */
export function toolTitle(name: string, args: unknown): string {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const what = [a.path, a.command, a.query, a.url].find((v) => typeof v === 'string') as string | undefined;
  return what ? `${name}: ${what.length > 120 ? what.slice(0, 117) + '…' : what}` : name;
}

/** ACP's plan entry status of a step (ACP knows three; a step that did not complete shows as pending, its status in words). */
function planEntry(step: PlanStep): PlanEntry {
  const status = step.status === 'completed' ? 'completed' : step.status === 'in_progress' ? 'in_progress' : 'pending';
  const note = status === 'pending' && step.status !== 'pending' ? ` (${step.status})` : '';
  return { content: `${step.title}${note}`, priority: 'medium', status };
}

/** A diff as ACP content: the path made absolute against the session's folder. */
export function diffContent(diff: { path: string; before: string; after: string }, cwd: string): ToolCallContent {
  return { type: 'diff', path: path.resolve(cwd, diff.path), oldText: diff.before, newText: diff.after };
}

function text(textValue: string): { type: 'text'; text: string } {
  return { type: 'text', text: textValue };
}

/**
 * Turns Stepwise's events into ACP `session/update`s: message and thought chunks, tool calls with
 * their status and diffs, the plan as plan entries (resent whole on each change, as ACP asks), the
 * final summary. Keeps the plan's steps to apply `step_started` / `step_finished` to.
 */
export class AcpUpdateMapper {
  private steps: PlanStep[] = [];
  constructor(private readonly cwd: string) {}

  /** The updates for one event (none for most). `replay` also shows the task text (a loaded session). */
  updates(event: AgentEvent, replay = false): SessionUpdate[] {
    switch (event.type) {
      case 'run_started':
        return replay ? [{ sessionUpdate: 'user_message_chunk', content: text(event.task) }] : [];
      case 'text_delta':
        // A replay sends each answer whole (from `assistant_message`), not again in pieces.
        return replay ? [] : [{ sessionUpdate: 'agent_message_chunk', content: text(event.text) }];
      case 'assistant_message':
        return [...(event.thinking ? [{ sessionUpdate: 'agent_thought_chunk' as const, content: text(event.thinking) }] : []),
          ...(replay && event.text ? [{ sessionUpdate: 'agent_message_chunk' as const, content: text(event.text) }] : [])];
      case 'tool_call':
        return [{ sessionUpdate: 'tool_call', toolCallId: event.callId, title: toolTitle(event.name, event.args), kind: toolKind(event.category), status: 'pending', rawInput: event.args, ...this.locations(event.args) }];
      case 'approval_requested':
        return event.diff ? [{ sessionUpdate: 'tool_call_update', toolCallId: event.callId, content: [diffContent(event.diff, this.cwd)] }] : [];
      case 'tool_result':
        return [this.toolResult(event)];
      case 'plan_created':
      case 'plan_updated':
        this.steps = event.steps;
        return [this.plan()];
      case 'step_started':
      case 'step_finished':
        return this.stepChanged(event.stepId, event.type === 'step_started' ? 'in_progress' : event.status);
      case 'run_finished':
        return [{ sessionUpdate: 'agent_message_chunk', content: text(finalWords(event)) }];
      default:
        return [];
    }
  }

  /** The file a call acts on, for editors that follow the agent (absolute, as ACP asks). */
  private locations(args: unknown): { locations?: { path: string }[] } {
    const file = args && typeof args === 'object' ? (args as { path?: unknown }).path : undefined;
    return typeof file === 'string' && file ? { locations: [{ path: path.resolve(this.cwd, file) }] } : {};
  }

  private toolResult(event: AgentEventOf<'tool_result'>): SessionUpdate {
    const status = event.isError && !event.stopped ? 'failed' : 'completed';
    return { sessionUpdate: 'tool_call_update', toolCallId: event.callId, status, content: [{ type: 'content', content: text(event.content.slice(0, 20_000)) }] };
  }

  private stepChanged(stepId: string, status: PlanStep['status']): SessionUpdate[] {
    if (!this.steps.some((s) => s.id === stepId)) return [];
    this.steps = this.steps.map((s) => (s.id === stepId ? { ...s, status } : s));
    return [this.plan()];
  }

  private plan(): SessionUpdate {
    return { sessionUpdate: 'plan', entries: this.steps.map(planEntry) };
  }
}

/** The last words of a turn: the summary, and why the task stopped when it did not finish. */
function finalWords(event: AgentEventOf<'run_finished'>): string {
  const summary = event.summary?.trim() ?? '';
  if (event.outcome === 'finished') return `\n\n${summary}`;
  return `\n\n${summary ? summary + '\n\n' : ''}[${event.outcome}]${event.reason ? ' ' + event.reason : ''}`;
}
