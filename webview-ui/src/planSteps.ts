import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { canRetryStep } from '../../src/shared/vocabulary';
import { button, clip, h, replaceChildren } from './dom';
import { icon, stepIcon } from './icons';
import { stepBudgetView, stepBudgetWords } from './stepBudgetView';
import type { AppState } from './store';
import type { PlanStepView, PlanView } from './viewModel';

/**
 * The plan as a list of steps with status icons and colours; the current step is highlighted,
 * failed steps get a Retry button, and clicking a step scrolls the timeline to its section.
 */
export class PlanSteps {
  readonly element = h('section', { class: 'plan', 'data-role': 'plan' });
  private plan: PlanView | undefined;
  private current: string | undefined;
  private t: AppState['t'] | undefined;
  private readonly rows = new Map<string, { step: PlanStepView; element: HTMLElement }>();

  constructor(
    private readonly post: (intent: WebviewIntent) => boolean,
    private readonly onSelect: (stepId: string) => void,
  ) {}

  /** Patches the rows whose step changed. */
  render(state: AppState): void {
    const { plan, currentStepId } = state.run;
    if (plan === this.plan && currentStepId === this.current && state.t === this.t) return;
    const full = state.t !== this.t || !this.plan || !plan || plan.goal !== this.plan.goal || !sameIds(plan.steps, this.plan.steps);
    this.plan = plan;
    this.current = currentStepId;
    this.t = state.t;
    this.element.hidden = !plan;
    if (!plan) return;
    if (full) {
      this.rows.clear();
      const list = h('ol', { class: 'steps', role: 'list', 'aria-label': state.t('stepsLabel') });
      for (const step of plan.steps) {
        const element = this.row(step, state);
        this.rows.set(step.id, { step, element });
        list.appendChild(element);
      }
      const done = plan.steps.filter((s) => s.status === 'completed' || s.status === 'skipped').length;
      replaceChildren(this.element,
        h('div', { class: 'plan-head' }, h('h2', {}, state.t('plan')), h('span', { class: 'muted' }, state.t('planProgress', done, plan.steps.length))),
        h('div', { class: 'plan-goal' }, plan.goal), list);
      return;
    }
    for (const step of plan.steps) {
      const row = this.rows.get(step.id)!;
      const isCurrent = step.id === currentStepId;
      if (row.step === step && row.element.classList.contains('current') === isCurrent) continue;
      const element = this.row(step, state);
      row.element.replaceWith(element);
      this.rows.set(step.id, { step, element });
    }
    const done = plan.steps.filter((s) => s.status === 'completed' || s.status === 'skipped').length;
    const progress = this.element.querySelector('.plan-head .muted');
    if (progress) progress.textContent = state.t('planProgress', done, plan.steps.length);
  }

  private row(step: PlanStepView, state: AppState): HTMLElement {
    const t = state.t;
    const isCurrent = step.id === state.run.currentStepId;
    const index = this.plan?.steps.indexOf(step) ?? -1;
    const budgetWords = stepBudgetWords(step, t);
    const announce = t('stepAnnounce', index + 1, t(`step.${step.status}`), step.title);
    // Before the step runs its estimate sits beside the title; once it runs, its spending gets a line of its own.
    const budget = stepBudgetView(step, t);
    const li = h('li', {
      class: ['step', `step-${step.status}`, isCurrent && 'current'], 'data-step-id': step.id, 'data-status': step.status, tabindex: '0',
      role: 'listitem', 'aria-current': isCurrent ? 'step' : undefined, 'aria-label': budgetWords ? `${announce}. ${budgetWords}` : announce,
    },
      stepIcon(step.status),
      h('div', { class: 'step-main' },
        h('div', { class: 'step-line' }, h('span', { class: 'step-title' }, step.title), step.spend ? null : budget,
          h('span', { class: ['badge', `badge-${step.status}`] }, t(`step.${step.status}`))),
        step.spend ? budget : null,
        h('div', { class: 'step-desc' }, h('span', { class: 'role' }, roleLabel(step.agent ?? step.role, t)), step.description ? ` ${clip(step.description, 300)}` : ''),
        // The step's summary is said once, under its header in the timeline (a click here scrolls to it).
        canRetryStep(step.status) ? h('div', { class: 'buttons' }, button(t('retry'), () => this.post({ type: 'retryStep', stepId: step.id }), { icon: icon('retry'), action: 'retry' })) : null));
    if (step.summary) li.title = clip(step.summary, 600);
    li.addEventListener('click', (event) => {
      if ((event.target as Element).closest('button')) return;
      this.onSelect(step.id);
    });
    li.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.onSelect(step.id);
    });
    return li;
  }
}

function roleLabel(role: string, t: AppState['t']): string {
  return role === 'coder' || role === 'researcher' || role === 'reporter' || role === 'browser' || role === 'analyst' ? t(`role.${role}`) : role;
}


function sameIds(a: readonly PlanStepView[], b: readonly PlanStepView[]): boolean {
  return a.length === b.length && a.every((step, i) => step.id === b[i]!.id);
}
