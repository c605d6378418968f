import { compactTokens } from '../../src/shared/compactTokens';
import type { StepStatus } from '../../src/shared/events';
import { h } from './dom';
import type { Translate } from './strings';
import type { StepSpendView } from './viewModel';

/** What a plan step row or step header knows of a step's budget. */
export interface BudgetedStep {
  status: StepStatus;
  estimate?: number;
  spend?: StepSpendView;
}

/**
 * The words of a step's budget for screen readers and tooltips: its spending and level once it
 * ran, else its estimate; `undefined` for a step without a budget.
 */
export function stepBudgetWords(step: BudgetedStep, t: Translate): string | undefined {
  const spend = step.spend;
  if (!spend) return step.estimate === undefined ? undefined : t('stepEstimateLabel', compactTokens(step.estimate));
  const used = t('stepSpendLabel', compactTokens(spend.spent), compactTokens(spend.budget));
  const note = levelWords(step, t, true);
  return note ? `${used}. ${note}` : used;
}

/**
 * A step's budget, compact: "≈40k tokens" before it runs; once it runs "12k / 40k" with a small
 * bar, and plain words when it runs low or the budget stopped it. `null` without a budget (no
 * estimate, none reported), so such steps show nothing extra.
 */
export function stepBudgetView(step: BudgetedStep, t: Translate): HTMLElement | null {
  const words = stepBudgetWords(step, t);
  if (words === undefined) return null;
  const spend = step.spend;
  if (!spend) {
    return h('span', { class: 'step-estimate', 'data-role': 'step-estimate', title: words, 'aria-label': words }, t('stepEstimate', compactTokens(step.estimate!)));
  }
  const fill = h('span', { class: 'budget-fill' });
  // Through the CSSOM: the webview's CSP blocks style attributes, not style properties set by script.
  fill.style.width = `${spend.budget > 0 ? Math.min(100, (100 * spend.spent) / spend.budget).toFixed(1) : 100}%`;
  const note = levelWords(step, t, false);
  // Amber means "running low": a step that has ended is past that (unless it went over).
  const level = spend.reached ? 'reached' : spend.level === 'low' && step.status !== 'in_progress' ? 'ok' : spend.level;
  return h('div', {
    class: ['step-budget', `budget-${level}`], 'data-role': 'step-budget', 'data-level': level,
    role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': spend.budget, 'aria-valuenow': Math.min(spend.spent, spend.budget), 'aria-valuetext': words, 'aria-label': words, title: words,
  },
  h('span', { class: 'budget-bar', 'aria-hidden': 'true' }, fill),
  h('span', { class: 'budget-text', 'aria-hidden': 'true' }, t('stepSpend', compactTokens(spend.spent), compactTokens(spend.budget))),
  note ? h('span', { class: 'budget-note', 'aria-hidden': 'true' }, note) : null);
}

/** "Stopped: token budget used up", "Over budget" (past it, ended otherwise), "Running low" (only while it runs), or nothing. */
function levelWords(step: BudgetedStep, t: Translate, long: boolean): string | undefined {
  const spend = step.spend!;
  if (spend.reached) return t('stepBudgetReached');
  if (spend.level === 'over') return t('stepBudgetOver');
  if (spend.level === 'low' && step.status === 'in_progress') return long ? t('stepBudgetLowLabel') : t('stepBudgetLow');
  return undefined;
}
