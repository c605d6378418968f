import { RetryBanner } from './retryBanner';
import type { HistoryEntry, WebviewIntent } from '../../src/shared/webviewProtocol';
import { taskTitle } from '../../src/shared/taskTitle';
import { Announcer } from './announcer';
import { Composer, type Draft } from './composer';
import { ContextGauge } from './contextGauge';
import { button, clip, formatCount, h, replaceChildren, setShown, setText } from './dom';
import { icon, stepIcon } from './icons';
import { HistoryList } from './historyList';
import { stepBudgetWords } from './stepBudgetView';
import { compactTokens } from '../../src/shared/compactTokens';
import { McpSection } from './mcpSection';
import { holdsPrompts, PromptDock } from './promptDock';
import { SetupView } from './setupView';
import type { AppState, Changes } from './store';
import { Timeline } from './timeline';
import { runBadge } from './runBadge';

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
  private readonly setup: SetupView;
  /** The user opened the set-up from the model switcher (or the host asked for it). */
  private setupOpen = false;
  private setupRequestsSeen = 0;
  private readonly modelSwitch = h('button', { type: 'button', class: 'model-switch', 'data-action': 'model-switch' });
  private readonly home = h('div', { class: 'home', 'data-role': 'history' });
  private readonly strip = h('button', { type: 'button', class: 'plan-strip', 'data-action': 'plan-strip' });
  private readonly dock: PromptDock;
  /** Says that the prompts wait in the panel (shown there while the user looks at it). */
  private readonly promptsNote = h('button', { type: 'button', class: 'prompts-note', 'data-role': 'prompts-note' });
  private readonly composer: Composer;
  private readonly mcp: McpSection;
  private readonly gauge: ContextGauge;
  private readonly retry: RetryBanner;
  private readonly announcer = new Announcer();
  private historyShown: readonly HistoryEntry[] | undefined;
  private readonly historyList = new HistoryList((intent) => this.deps.post(intent));
  private readonly examples = h('div', { class: 'examples', 'data-role': 'examples' });

  constructor(private readonly deps: ViewDeps) {
    const post = deps.post;
    this.newTaskButton = button('', () => post({ type: 'newTask' }), { kind: 'icon', icon: icon('plus'), action: 'new-task' });
    this.panelButton = button('', () => post({ type: 'showPanel' }), { kind: 'icon', icon: icon('panel'), action: 'show-panel' });
    this.strip.addEventListener('click', () => post({ type: 'showPanel' }));
    this.promptsNote.addEventListener('click', () => post({ type: 'showPanel' }));
    this.timeline = new Timeline({ view: 'sidebar', t: () => deps.state().t, post, runId: () => deps.state().run.runId, workspaceUri: () => deps.state().status.workspaceUri });
    this.composer = new Composer(post, deps.saveDraft, deps.loadDraft());
    this.dock = new PromptDock(post, () => this.composer.focus());
    // "Focus on Chat View" (and a click on the view's tab) focuses the webview's window: put the caret
    // in the input unless the user is already in another control of the view.
    // A prompt waiting in this view comes first: the host focuses the view for it on the keyboard path.
    window.addEventListener('focus', () => {
      if (this.dock.takeFocus()) return;
      if (document.activeElement === null || document.activeElement === document.body) this.composer.focus();
    });
    this.mcp = new McpSection(post);
    this.gauge = new ContextGauge(post);
    this.retry = new RetryBanner(post);
    this.setup = new SetupView(post, (open) => {
      // Saving keeps the set-up open until the host says the save is done; Cancel closes it.
      this.setupOpen = open;
      this.render(deps.state(), { run: false, reset: false, status: true, review: false, lang: false, mcp: false });
    });
    this.modelSwitch.addEventListener('click', () => {
      this.setupOpen = true;
      this.render(deps.state(), { run: false, reset: false, status: true, review: false, lang: false, mcp: false });
      this.setup.focus();
    });
    this.element = h('div', { class: 'app sidebar' },
      h('header', { class: 'bar' }, this.title, this.newTaskButton, this.panelButton),
      this.meta, this.retry.element, this.gauge.element, this.restricted, this.mcp.element, this.setup.element, this.home, this.strip, this.timeline.element, this.promptsNote, this.dock.element, this.modelSwitch, this.composer.element, this.announcer.element);
  }

  /** Patches what `changes` touched. */
  render(state: AppState, changes: Changes): void {
    const t = state.t;
    const hasRun = state.run.runId !== undefined;
    const showSetup = this.setupShown(state);
    // While the set-up is shown, the chat is not: it reads as "not configured" for the rest of the view.
    const configured = !showSetup;
    setText(this.title, hasRun && configured ? taskTitle(state.run.task ?? '') || t('untitled') : 'Stepwise');
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

    setShown(this.setup.element, showSetup);
    if (showSetup) this.setup.render(state, state.status.configured);
    setShown(this.home, configured && !hasRun);
    if (configured && !hasRun && (changes.status || changes.lang || changes.reset || this.historyShown !== state.status.history)) this.drawHistory(state);

    setShown(this.timeline.element, configured && hasRun);
    setShown(this.meta, configured && hasRun);
    this.retry.render(state, configured && hasRun && state.status.runId === state.run.runId);
    if (configured && hasRun) this.gauge.render(state);
    else setShown(this.gauge.element, false);
    if (configured && hasRun) {
      this.timeline.render(state, changes.reset);
      this.drawMeta(state);
    }
    this.drawStrip(state, configured && hasRun);
    this.dock.render(state);
    const waiting = configured && hasRun && state.run.pending.length > 0;
    setShown(this.dock.element, waiting && holdsPrompts(state));
    setText(this.promptsNote, t('promptsInPanel'));
    setShown(this.promptsNote, waiting && !holdsPrompts(state));
    setShown(this.composer.element, configured);
    this.composer.render(state);
    this.drawModelSwitch(state, configured);
    this.announcer.render(state);
  }

  /** The set-up replaces the chat when no model is configured, or when the user (or the host) opened it. */
  private setupShown(state: AppState): boolean {
    if ((state.setupRequests ?? 0) !== this.setupRequestsSeen) {
      this.setupRequestsSeen = state.setupRequests ?? 0;
      this.setupOpen = true;
    }
    // A finished save closes the set-up (the host counts saves).
    const saves = state.setup?.saves;
    if (saves !== undefined && saves !== this.savesSeen) {
      if (this.savesSeen !== undefined) this.setupOpen = false;
      this.savesSeen = saves;
    }
    return (state.statusKnown && !state.status.configured) || this.setupOpen;
  }

  private savesSeen: number | undefined;

  /** The provider and model in use, by the input; a click opens the set-up to switch. */
  private drawModelSwitch(state: AppState, shown: boolean): void {
    setShown(this.modelSwitch, shown && state.statusKnown);
    const model = state.status.model ?? '';
    const label = state.status.provider ? `${state.status.provider} · ${model}` : model;
    setText(this.modelSwitch, label);
    this.modelSwitch.title = state.t('modelSwitchTitle', model, state.status.endpoint ?? state.status.provider ?? '');
  }

  /** Puts a suggested task in the chat box (the user still sends it). */
  private fillTask(text: string): void {
    const input = this.composer.element.querySelector('textarea');
    if (!input) return;
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.focus();
  }

  private drawHistory(state: AppState): void {
    const t = state.t;
    this.historyShown = state.status.history;
    // Example tasks sit above the history; the list itself is kept (its search box holds the caret).
    replaceChildren(this.examples, h('h2', {}, t('examplesTitle')),
      ...(['example1', 'example2', 'example3'] as const).map((key) =>
        button(t(key), () => this.fillTask(t(key)), { action: 'example-task' })));
    if (this.home.firstChild !== this.examples) replaceChildren(this.home, this.examples, this.historyList.element);
    this.historyList.render(state);
  }

  private drawMeta(state: AppState): void {
    const { t, run } = state;
    // The review form lives in the panel; the sidebar says what the run waits for.
    const parts = [runBadge(t, run, state.review !== undefined).text];
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
      current ? h('span', { class: 'strip-step' }, clip(current.title, 80)) : null,
      current?.spend ? h('span', { class: 'strip-budget', 'data-level': current.spend.reached ? 'reached' : current.spend.level, title: stepBudgetWords(current, t) },
        t('stepSpend', compactTokens(current.spend.spent), compactTokens(current.spend.budget))) : null);
    this.strip.title = t('openPanel');
  }
}
