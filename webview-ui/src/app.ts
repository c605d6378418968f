import { parseHostMessage, type HostMessage, type WebviewIntent, type WebviewKind } from '../../src/shared/webviewProtocol';
import { PlanMode } from '../../src/shared/vocabulary';
import type { Draft } from './composer';
import type { HostApi } from './hostApi';
import { fileRefOf, markFileRef } from './markdown';
import type { Translate } from './strings';
import { PanelView } from './panelView';
import { SidebarView } from './sidebarView';
import { applyHostMessage, initialAppState, salvageEvents, type AppState, type Changes } from './store';

const NONE: Changes = { run: false, reset: false, status: false, review: false, lang: false, mcp: false };

function merge(a: Changes, b: Changes): Changes {
  return {
    run: a.run || b.run, reset: a.reset || b.reset, status: a.status || b.status, review: a.review || b.review, lang: a.lang || b.lang, mcp: a.mcp || b.mcp,
  };
}

/**
 * One webview: folds host messages into the state (validated, invalid ones logged and dropped),
 * renders at most once per animation frame, and sends `ready` so the host replays what it missed.
 */
export class App {
  private state: AppState;
  private pending: Changes = { ...NONE, lang: true, status: true, run: true, reset: true, review: true, mcp: true };
  private frame = 0;
  readonly view: SidebarView | PanelView;

  constructor(
    root: HTMLElement,
    kind: WebviewKind,
    private readonly host: HostApi,
    lang: string,
  ) {
    this.state = initialAppState(kind, lang);
    const deps = {
      post: (intent: WebviewIntent) => this.host.post(intent),
      state: () => this.state,
      loadDraft: () => this.loadDraft(),
      saveDraft: (draft: Draft) => this.host.setState({ draft }),
    };
    this.view = kind === 'panel' ? new PanelView(deps) : new SidebarView(deps);
    root.appendChild(this.view.element);
    // File links are marked in sanitised markdown and tool arguments; one listener serves them all.
    root.addEventListener('click', (event) => this.openFileFrom(event));
    root.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.target as Element).matches?.('[data-path]')) this.openFileFrom(event);
    });
    // The Stop keybinding (Ctrl+Alt+X / Cmd+Alt+X) never reaches VS Code from a webview: webviews keep
    // every Ctrl+X to themselves as "cut". So the views answer it here, with the same intent as Stop.
    document.addEventListener('keydown', (event) => {
      if (!(event.ctrlKey || event.metaKey) || !event.altKey || event.code !== 'KeyX' || !this.state.status.running) return;
      event.preventDefault();
      this.host.post({ type: 'cancel' });
    });
    // `error` does not bubble: caught on the way down. A report image that is not there becomes a link to its path.
    root.addEventListener('error', (event) => replaceBrokenImage(event.target, this.state.t), true);
    this.render();
  }

  /** The current state (read-only; tests and benchmarks inspect it). */
  get current(): AppState {
    return this.state;
  }

  /** Tells the host this view is ready for events after the last one it has. */
  start(): void {
    const { runId, lastSeq } = this.state.run;
    this.host.post(runId === undefined ? { type: 'ready', view: this.state.view, lastSeq } : { type: 'ready', view: this.state.view, lastSeq, runId });
  }

  /** Handles one raw message from the host. */
  receive(raw: unknown): void {
    const parsed = parseHostMessage(raw);
    let message: HostMessage;
    if (parsed.ok) {
      message = parsed.message;
    } else {
      const salvaged = salvageEvents(raw);
      console.warn(`[stepwise] dropped ${salvaged ? 'invalid envelopes of' : ''} a host message that does not match the protocol:`, parsed.error);
      if (!salvaged) return;
      message = salvaged;
    }
    const { state, changes } = applyHostMessage(this.state, message);
    this.state = state;
    this.pending = merge(this.pending, changes);
    this.schedule();
  }

  /** Renders pending changes now instead of on the next frame (tests, benchmarks). */
  flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.render();
    this.view.timeline.flush();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const changes = this.pending;
    this.pending = NONE;
    // Only on change: writing the attribute, even unchanged, restyles the whole page.
    if (document.documentElement.lang !== this.state.lang) document.documentElement.lang = this.state.lang;
    this.view.render(this.state, changes);
  }

  private openFileFrom(event: Event): void {
    const ref = fileRefOf(event.target);
    if (!ref) return;
    event.preventDefault();
    this.host.post({ type: 'openFile', path: ref.path, line: ref.line });
  }

  private loadDraft(): Draft {
    const saved = this.host.getState() as { draft?: Partial<Draft> } | undefined;
    const mode = PlanMode.safeParse(saved?.draft?.planMode);
    return { text: typeof saved?.draft?.text === 'string' ? saved.draft.text : '', planMode: mode.success ? mode.data : 'auto' };
  }
}


function replaceBrokenImage(target: EventTarget | null, t: Translate): void {
  if (!(target instanceof HTMLImageElement) || !target.classList.contains('report-image')) return;
  const path = target.getAttribute('data-path') ?? '';
  const link = document.createElement('span');
  link.className = 'image-missing';
  link.textContent = t('imageMissing', target.getAttribute('alt') || path);
  if (path) markFileRef(link, { path });
  target.replaceWith(link);
}
