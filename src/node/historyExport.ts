import type { AgentEventOf, EventEnvelope } from '../shared/events';
import { figuresWords, spentByRuns } from '../agent/flow/taskBudget';
import { endingWords } from '../agent/tools/backgroundEndings';

/** The formats a stored run can be exported in. */
export type HistoryExportFormat = 'markdown' | 'json';

/** One command the run ran and how it ended. */
interface CommandLine {
  command: string;
  ending: string;
}

/** A fence longer than any run of backticks in `text`, so model output cannot close it early. */
function fence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** `text` as inline code that survives backticks inside it. */
function inlineCode(text: string): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ').trim();
  const longest = Math.max(0, ...[...oneLine.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${longest > 0 ? ' ' : ''}${oneLine}${longest > 0 ? ' ' : ''}${ticks}`;
}

function commandOf(event: AgentEventOf<'tool_call'>): string | undefined {
  const args = event.args as { command?: unknown } | undefined;
  return event.name === 'run_command' && args && typeof args.command === 'string' ? args.command : undefined;
}

/** How a command ended, in words: "exit code 1", "stopped", "rejected", "no result". */
function endingOf(result: AgentEventOf<'tool_result'> | undefined, rejected: boolean, later?: AgentEventOf<'command_ended'>): string {
  if (rejected) return 'rejected';
  if (!result) return 'no result (interrupted)';
  if (result.background) return later ? `went to the background, then ${endingWords(later)}` : 'left running in the background';
  if (result.stopped) return 'stopped';
  if (result.exitCode !== undefined && result.exitCode !== null) return `exit code ${result.exitCode}`;
  if (result.exitCode === null) return 'killed';
  return result.isError ? 'error' : 'done';
}

/** Everything the markdown needs, gathered in one pass over the events. */
interface Gathered {
  task: string;
  started?: number;
  model?: string;
  goal?: string;
  steps: Map<string, { title: string; description: string; status: string; summary?: string }>;
  commands: CommandLine[];
  finished?: AgentEventOf<'run_finished'>;
  answer?: string;
  report?: string;
  /** Messages the user sent while the task ran, where each was delivered. */
  messages: Array<{ text: string; delivered: 'turn' | 'plan' }>;
}

function gather(envelopes: readonly EventEnvelope[]): Gathered {
  const out: Gathered = { task: '', steps: new Map(), commands: [], messages: [] };
  const calls = new Map<string, string>();
  const results = new Map<string, AgentEventOf<'tool_result'>>();
  const rejected = new Set<string>();
  const ended = new Map<string, AgentEventOf<'command_ended'>>();
  for (const { event, ts } of envelopes) {
    switch (event.type) {
      case 'run_started':
        if (out.started === undefined) Object.assign(out, { task: event.task, started: ts, model: event.model });
        break;
      case 'plan_created':
      case 'plan_updated':
        if (event.type === 'plan_created') out.goal = event.goal;
        for (const step of event.steps) out.steps.set(step.id, { ...out.steps.get(step.id), title: step.title, description: step.description, status: step.status });
        break;
      case 'step_finished': {
        const step = out.steps.get(event.stepId);
        if (step) Object.assign(step, { status: event.status, summary: event.summary });
        break;
      }
      case 'tool_call': {
        const command = commandOf(event);
        if (command !== undefined) calls.set(event.callId, command);
        break;
      }
      case 'tool_result': results.set(event.callId, event); break;
      case 'approval_answered': if (!event.approved) rejected.add(event.callId); break;
      case 'assistant_message': if (event.text.trim()) out.answer = event.text; break;
      case 'report': out.report = event.markdown; break;
      case 'command_ended': ended.set(event.callId, event); break;
      case 'user_message': out.messages.push({ text: event.text, delivered: event.delivered }); break;
      case 'run_finished': out.finished = event; break;
      default: break;
    }
  }
  for (const [callId, command] of calls) out.commands.push({ command, ending: endingOf(results.get(callId), rejected.has(callId), ended.get(callId)) });
  return out;
}

/**
 * A stored run as a markdown document a person can read and share: the task, the plan with each
 * step's status and summary, every command with how it ended (exit code), and the outcome with the
 * final answer or the report. Model text is quoted in fences so it cannot change the document's
 * structure.
 */
export function historyMarkdown(envelopes: readonly EventEnvelope[]): string {
  const g = gather(envelopes);
  const lines: string[] = ['# Stepwise task', ''];
  const block = (text: string) => {
    const f = fence(text);
    lines.push(`${f}text`, text.trimEnd(), f, '');
  };
  block(g.task || '(no task)');
  if (g.started !== undefined) lines.push(`- Started: ${new Date(g.started).toISOString()}`);
  if (g.model) lines.push(`- Model: ${inlineCode(g.model)}`);
  lines.push(`- Outcome: ${g.finished ? g.finished.outcome : 'running or interrupted'}`);
  const spent = spentByRuns(envelopes.map((e) => e.event));
  if (spent) lines.push(`- Cost: ${figuresWords(spent)}`);
  lines.push('');
  for (const message of g.messages) {
    lines.push(`Sent while it ran (${message.delivered === 'plan' ? 'to the plan updater' : 'at a turn'}):`, '');
    block(message.text);
  }
  if (g.steps.size > 0) {
    lines.push('## Plan', '');
    if (g.goal) lines.push(`Goal: ${g.goal.replace(/\s+/g, ' ').trim()}`, '');
    let n = 0;
    for (const step of g.steps.values()) {
      lines.push(`### ${++n}. ${step.title.replace(/\s+/g, ' ').trim()} (${step.status})`, '');
      if (step.description.trim()) lines.push(step.description.trim(), '');
      if (step.summary?.trim()) {
        lines.push('Summary:', '');
        block(step.summary);
      }
    }
  }
  if (g.commands.length > 0) {
    lines.push('## Commands', '');
    for (const c of g.commands) lines.push(`- ${inlineCode(c.command)} — ${c.ending}`);
    lines.push('');
  }
  lines.push('## Result', '');
  if (g.finished?.reason) lines.push(`Reason: ${g.finished.reason.replace(/\s+/g, ' ').trim()}`, '');
  const final = g.report ?? g.finished?.summary ?? g.answer;
  if (final?.trim()) {
    if (g.report) lines.push('Report:', '');
    block(final);
  } else {
    lines.push('(no final answer)', '');
  }
  return lines.join('\n');
}

/** The stored events as one JSON document (an array of envelopes, exactly as stored). */
export function historyJson(envelopes: readonly EventEnvelope[]): string {
  return JSON.stringify(envelopes, null, 2) + '\n';
}

/** The export of a run in `format`. */
export function renderHistoryExport(envelopes: readonly EventEnvelope[], format: HistoryExportFormat): string {
  return format === 'json' ? historyJson(envelopes) : historyMarkdown(envelopes);
}
