import type { ChatMessage } from '../model/types';
import type { Plan, PlanStep } from '../../shared/plan';
import type { FlowState } from './flowState';

/** Cap on a step's carried summary: one paragraph, not a transcript. */
export const MAX_NOTE_CHARS = 1_500;

/** A step's summary cut to one paragraph's size. */
export function clipNote(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= MAX_NOTE_CHARS ? trimmed : `${trimmed.slice(0, MAX_NOTE_CHARS - 1)}…`;
}

/** The plan as a numbered list with statuses; done steps carry their summary, `current` is marked. */
export function renderPlan(plan: Plan, notes: Record<string, string>, current?: string): string {
  const lines = [`Goal: ${plan.goal}`];
  plan.steps.forEach((step, index) => {
    const mark = step.id === current ? '  <- current step' : '';
    lines.push(`${index + 1}. [${step.status}] (${step.agent ?? step.role}) ${step.title} {id: ${step.id}}${mark}`);
    const note = notes[step.id];
    if (note && step.id !== current) lines.push(`   Summary: ${note.replace(/\n+/g, ' ')}`);
  });
  return lines.join('\n');
}

/** The pinned context of a step: the user's task and the plan with statuses and summaries. Nothing else. */
export function stepContext(state: FlowState, step: PlanStep): ChatMessage[] {
  return [
    {
      role: 'user',
      content: `# The user's task\n${state.task}\n\n# The team's plan\n${renderPlan(state.plan, state.notes, step.id)}`,
    },
  ];
}

/** The task text of a step's agent: the current step only. */
export function stepTask(state: FlowState, step: PlanStep): string {
  const position = state.plan.steps.findIndex((s) => s.id === step.id) + 1;
  return [
    `# Your step (${position} of ${state.plan.steps.length}): ${step.title}`,
    step.description,
    '',
    'Do this step only, then call `finish` with a one-paragraph summary of what you did and found.',
  ].join('\n');
}
