import type { HistoryEntry, WebviewIntent } from '../../src/shared/webviewProtocol';
import { Composer, type Draft } from './composer';
import { ContextGauge } from './contextGauge';
import { button, clip, formatCount, h, replaceChildren, setShown, setText } from './dom';
import { icon, stepIcon } from './icons';
import { HistoryList } from './historyList';
import { McpSection } from './mcpSection';
import { PromptDock } from './promptDock';
import type { AppState, Changes } from './store';
import { Timeline } from './timeline';

/** Everything a view needs from the app. */
export interface ViewDeps {
  post: (intent: WebviewIntent) => boolean;
  state: () => AppState;
  loadDraft: () => Draft;
  saveDraft: (draft: Draft) => void;
}

/**
 * The sidebar chat: an empty state when no model is configured; otherwise the task history (no run
 * shown) or the shown run's conversation, with docked prompts and the composer. The MCP servers
 * section sits under the header on every screen.
 */
export class SidebarView {
  readonly element: HTMLElement;
  readonly timeline: Timeline;
  private readonly title = h('span', { class: 'bar-title' });
  private readonly meta = h('div', { class: 'run-meta', 'data-role': 'run-meta' });
  private readonly newTaskButton: HTMLButtonElement;
  private readonly panelButton: HTMLButtonElement;
  private readonly restricted = h('div', { class: 'banner', role: 'note' });
  private readonly empty = h('div', { class: 'empty-state', 'data-role': 'empty-state' });
  private readonly home = h('div', { class: 'home', 'data-role': 'history' });
  private readonly strip = h('button', { type: 'button', class: 'plan-strip', 'data-action': 'plan-strip' });
  private readonly dock: PromptDock;
  private readonly composer: Composer;
  private readonly mcp: McpSection;
  private readonly gauge: ContextGauge;
  private historyShown: readonly HistoryEntry[] | undefined;
  private readonly historyList = new HistoryList((intent) => this.deps.post(intent));

  constructor(private readonly deps: ViewDeps) {
    const post = deps.post;
    this.newTaskButton = button('', () => post({ type: 'newTask' }), { kind: 'icon', icon: icon('plus'), action: 'new-task' });
    this.panelButton = button('', () => post({ type: 'showPanel' }), { kind: 'icon', icon: icon('panel'), action: 'show-panel' });
    this.strip.addEventListener('click', () => post({ type: 'showPanel' }));
    this.timeline = new Timeline({ view: 'sidebar', t: () => deps.state().t, post, runId: () => deps.state().run.runId, workspaceUri: () => deps.state().status.workspaceUri });
    this.dock = new PromptDock(post);
    this.composer = new Composer(post, deps.saveDraft, deps.loadDraft());
    // "Focus on Chat View" (and a click on the view's tab) focuses the webview's window: put the caret
    // in the input unless the user is already in another control of the view.
    window.addEventListener('focus', () => {
      if (document.activeElement === null || document.activeElement === document.body) this.composer.focus();
    });
    this.mcp = new McpSection(post);
    this.gauge = new ContextGauge(post);
    this.element = h('div', { class: 'app sidebar' },
      h('header', { class: 'bar' }, this.title, this.newTaskButton, this.panelButton),
      this.meta, this.gauge.element, this.restricted, this.mcp.element, this.empty, this.home, this.strip, this.timeline.element, this.dock.element, this.composer.element);
  }

  /** Patches what `changes` touched. */
  render(state: AppState, changes: Changes): void {
    const t = state.t;
    const configured = state.status.configured || !state.statusKnown;
    const hasRun = state.run.runId !== undefined;
    if (changes.lang) this.drawEmpty(state);
    setText(this.title, hasRun ? clip(state.run.task ?? t('untitled'), 80) : 'Stepwise');
    this.title.title = state.run.task ?? '';
    this.newTaskButton.title = t('newTask');
    this.newTaskButton.setAttribute('aria-label', t('newTask'));
    this.panelButton.title = t('openPanel');
    this.panelButton.setAttribute('aria-label', t('openPanel'));
    setShown(this.newTaskButton, configured && hasRun);
    setShown(this.panelButton, configured && hasRun);
    setText(this.restricted, t('restricted'));
    setShown(this.restricted, state.statusKnown && !state.status.trusted);
    this.mcp.render(state);

    setShown(this.empty, !configured);
    if (!configured && this.empty.childElementCount === 0) this.drawEmpty(state);
    setShown(this.home, configured && !hasRun);
    if (configured && !hasRun && (changes.status || changes.lang || changes.reset || this.historyShown !== state.status.history)) this.drawHistory(state);

    setShown(this.timeline.element, configured && hasRun);
    setShown(this.meta, configured && hasRun);
    if (configured && hasRun) this.gauge.render(state);
    else setShown(this.gauge.element, false);
    if (configured && hasRun) {
      this.timeline.render(state, changes.reset);
      this.drawMeta(state);
    }
    this.drawStrip(state, configured && hasRun);
    this.dock.render(state);
    setShown(this.dock.element, configured && hasRun && state.run.pending.length > 0);
    setShown(this.composer.element, configured);
    this.composer.render(state);
  }

  private drawEmpty(state: AppState): void {
    const t = state.t;
    replaceChildren(this.empty,
      h('div', { class: 'empty-title' }, t('notConfiguredTitle')),
      h('p', {}, t('notConfiguredBody')),
      h('div', { class: 'buttons' },
        button(t('setApiKey'), () => this.deps.post({ type: 'setApiKey' }), { kind: 'primary', action: 'set-api-key' }),
        button(t('openSettings'), () => this.deps.post({ type: 'openSettings' }), { action: 'open-settings' })));
  }

  private drawHistory(state: AppState): void {
    this.historyShown = state.status.history;
    if (this.home.firstChild !== this.historyList.element) replaceChildren(this.home, this.historyList.element);
    this.historyList.render(state);
  }

  private drawMeta(state: AppState): void {
    const { t, run } = state;
    // The review form lives in the panel; the sidebar says what the run waits for.
    const parts = [state.review && run.state === 'RUNNING' ? t('stateAwaitingReview') : t(`state.${run.state}`)];
    if (run.usage) parts.push(t('tokens', formatCount(run.usage.totalTokens, state.lang)));
    if (state.status.model ?? run.model) parts.push((run.model ?? state.status.model)!);
    setText(this.meta, parts.join(' · '));
    this.meta.title = run.usage ? t('tokensDetail', formatCount(run.usage.promptTokens, state.lang), formatCount(run.usage.completionTokens, state.lang)) : '';
  }

  private drawStrip(state: AppState, shown: boolean): void {
    const plan = state.run.plan;
    setShown(this.strip, shown && plan !== undefined);
    if (!shown || !plan) return;
    const t = state.t;
    const done = plan.steps.filter((s) => s.status === 'completed' || s.status === 'skipped').length;
    const current = plan.steps.find((s) => s.id === state.run.currentStepId) ?? plan.steps.find((s) => s.status === 'in_progress' || s.status === 'failed');
    replaceChildren(this.strip, current ? stepIcon(current.status) : icon('panel'),
      h('span', { class: 'strip-progress' }, t('planProgress', done, plan.steps.length)),
      current ? h('span', { class: 'strip-step' }, clip(current.title, 80)) : null);
    this.strip.title = t('openPanel');
  }
}
