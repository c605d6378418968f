import { IMAGES_SECTION, withAttachedSection } from '../../shared/attachedContext';
import { REPLAN_KINDS, type AgentEvent, type Usage } from '../../shared/events';
import { Plan, StepRole, type PlanStep } from '../../shared/plan';
import { addUsage, ZERO_USAGE } from '../loop/usage';
import { ChangeTracker } from './changeTracker';
import type { FlowState } from './flowState';
import { detectLanguage } from './language';

/** A planned task as its events tell it. */
export interface StoredPlan {
  state: FlowState;
  /** Events of each step's agent runs (between its step_started and step_finished), by step id, oldest first. */
  stepEvents: Map<string, AgentEvent[]>;
}

const role = (value: string): PlanStep['role'] => (StepRole.safeParse(value).success ? (value as PlanStep['role']) : 'coder');

/** The task of the last run before the plan, with its images' description when it had images (see readTaskImages.ts). */
function taskOf(events: readonly AgentEvent[]): string | undefined {
  const at = events.findLastIndex((e) => e.type === 'run_started');
  if (at < 0) return undefined;
  const started = events[at] as Extract<AgentEvent, { type: 'run_started' }>;
  const images = events.slice(at + 1).find((e) => e.type === 'task_images') as Extract<AgentEvent, { type: 'task_images' }> | undefined;
  return images ? withAttachedSection(started.task, IMAGES_SECTION, images.section) : started.task;
}

/**
 * Rebuilds a planned task's state from its events (a task's whole history, resumed runs included):
 * the plan of the last `plan_created` with every later update, step start and result applied; step
 * notes; changed files; usage. `undefined` when no plan was made (a direct task). The events are
 * the one record both shells keep, so resume needs no other file.
 */
export function flowStateFromEvents(events: readonly AgentEvent[]): StoredPlan | undefined {
  const start = events.findLastIndex((e) => e.type === 'plan_created');
  if (start < 0) return undefined;
  const created = events[start] as Extract<AgentEvent, { type: 'plan_created' }>;
  const task = taskOf(events.slice(0, start)) ?? created.goal;
  let steps: PlanStep[] = created.steps.map((s) => ({ ...s, role: role(s.role) }));
  const notes: Record<string, string> = {};
  const skippedBy: NonNullable<FlowState['skippedBy']> = {};
  const stepEvents = new Map<string, AgentEvent[]>();
  const tracker = new ChangeTracker();
  let replans = 0;
  let current: string | undefined;
  for (const event of events) tracker.observe(event);
  const usage = usageOfRuns(events);
  for (const event of events.slice(start + 1)) {
    switch (event.type) {
      case 'plan_updated': {
        const before = new Map(steps.map((s) => [s.id, s.status]));
        steps = event.steps.map((s) => ({ ...s, role: role(s.role) }));
        const by = SKIPPED_BY[event.change?.kind ?? ''];
        for (const s of steps) if (by && s.status === 'skipped' && before.get(s.id) !== 'skipped') skippedBy[s.id] = by;
        // Older histories have no `change`: their re-plans (and skips) said "plan updated:".
        if (event.change ? REPLAN_KINDS.has(event.change.kind) : event.reason.startsWith('plan updated:')) replans++;
        break;
      }
      case 'step_started':
        current = event.stepId;
        steps = steps.map((s) => (s.id === event.stepId ? { ...s, status: 'in_progress' } : s));
        break;
      case 'step_finished':
        steps = steps.map((s) => (s.id === event.stepId ? { ...s, status: event.status } : s));
        notes[event.stepId] = event.summary;
        current = undefined;
        break;
      default:
        if (current !== undefined && (event.type === 'assistant_message' || event.type === 'tool_result')) {
          stepEvents.set(current, [...(stepEvents.get(current) ?? []), event]);
        }
    }
  }
  const plan = Plan.parse({ goal: created.goal, thought: created.thought, steps });
  return { state: { v: 1, task, language: detectLanguage(task), plan, notes, replans, changedFiles: tracker.files(), usage, skippedBy }, stepEvents };
}

/** Who skipped a step, told by the kind of plan change that skipped it. */
const SKIPPED_BY: Record<string, 'updater' | 'user' | 'split' | undefined> = { skipped: 'updater', edited: 'user', split: 'split' };

/** Tokens of every run of a history: each run's last running total, summed. */
function usageOfRuns(events: readonly AgentEvent[]): Usage {
  let done: Usage = ZERO_USAGE;
  let run: Usage = ZERO_USAGE;
  for (const event of events) {
    if (event.type === 'run_started') {
      done = addUsage(done, run);
      run = ZERO_USAGE;
    } else if (event.type === 'usage') run = event.total;
  }
  return addUsage(done, run);
}
