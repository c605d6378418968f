import { flowStateFromEvents } from '../agent/flow/flowStateFromEvents';
import type { FlowState } from '../agent/flow/flowState';
import { retryRefusal } from '../agent/flow/runTask';
import type { AgentEvent } from '../shared/events';
import { UsageError } from './cliArgs';

/**
 * The stored plan and the step `--retry-step` names (its number, 1-based, or its id), rebuilt from
 * the task's events as `resume` does; throws `UsageError` for a direct task, an unknown step or one
 * that cannot be retried (the core's own rule, `retryRefusal`).
 */
export function stepToRetry(history: readonly AgentEvent[], which: string): { state: FlowState; stepId: string } {
  const stored = flowStateFromEvents(history);
  if (!stored) throw new UsageError('--retry-step needs a planned task; this one ran without a plan (resume it instead)');
  const steps = stored.state.plan.steps;
  const byNumber = /^\d+$/.test(which) ? steps[Number(which) - 1] : undefined;
  const step = steps.find((s) => s.id === which) ?? byNumber;
  if (!step) throw new UsageError(`--retry-step: the plan has no step "${which}" (it has ${steps.length})`);
  const refusal = retryRefusal(stored.state, step.id);
  if (refusal) throw new UsageError(`--retry-step: ${refusal}`);
  return { state: stored.state, stepId: step.id };
}
