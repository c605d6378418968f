import type { StepRole } from '../../src/shared/plan';
import type { PlanStepDraft, WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h, replaceChildren } from './dom';
import { icon } from './icons';
import { stepBudgetView } from './stepBudgetView';
import type { AppState } from './store';

const ROLES: readonly StepRole[] = ['coder', 'researcher', 'reporter', 'browser', 'analyst'];

/**
 * Plan review: the user rewords, reorders, deletes or adds steps, then runs the plan. Edits stay
 * local until Run sends `runPlan` with the edited steps (ids kept for the steps that came from the plan).
 */
export class PlanReview {
  readonly element = h('section', { class: 'review', 'data-role': 'review' });
  private drafts: PlanStepDraft[] = [];
  private source: AppState['review'];
  private t: AppState['t'] | undefined;
  private sent = false;
  private shown: AppState['review'];

  constructor(private readonly post: (intent: WebviewIntent) => boolean) {
    this.element.hidden = true;
    // Ctrl+Enter (Cmd+Enter) runs the plan from anywhere in the review.
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.isComposing) return;
      event.preventDefault();
      this.run();
    });
  }

  /** Puts the focus on Run (when a plan arrives for review and this view has the focus). */
  focusRun(): void {
    this.element.querySelector<HTMLButtonElement>('[data-action="run-plan"]')?.focus();
  }

  /** Shows the review when the state has a plan awaiting it; a new plan replaces local edits. */
  render(state: AppState): void {
    if (state.review === this.source && state.t === this.t) return;
    if (state.review !== this.source) {
      this.drafts = state.review ? state.review.plan.steps.map((s) => ({ id: s.id, title: s.title, description: s.description, role: s.role })) : [];
      this.sent = false;
    }
    this.source = state.review;
    this.t = state.t;
    const arrived = state.review !== undefined && state.review !== this.shown;
    this.shown = state.review;
    this.element.hidden = !state.review;
    if (state.review) this.draw();
    if (arrived && document.hasFocus()) this.focusRun();
  }

  private draw(): void {
    const t = this.t!;
    const list = h('ol', { class: 'review-steps', 'aria-label': t('stepsLabel') });
    this.drafts.forEach((draft, index) => list.appendChild(this.stepEditor(draft, index)));
    const run = button(t('runPlan'), () => this.run(), { kind: 'primary', action: 'run-plan' });
    run.disabled = this.sent || this.drafts.length === 0 || this.drafts.some((d) => d.title.trim() === '');
    replaceChildren(this.element,
      h('h2', {}, t('reviewTitle')),
      h('p', { class: 'muted' }, t('reviewHint')),
      this.source ? h('div', { class: 'plan-goal' }, this.source.plan.goal) : null,
      list,
      h('div', { class: 'buttons' },
        button(t('addStep'), () => this.change(() => this.drafts.push({ title: '', description: '', role: 'coder' }), this.drafts.length), { icon: icon('plus'), action: 'add-step' }),
        run));
  }

  private stepEditor(draft: PlanStepDraft, index: number): HTMLElement {
    const t = this.t!;
    const title = h('input', { type: 'text', class: 'review-title', value: draft.title, placeholder: t('stepTitle'), 'aria-label': t('stepTitle'), 'data-index': index });
    title.addEventListener('input', () => {
      draft.title = title.value;
      remove.setAttribute('aria-label', t('deleteStepNamed', index + 1, draft.title.trim()));
      const run = this.element.querySelector<HTMLButtonElement>('[data-action="run-plan"]');
      if (run) run.disabled = this.sent || this.drafts.some((d) => d.title.trim() === '');
    });
    const description = h('textarea', { class: 'review-desc', rows: 2, placeholder: t('stepDescription'), 'aria-label': t('stepDescription') });
    description.value = draft.description;
    description.addEventListener('input', () => (draft.description = description.value));
    const role = h('select', { class: 'review-role', 'aria-label': t('stepRole'), title: t('stepRole') });
    for (const r of ROLES) role.appendChild(h('option', { value: r }, t(`role.${r}`)));
    role.value = draft.role;
    role.addEventListener('change', () => (draft.role = role.value as StepRole));
    const up = button(t('moveUp'), () => this.change(() => this.swap(index, index - 1), index - 1), { kind: 'icon', icon: icon('up'), title: t('moveUp'), action: 'up' });
    up.disabled = index === 0;
    const down = button(t('moveDown'), () => this.change(() => this.swap(index, index + 1), index + 1), { kind: 'icon', icon: icon('down'), title: t('moveDown'), action: 'down' });
    down.disabled = index === this.drafts.length - 1;
    const remove = button(t('deleteStep'), () => this.change(() => this.drafts.splice(index, 1), Math.min(index, this.drafts.length - 2)), { kind: 'icon', icon: icon('trash'), title: t('deleteStep'), action: 'delete' });
    // Which step: a screen reader user tabbing through the icons hears the title, not only "Delete step".
    remove.setAttribute('aria-label', t('deleteStepNamed', index + 1, draft.title.trim()));
    remove.disabled = this.drafts.length === 1;
    return h('li', { class: 'review-step', 'data-index': index },
      h('span', { class: 'review-num' }, String(index + 1)),
      h('div', { class: 'review-fields' }, h('div', { class: 'review-line' }, title, this.estimateOf(draft), role), description),
      h('div', { class: 'review-tools' }, up, down, remove));
  }

  /** A planned step's estimate ("≈40k tokens"): the core keeps it for a step that keeps its id; added steps have none. */
  private estimateOf(draft: PlanStepDraft): HTMLElement | null {
    const estimate = draft.id === undefined ? undefined : this.source?.plan.steps.find((s) => s.id === draft.id)?.estimate;
    return estimate === undefined ? null : stepBudgetView({ status: 'pending', estimate }, this.t!);
  }

  private swap(a: number, b: number): void {
    if (b < 0 || b >= this.drafts.length) return;
    [this.drafts[a], this.drafts[b]] = [this.drafts[b]!, this.drafts[a]!];
  }

  /** Applies an edit, redraws and puts the caret back in the title of the step at `focusIndex`. */
  private change(edit: () => void, focusIndex: number): void {
    edit();
    this.draw();
    this.element.querySelector<HTMLInputElement>(`input.review-title[data-index="${Math.max(0, focusIndex)}"]`)?.focus();
  }

  private run(): void {
    if (this.sent) return;
    const steps = this.drafts.map((d) => ({ ...d, title: d.title.trim(), description: d.description.trim() }));
    if (steps.length === 0 || steps.some((s) => s.title === '')) return;
    if (!this.post({ type: 'runPlan', steps })) return;
    this.sent = true;
    this.draw();
  }
}
