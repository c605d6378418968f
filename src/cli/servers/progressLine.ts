import type { AgentEvent } from '../../shared/events';

/** One short line of progress for an event a remote caller cares about, or `undefined` for the rest. */
export function progressLine(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'plan_created':
      return `Plan: ${event.steps.map((s, i) => `${i + 1}. ${s.title}`).join('; ')}`;
    case 'step_started':
      return `Step started: ${event.stepId}`;
    case 'step_finished':
      return `Step ${event.stepId} ${event.status}: ${event.summary}`.slice(0, 500);
    case 'tool_call':
      return `Tool: ${event.name}`;
    case 'approval_answered':
      return event.approved ? undefined : `Denied: ${event.reason ?? event.callId}`.slice(0, 500);
    case 'run_finished':
      return `Finished: ${event.outcome}`;
    default:
      return undefined;
  }
}
