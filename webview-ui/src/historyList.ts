import { taskTitle } from '../../src/shared/taskTitle';
import type { HistoryEntry, WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h, replaceChildren, setShown } from './dom';
import { icon } from './icons';
import type { AppState } from './store';
import { OUTCOME_CLASS } from '../../src/shared/outcomeClass';

/** How long typing must pause before the host searches the stored runs. */
const SEARCH_DELAY_MS = 250;
const MAX_SHOWN = 50;

/** The words of a query, lower-cased (the same rule as the host's search). */
function terms(query: string): string[] {
  return query.toLocaleLowerCase().split(/\s+/).filter((word) => word !== '');
}

/**
 * The sidebar's task history: a search box, the runs (most recent first) with Export (the host
 * asks: Markdown or JSON) and Delete on each, and the web search hint. While the host searches the stored runs, the
 * list already shows the runs whose task or outcome match (from the status); the host's answer then
 * adds runs found by their plan, summaries or report. Delete and Export are requests: the host
 * confirms the delete and asks where to save.
 */
export class HistoryList {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly heading = h('h2', { id: 'history-heading' });
  private readonly list = h('div', { class: 'history-results', 'data-role': 'history-results' });
  private readonly hint = h('div', {});
  private readonly live = h('div', { class: 'history-live', role: 'status', 'aria-live': 'polite' });
  private query = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last: AppState | undefined;

  constructor(private readonly post: (intent: WebviewIntent) => boolean) {
    this.input = h('input', { type: 'search', class: 'history-search', 'data-role': 'history-search', spellcheck: 'false', maxlength: 200 });
    this.input.addEventListener('input', () => this.onInput());
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.input.value !== '') {
        event.preventDefault();
        this.input.value = '';
        this.onInput();
      }
    });
    this.element = h('div', { class: 'history-list' }, this.heading, this.input, this.live, this.list, this.hint);
  }

  /** Draws the list for `state` (keeps the search box and its caret). */
  render(state: AppState): void {
    this.last = state;
    const t = state.t;
    this.heading.textContent = t('history');
    this.input.placeholder = t('historySearch');
    this.input.setAttribute('aria-label', t('historySearch'));
    const entries = this.entries(state);
    const searching = terms(this.query).length > 0;
    setShown(this.input, searching || state.status.history.length > 0);
    if (entries.length === 0) {
      replaceChildren(this.list, h('p', { class: 'muted', 'data-role': 'history-empty' }, searching ? t('historyNoMatch', this.query.trim()) : t('historyEmpty')));
    } else {
      const ul = h('ul', { class: 'history', 'aria-labelledby': 'history-heading' });
      for (const entry of entries) ul.appendChild(this.row(entry, state));
      replaceChildren(this.list, ul);
    }
    this.live.textContent = searching ? t('historyMatches', entries.length) : '';
    // Without a search provider the researcher cannot search the web: say how to add one.
    replaceChildren(this.hint, state.status.webSearch === false
      ? h('p', { class: 'muted web-search-hint' }, t('webSearchOff'), ' ',
        button(t('setWebSearchKey'), () => this.post({ type: 'setWebSearchKey' }), { action: 'set-web-search-key' }))
      : null);
  }

  /** The entries to show: all when the query is blank; else the host's answer for this query merged with the local matches. */
  private entries(state: AppState): HistoryEntry[] {
    const all = [...state.status.history].sort((a, b) => b.ts - a.ts);
    const words = terms(this.query);
    if (words.length === 0) return all.slice(0, MAX_SHOWN);
    const t = state.t;
    const local = all.filter((entry) => {
      const text = `${entry.task}\n${entry.outcome ?? ''}\n${entry.outcome ? t(`outcome.${entry.outcome}`) : t('state.RUNNING')}`.toLocaleLowerCase();
      return words.every((word) => text.includes(word));
    });
    const answered = state.historySearch && state.historySearch.query === this.query ? state.historySearch.entries : [];
    const byId = new Map<string, HistoryEntry>();
    for (const entry of [...answered, ...local]) if (!byId.has(entry.runId)) byId.set(entry.runId, entry);
    // A run deleted since the host answered is gone from the status too: show only what the status still lists.
    const known = new Set(all.map((entry) => entry.runId));
    return [...byId.values()].filter((entry) => known.has(entry.runId)).sort((a, b) => b.ts - a.ts).slice(0, MAX_SHOWN);
  }

  private row(entry: HistoryEntry, state: AppState): HTMLElement {
    const t = state.t;
    const task = taskTitle(entry.task, 120) || t('untitled');
    const running = state.status.running && state.status.runId === entry.runId;
    const open = h('button', { type: 'button', class: 'history-item', 'data-run-id': entry.runId, title: entry.task },
      h('span', { class: 'history-task' }, task),
      // The outcome's class (shared table) marks the entry: done, partial, stopped, failed.
      h('span', { class: ['history-meta', entry.outcome ? `outcome-class-${OUTCOME_CLASS[entry.outcome]}` : 'outcome-running'] }, [formatTime(entry.ts, state.lang), entry.outcome ? t(`outcome.${entry.outcome}`) : t('state.RUNNING')].join(' · ')));
    open.addEventListener('click', () => this.post({ type: 'openRun', runId: entry.runId }));
    const short = taskTitle(entry.task, 40) || t('untitled');
    // One Export button: the host asks for the format (Markdown or JSON), then where to save.
    const exportRun = button(t('historyExport', short), () => this.post({ type: 'exportRun', runId: entry.runId }),
      { kind: 'icon', icon: icon('export'), action: 'export-run', title: t('historyExport', short) });
    const remove = button(t('historyDelete', short), () => this.post({ type: 'deleteRun', runId: entry.runId }),
      { kind: 'icon', icon: icon('trash'), action: 'delete-run', title: running ? t('historyDeleteRunning') : t('historyDelete', short) });
    // The running task cannot be deleted; the host refuses too.
    remove.disabled = running;
    return h('li', { class: 'history-row', 'data-run-id': entry.runId }, open, h('div', { class: 'history-actions' }, exportRun, remove));
  }

  private onInput(): void {
    this.query = this.input.value;
    if (this.last) this.render(this.last);
    if (this.timer) clearTimeout(this.timer);
    const query = this.query.trim();
    if (query === '') return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.post({ type: 'searchHistory', query: this.query });
    }, SEARCH_DELAY_MS);
  }
}

function formatTime(ts: number, lang: string): string {
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ts));
  } catch {
    return new Date(ts).toISOString();
  }
}
