import type { Usage } from '../../shared/events';
import { addUsage } from '../loop/usage';
import type { FlowContext } from './flowContext';
import { cloneState, type FlowState } from './flowState';
import type { Transition } from './flowTypes';
import type { Ending } from './reporter';

/** What a task has got to so far; the state exists once a plan does. */
export interface Progress {
  route: 'direct' | 'plan';
  state?: FlowState;
  /** Usage recorded in the state before this call (a retried task keeps counting). */
  baseUsage: Usage;
}

/**
 * The one place a planned task's state changes: adopts the transition's state, emits its events,
 * then saves (usage and changed files refreshed). Returns the transition's ending, if any.
 */
export function commit(ctx: FlowContext, progress: Progress, transition: Transition): Ending | undefined {
  progress.state = transition.state;
  for (const event of transition.events) ctx.options.events.emit(event);
  saveState(ctx, progress);
  return transition.ending;
}

/** Refreshes the state's usage and changed files and hands a copy to `onState`. */
export function saveState(ctx: FlowContext, progress: Progress): void {
  const state = progress.state;
  if (!state) return;
  state.usage = addUsage(progress.baseUsage, ctx.budget.usage);
  state.changedFiles = ctx.tracker.files();
  try {
    ctx.options.onState?.(cloneState(state));
  } catch (error) {
    ctx.options.logger.error('onState failed', error);
  }
}
