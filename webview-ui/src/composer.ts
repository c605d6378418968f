import type { PlanMode } from '../../src/shared/vocabulary';
import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h, setShown } from './dom';
import { icon } from './icons';
import { MentionMenu } from './mentionMenu';
import type { AppState } from './store';
import type { Translate } from './strings';

/** What the composer remembers across webview reloads. */
export interface Draft {
  text: string;
  planMode: PlanMode;
}

/**
 * The task input: Enter sends, Shift+Enter adds a line (and Enter while an IME is composing does
 * nothing). Sends `submitTask` for a new task and `resumeRun` to follow up on the shown run; shows
 * Stop instead of Send while a run is going.
 */
export class Composer {
  readonly element: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly planSelect: HTMLSelectElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private state?: AppState;
  private readonly mentions: MentionMenu;

  constructor(
    private readonly post: (intent: WebviewIntent) => boolean,
    private readonly saveDraft: (draft: Draft) => void,
    draft: Draft,
  ) {
    this.textarea = h('textarea', { class: 'composer-input', rows: 3, 'data-role': 'task-input' });
    this.textarea.value = draft.text;
    this.mentions = new MentionMenu(this.textarea, post);
    this.textarea.addEventListener('keydown', (event) => {
      if (this.mentions.onKey(event)) return;
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.keyCode === 229) return;
      event.preventDefault();
      this.send();
    });
    this.textarea.addEventListener('input', () => this.persist());
    this.planSelect = h('select', { class: 'plan-mode', 'data-role': 'plan-mode' });
    for (const mode of ['auto', 'always', 'never'] as const) this.planSelect.appendChild(h('option', { value: mode }));
    this.planSelect.value = draft.planMode;
    this.planSelect.addEventListener('change', () => this.persist());
    this.sendButton = button('', () => this.send(), { kind: 'primary', icon: icon('send'), action: 'send' });
    this.stopButton = button('', () => this.post({ type: 'cancel' }), { kind: 'secondary', icon: icon('stop'), action: 'stop' });
    this.element = h('div', { class: 'composer' },
      this.mentions.element,
      this.textarea,
      h('div', { class: 'composer-row' }, this.planSelect, h('span', { class: 'spacer' }), this.stopButton, this.sendButton));
  }

  /** Updates labels and which button shows. */
  render(state: AppState): void {
    if (state.mentions !== this.state?.mentions) this.mentions.show(state.mentions);
    this.state = state;
    const t: Translate = state.t;
    const followUp = this.followUpRunId() !== undefined;
    this.textarea.placeholder = followUp ? t('followUpPlaceholder') : t('composerPlaceholder');
    this.textarea.setAttribute('aria-label', t('composerLabel'));
    this.planSelect.setAttribute('aria-label', t('planModeLabel'));
    this.planSelect.title = t('planModeLabel');
    setShown(this.planSelect, !followUp);
    const labels = { auto: t('planAuto'), always: t('planAlways'), never: t('planNever') } as const;
    for (const option of Array.from(this.planSelect.options)) option.textContent = labels[option.value as PlanMode];
    setLabel(this.sendButton, t('send'));
    setLabel(this.stopButton, t('stop'));
    const running = state.status.running;
    setShown(this.stopButton, running);
    setShown(this.sendButton, !running);
  }

  /** Puts the caret in the input. */
  focus(): void {
    this.textarea.focus();
  }

  /** The shown run, when a message should continue it rather than start a new task. */
  private followUpRunId(): string | undefined {
    const run = this.state?.run;
    return run?.runId !== undefined && run.lastSeq >= 0 ? run.runId : undefined;
  }

  private send(): void {
    if (!this.state || this.state.status.running) return;
    const text = this.textarea.value.trim();
    if (text === '') return;
    const runId = this.followUpRunId();
    const sent = runId !== undefined
      ? this.post({ type: 'resumeRun', runId, text })
      : this.post({ type: 'submitTask', text, planMode: this.planSelect.value as PlanMode });
    if (!sent) return;
    this.textarea.value = '';
    // A plan mode picked here is for this task; the next one starts from the settings' mode again.
    if (runId === undefined) this.planSelect.value = this.state.status.planMode ?? 'auto';
    this.persist();
  }

  private persist(): void {
    this.saveDraft({ text: this.textarea.value, planMode: this.planSelect.value as PlanMode });
  }
}

function setLabel(button: HTMLButtonElement, label: string): void {
  const last = button.lastChild;
  if (last && last.nodeType === Node.TEXT_NODE) {
    if (last.textContent !== label) last.textContent = label;
  } else {
    button.appendChild(document.createTextNode(label));
  }
}
