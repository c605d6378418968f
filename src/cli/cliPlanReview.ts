import type { Plan } from '../shared/plan';
import type { Prompter } from './prompter';

/** Prints the plan on the terminal and asks whether to run it; `undefined` (cancel) on "n". */
export function cliPlanReview(prompter: Prompter, write: (text: string) => void) {
  return async (plan: Plan, signal: AbortSignal): Promise<Plan | undefined> => {
    const lines = plan.steps.map((s, i) => `  ${i + 1}. [${s.role}] ${s.title}\n     ${s.description}`);
    write(`\nPlan: ${plan.goal}\n${lines.join('\n')}\n`);
    const answer = (await prompter.ask('Run this plan? [Y/n] ', signal)).trim();
    return /^(n|no)$/i.test(answer) ? undefined : plan;
  };
}
