import { errorMessage } from '../errors';
import { outcomeOfStop } from '../ending/decideEnding';
import { stopCauseFromError } from '../ending/stopCause';
import { stopReason, type FlowContext } from './flowContext';
import { cloneState } from './flowState';
import { commit, saveState, type Progress } from './planCommit';
import { applyDecision } from './planState';
import { reviseAfterStep } from './planUpdater';
import { writeReport } from './reporter';
import { runStep } from './stepExecutor';
import { knownStops, taskEnding, type RawEnding } from './taskEnding';
import type { TaskResult } from './taskTypes';
/** The ending of a task that the user or the budget stopped (raw: `settle` decides the task's ending). */
export function stopEnding(ctx: FlowContext, kind: 'budget' | 'cancelled'): RawEnding {
  return kind === 'budget' ? { outcome: 'budget', reason: ctx.budget.reason() } : { outcome: 'cancelled', reason: 'Stopped by the user.' };
}

/**
 * Runs the plan's pending steps in order, with the updater after each (while re-plans are left),
 * then writes the report with the task's ending (decided from the facts by `taskEnding`, as `settle`
 * will), also when the budget ran out or a step failed (not after a Stop, nor a bug, which go to `settle`).
 */
export async function continuePlan(ctx: FlowContext, progress: Progress): Promise<TaskResult> {
  let raw: RawEnding;
  try {
    raw = await executeSteps(ctx, progress);
  } catch (error) {
    const cause = stopCauseFromError(error, knownStops(ctx));
    if (cause.kind === 'user' || cause.kind === 'internal') throw error;
    if (cause.kind === 'provider') ctx.options.events.emit({ type: 'error', code: cause.code ?? 'model', message: errorMessage(error) });
    raw = { outcome: outcomeOfStop(cause), reason: cause.reason };
  }
  saveState(ctx, progress);
  const state = progress.state!;
  const ending = taskEnding(ctx, 'plan', state, raw);
  const base = { route: 'plan' as const, plan: state.plan, reason: ending.reason, outcome: ending.outcome };
  if (ending.outcome === 'cancelled') {
    return { ...base, summary: ending.reason ?? '', usage: ctx.budget.usage, state: cloneState(state) };
  }
  const report = await writeReport(ctx, state, ending);
  saveState(ctx, progress);
  return { ...base, reportPath: report.path, summary: report.summary, usage: ctx.budget.usage, state: cloneState(progress.state!) };
}

async function executeSteps(ctx: FlowContext, progress: Progress): Promise<RawEnding> {
  for (;;) {
    const stop = stopReason(ctx);
    if (stop) return stopEnding(ctx, stop);
    const step = progress.state!.plan.steps.find((s) => s.status === 'pending');
    if (!step) break;
    const run = await runStep(ctx, progress, step.id);
    if (run.outcome === 'cancelled' || run.outcome === 'budget') return stopEnding(ctx, run.outcome);
    if (stopReason(ctx)) continue;
    // The user's messages sent during the step go to the updater now; they may change the plan even past the re-plan limit.
    const messages = takePlanMessages(ctx);
    if (messages.length === 0 && progress.state!.replans >= ctx.limits.maxReplans) {
      if (run.status === 'failed') {
        return { outcome: 'failed', reason: `Step "${step.title}" failed and no re-plans are left (limit ${ctx.limits.maxReplans}): ${run.summary}` };
      }
      continue;
    }
    const current = progress.state!.plan.steps.find((s) => s.id === step.id)!;
    const decision = await reviseAfterStep(ctx, progress.state!, current, run, messages);
    const ending = commit(ctx, progress, applyDecision(progress.state!, step.id, decision));
    if (ending) return ending;
  }
  const failed = progress.state!.plan.steps.find((s) => s.status === 'failed');
  return failed ? { outcome: 'failed', reason: `Step "${failed.title}" failed.` } : { outcome: 'finished' };
}

/** The messages the user sent while the plan ran, each told as delivered to the plan updater. */
function takePlanMessages(ctx: FlowContext): string[] {
  const messages = ctx.options.inbox?.take() ?? [];
  for (const text of messages) ctx.options.events.emit({ type: 'user_message', text, delivered: 'plan' });
  return messages;
}
