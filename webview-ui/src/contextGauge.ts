import type { ContextParts } from '../../src/shared/events';
import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, formatCount, h, replaceChildren, setShown, setText } from './dom';
import type { AppState } from './store';

const PARTS: ReadonlyArray<keyof ContextParts> = ['systemAndTools', 'rules', 'task', 'history', 'toolOutputs', 'summaries'];
/** "Compact now" is offered from this share of the prompt budget on: below it there is nothing to gain. */
export const COMPACT_OFFER_SHARE = 0.5;

/**
 * The context gauge: the last prompt against the budget, split by part (system + tools, rules, task
 * and pins, history, tool outputs, summaries), the task's effective tokens and cost, the rules files
 * loaded, and a "Compact now" button while the task runs. Shared by the panel and the sidebar.
 */
export class ContextGauge {
  readonly element: HTMLElement;
  private readonly bar = h('div', { class: 'gauge-bar', role: 'img' });
  private readonly label = h('span', { class: 'gauge-label', 'data-role': 'context-used' });
  private readonly cost = h('span', { class: 'gauge-cost', 'data-role': 'cost' });
  private readonly legend = h('div', { class: 'gauge-legend' });
  private readonly rules = h('div', { class: 'gauge-rules', 'data-role': 'rules' });
  private readonly compact: HTMLButtonElement;
  private drawn: unknown;

  constructor(post: (intent: WebviewIntent) => boolean) {
    this.compact = button('', () => post({ type: 'compactContext' }), { kind: 'secondary', action: 'compact' });
    this.element = h('section', { class: 'context-gauge', 'data-role': 'context-gauge' },
      h('div', { class: 'gauge-top' }, this.label, this.cost, this.compact), this.bar, this.legend, this.rules);
  }

  /** Redraws when the gauge, cost, rules, language or running state changed. */
  render(state: AppState): void {
    const { run, t, lang } = state;
    const running = state.status.running && state.status.runId === run.runId;
    const key = [run.context, run.cost, run.usage, run.rules, t, running];
    if (this.drawn && (this.drawn as unknown[]).every((v, i) => v === key[i])) return;
    this.drawn = key;
    const context = run.context;
    setShown(this.element, context !== undefined || (run.rules?.length ?? 0) > 0);
    const n = (value: number) => formatCount(value, lang);
    setText(this.label, context ? t('contextUsed', n(context.used), n(context.budget)) : '');
    this.label.title = context ? t('contextDetail', n(context.used), n(context.budget), context.window ? t('contextWindow', n(context.window)) : '') : '';
    this.drawCost(state);
    this.compact.lastChild!.textContent = t('compactNow');
    setShown(this.compact, running && context !== undefined && context.used >= COMPACT_OFFER_SHARE * context.budget);
    if (context) {
      const total = Math.max(context.budget, context.used, 1);
      replaceChildren(this.bar, ...PARTS.filter((p) => context.parts[p] > 0).map((p) => {
        const seg = h('span', { class: `gauge-seg seg-${p}`, 'data-part': p, title: `${t(`part.${p}`)}: ${n(context.parts[p])}` });
        // Through the CSSOM: the webview's CSP blocks style attributes, not style properties set by script.
        seg.style.width = `${((100 * context.parts[p]) / total).toFixed(2)}%`;
        return seg;
      }));
      this.bar.setAttribute('aria-label', this.label.title);
      replaceChildren(this.legend, ...PARTS.filter((p) => context.parts[p] > 0).map((p) =>
        h('span', { class: 'legend-item', 'data-part': p }, h('span', { class: `legend-dot seg-${p}` }), `${t(`part.${p}`)} ${n(context.parts[p])}`)));
    }
    const rules = run.rules ?? [];
    this.drawRules(state, rules);
  }

  /**
   * The task's cost beside the gauge: effective tokens only when caching made them differ from the
   * tokens the header already shows, then the money, or that no price is known and how to set one.
   */
  private drawCost({ run, t, lang }: AppState): void {
    const cost = run.cost;
    if (!cost) {
      setText(this.cost, '');
      this.cost.title = '';
      return;
    }
    const parts: string[] = [];
    if (cost.effectiveTokens !== run.usage?.totalTokens) parts.push(t('costLine', formatCount(cost.effectiveTokens, lang)));
    parts.push(cost.costUsd !== undefined ? t('costMoney', cost.costUsd.toFixed(cost.costUsd < 1 ? 4 : 2)) : t('costUnknown'));
    setText(this.cost, parts.join(' · '));
    this.cost.title = cost.costUsd === undefined ? t('costUnknownHint') : '';
  }

  private drawRules({ t, lang }: AppState, rules: NonNullable<AppState['run']['rules']>): void {
    const n = (value: number) => formatCount(value, lang);
    setShown(this.rules, rules.length > 0);
    replaceChildren(this.rules, rules.length ? t('rulesLoaded', '') : '', ...rules.map((r) =>
      h('code', { class: 'rules-file', 'data-path': r.path, title: `${r.kind}, ${n(r.chars)} chars` }, r.truncated ? t('rulesTruncated', r.path) : r.path)));
  }
}
