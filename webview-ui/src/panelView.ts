import { RetryBanner } from './retryBanner';
import { taskTitle } from '../../src/shared/taskTitle';
import { Announcer } from './announcer';
import { ContextGauge } from './contextGauge';
import { button, formatCount, h, setShown, setText } from './dom';
import { icon } from './icons';
import { PlanReview } from './planReview';
import { PlanSteps } from './planSteps';
import { PromptDock } from './promptDock';
import type { ViewDeps } from './sidebarView';
import type { AppState, Changes } from './store';
import { Timeline } from './timeline';
import { runBadge } from './runBadge';

/**
 * The plan panel: the task, its state and token usage; the plan's steps beside the timeline of
 * step sections (or the loop's turns when there is no plan); plan review mode; docked prompts.
 */
export class PanelView {
  readonly element: HTMLElement;
  readonly timeline: Timeline;
  private readonly title = h('h1', { class: 'task-title', 'data-role': 'task-title' });
  private readonly stateBadge = h('span', { class: 'badge state-badge', 'data-role': 'state' });
  private readonly usage = h('span', { class: 'usage', 'data-role': 'usage' });
  private readonly stopButton: HTMLButtonElement;
  private readonly emptyNote = h('div', { class: 'empty-state panel-empty' });
  private readonly body: HTMLElement;
  private readonly planColumn: HTMLElement;
  private readonly steps: PlanSteps;
  private readonly review: PlanReview;
  private readonly dock: PromptDock;
  private readonly gauge: ContextGauge;
  private readonly retry: RetryBanner;
  // The sidebar speaks for the run; the panel only while the user is in it.
  private readonly announcer = new Announcer(() => document.hasFocus());

  constructor(deps: ViewDeps) {
    const post = deps.post;
    this.stopButton = button('', () => post({ type: 'cancel' }), { icon: icon('stop'), action: 'stop' });
    this.timeline = new Timeline({ view: 'panel', t: () => deps.state().t, post, runId: () => deps.state().run.runId, workspaceUri: () => deps.state().status.workspaceUri });
    this.steps = new PlanSteps(post, (stepId) => this.timeline.scrollToStep(stepId));
    this.review = new PlanReview(post);
    this.dock = new PromptDock(post);
    this.gauge = new ContextGauge(post);
    this.retry = new RetryBanner(post);
    this.planColumn = h('aside', { class: 'plan-col' }, this.steps.element);
    this.body = h('div', { class: 'panel-body' }, this.planColumn, h('div', { class: 'main-col' }, this.review.element, this.timeline.element));
    this.element = h('div', { class: 'app panel' },
      h('header', { class: 'panel-header' }, this.title, h('div', { class: 'panel-meta' }, this.stateBadge, this.usage, this.stopButton)),
      this.retry.element, this.gauge.element, this.emptyNote, this.body, this.dock.element, this.announcer.element);
    // Revealed for plan review (or clicked into): Run takes the focus when nothing else has it. Revealed
    // with the focus while a prompt waits (the host does that on the keyboard path, and "Show Task
    // Panel"): the prompt takes it.
    window.addEventListener('focus', () => {
      if (deps.state().review && (document.activeElement === null || document.activeElement === document.body)) this.review.focusRun();
      else if (!deps.state().review) this.dock.takeFocus();
    });
  }

  /** Patches what `changes` touched. */
  render(state: AppState, changes: Changes): void {
    const { t, run } = state;
    const hasRun = run.runId !== undefined;
    setText(this.title, hasRun ? taskTitle(run.task ?? '') || t('untitled') : 'Stepwise');
    this.title.title = run.task ?? '';
    const reviewing = state.review !== undefined;
    setShown(this.stateBadge, hasRun && run.lastSeq >= 0);
    // The run is paused on the user here: "Running" beside an editor waiting for input would mislead.
    const badge = runBadge(t, run, reviewing);
    setText(this.stateBadge, badge.text);
    this.stateBadge.className = badge.className;
    setText(this.usage, run.usage ? t('tokens', formatCount(run.usage.totalTokens, state.lang)) : '');
    this.usage.title = run.usage ? t('tokensDetail', formatCount(run.usage.promptTokens, state.lang), formatCount(run.usage.completionTokens, state.lang)) : '';
    this.stopButton.lastChild!.textContent = t('stop');
    setShown(this.stopButton, state.status.running && (state.status.runId === undefined || state.status.runId === run.runId));
    setText(this.emptyNote, t('panelEmpty'));
    setShown(this.emptyNote, !hasRun && !state.review);
    setShown(this.body, hasRun || state.review !== undefined);

    this.retry.render(state, hasRun && state.status.runId === run.runId);
    this.gauge.render(state);
    this.steps.render(state);
    this.review.render(state);
    setShown(this.planColumn, run.plan !== undefined && !reviewing);
    this.body.classList.toggle('has-plan', run.plan !== undefined && !reviewing);
    setShown(this.timeline.element, !reviewing);
    if (hasRun) this.timeline.render(state, changes.reset);
    this.dock.render(state);
    this.announcer.render(state);
  }
}
