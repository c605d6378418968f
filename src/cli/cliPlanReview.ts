import type { Plan } from '../shared/plan';
import type { Prompter } from './prompter';

/** What a review answer asks for: run the plan, cancel, skip some steps (1-based), or nothing understood. */
export type ReviewAnswer = { kind: 'run' } | { kind: 'cancel' } | { kind: 'skip'; steps: number[] } | { kind: 'unclear'; why: string };

/**
 * Reads one answer to "Run this plan?" for a plan of `stepCount` steps: empty, `y`, `yes` run it;
 * `n`, `no` cancel; `skip 2`, `s 2 3`, `skip 2,4` run it without those steps; anything else, a
 * step number out of range, or skipping every step is unclear (asked again).
 */
export function parseReviewAnswer(answer: string, stepCount: number): ReviewAnswer {
  const text = answer.trim();
  if (/^(y|yes)?$/i.test(text)) return { kind: 'run' };
  if (/^(n|no)$/i.test(text)) return { kind: 'cancel' };
  const skip = /^(?:s|skip)\s+([\d\s,]+)$/i.exec(text);
  if (!skip) return { kind: 'unclear', why: 'Answer y, n, or skip and step numbers (skip 2 3).' };
  const steps = [...new Set(skip[1]!.split(/[\s,]+/).filter(Boolean).map(Number))].sort((a, b) => a - b);
  const outside = steps.find((n) => !Number.isInteger(n) || n < 1 || n > stepCount);
  if (outside !== undefined) return { kind: 'unclear', why: `There is no step ${outside}; the plan has steps 1 to ${stepCount}.` };
  if (steps.length === 0) return { kind: 'unclear', why: 'Name the steps to skip (skip 2 3).' };
  if (steps.length === stepCount) return { kind: 'unclear', why: 'That skips every step; answer n to cancel instead.' };
  return { kind: 'skip', steps };
}

/**
 * Prints the plan on the terminal and asks whether to run it: the plan as it is, `undefined`
 * (cancel) on "n", or the plan with the steps the user named marked `skipped` (the flow records
 * them as skipped by the user, and the task cannot end `finished` without them).
 */
export function cliPlanReview(prompter: Prompter, write: (text: string) => void) {
  return async (plan: Plan, signal: AbortSignal): Promise<Plan | undefined> => {
    const lines = plan.steps.map((s, i) => `  ${i + 1}. [${s.role}] ${s.title}\n     ${s.description}`);
    write(`\nPlan: ${plan.goal}\n${lines.join('\n')}\n`);
    for (;;) {
      const answer = parseReviewAnswer(await prompter.ask('Run this plan? [Y/n, or skip N…] ', signal), plan.steps.length);
      if (answer.kind === 'run') return plan;
      if (answer.kind === 'cancel') return undefined;
      if (answer.kind === 'unclear') {
        write(`${answer.why}\n`);
        continue;
      }
      for (const n of answer.steps) write(`Skipping step ${n}: ${plan.steps[n - 1]!.title}\n`);
      return { ...plan, steps: plan.steps.map((step, i) => (answer.steps.includes(i + 1) ? { ...step, status: 'skipped' as const } : step)) };
    }
  };
}
