import type { PlanMode } from '../../src/shared/vocabulary';
import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h, setShown } from './dom';
import { icon } from './icons';
import { Attachments, droppedUris, imageFiles } from './attachments';
import { MentionMenu } from './mentionMenu';
import type { AppState } from './store';
import type { Translate } from './strings';
import { VisionNote } from './visionNote';
import { PermissionSwitch } from './permissionSwitch';

/** What the composer remembers across webview reloads. */
export interface Draft {
  text: string;
  planMode: PlanMode;
}

/**
 * The task input: Enter sends, Shift+Enter adds a line (and Enter while an IME is composing does
 * nothing). Sends `submitTask` for a new task and `resumeRun` to follow up on the shown run. While a
 * run is going it stays open: Stop shows beside Send, and Send queues a message for the running task
 * (`sendMessage`), listed above the input until the timeline shows where the core delivered it.
 */
export class Composer {
  readonly element: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly planSelect: HTMLSelectElement;
  private readonly permission: PermissionSwitch;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private state?: AppState;
  private readonly mentions: MentionMenu;
  private readonly attachments: Attachments;
  private readonly visionNote: VisionNote;
  /** Messages sent to the running task and not yet delivered (the timeline shows them once delivered). */
  private queued: string[] = [];
  private readonly queuedList: HTMLElement = h('div', { class: 'queued-messages', 'data-role': 'queued-messages', 'aria-live': 'polite' });

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
    this.attachments = new Attachments(() => {
      this.drawVision();
      this.textarea.focus();
    });
    this.visionNote = new VisionNote(post, () => this.sendWithoutImages());
    this.textarea.addEventListener('paste', (event) => {
      const files = imageFiles(event.clipboardData);
      if (files.length === 0) return;
      event.preventDefault();
      void this.attachments.add(files);
    });
    this.planSelect = h('select', { class: 'plan-mode', 'data-role': 'plan-mode' });
    for (const mode of ['auto', 'always', 'never'] as const) this.planSelect.appendChild(h('option', { value: mode }));
    this.planSelect.value = draft.planMode;
    this.planSelect.addEventListener('change', () => this.persist());
    this.permission = new PermissionSwitch(post);
    this.sendButton = button('', () => this.send(), { kind: 'primary', icon: icon('send'), action: 'send' });
    this.stopButton = button('', () => this.post({ type: 'cancel' }), { kind: 'secondary', icon: icon('stop'), action: 'stop' });
    this.element = h('div', { class: 'composer' },
      this.mentions.element,
      this.attachments.element,
      this.visionNote.element,
      this.queuedList,
      this.textarea,
      h('div', { class: 'composer-row' }, this.planSelect, this.permission.select, h('span', { class: 'composer-actions' }, this.stopButton, this.sendButton)),
      this.permission.note);
    this.element.addEventListener('dragover', (event) => {
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    });
    this.element.addEventListener('drop', (event) => this.onDrop(event));
  }

  /**
   * Images become attachments; files and folders from the Explorer (`text/uri-list`) become
   * `@mentions`, which the host turns into workspace paths (`mentionUris`); other dropped files
   * have no path the agent could read, so the user is told to drop them from the Explorer.
   */
  private onDrop(event: DragEvent): void {
    event.preventDefault();
    const images = imageFiles(event.dataTransfer);
    if (images.length) void this.attachments.add(images);
    const uris = droppedUris(event.dataTransfer);
    if (uris.length) this.post({ type: 'mentionUris', uris });
    else if (!images.length && (event.dataTransfer?.files.length ?? 0) > 0 && this.state) this.attachments.say(this.state.t('dropFromExplorer'));
    this.textarea.focus();
  }

  /** Inserts `@path` mentions (dropped files, as the host resolved them) at the caret. */
  insertMentions(paths: readonly string[]): void {
    if (!paths.length) return;
    const caret = this.textarea.selectionStart ?? this.textarea.value.length;
    const before = this.textarea.value.slice(0, caret);
    const text = `${before && !/\s$/.test(before) ? ' ' : ''}${paths.map((p) => `@${/\s/.test(p) ? `"${p}"` : p}`).join(' ')} `;
    this.textarea.value = before + text + this.textarea.value.slice(caret);
    const next = caret + text.length;
    this.textarea.setSelectionRange(next, next);
    this.persist();
  }

  /** Updates labels and which button shows. */
  render(state: AppState): void {
    if (state.mentions !== this.state?.mentions) this.mentions.show(state.mentions);
    if (state.dropped !== this.state?.dropped && state.dropped) {
      this.insertMentions(state.dropped.paths);
      this.attachments.say(state.dropped.refused ? state.t('dropOutside', String(state.dropped.refused)) : '');
    }
    if (state.focusRequests !== this.state?.focusRequests && this.state) this.focus();
    this.state = state;
    const t: Translate = state.t;
    this.attachments.render(t);
    const followUp = this.followUpRunId() !== undefined;
    const running = state.status.running;
    this.textarea.placeholder = running ? t('runningPlaceholder') : followUp ? t('followUpPlaceholder') : t('composerPlaceholder');
    this.textarea.setAttribute('aria-label', t('composerLabel'));
    this.planSelect.setAttribute('aria-label', t('planModeLabel'));
    this.planSelect.title = t('planModeLabel');
    setShown(this.planSelect, !followUp);
    const labels = { auto: t('planAuto'), always: t('planAlways'), never: t('planNever') } as const;
    for (const option of Array.from(this.planSelect.options)) option.textContent = labels[option.value as PlanMode];
    this.permission.render(state);
    setLabel(this.sendButton, t('send'));
    setLabel(this.stopButton, t('stop'));
    setShown(this.stopButton, running);
    this.drawQueued(state);
    this.drawVision();
  }

  /** The no-vision note under the pictures; Send is not offered with pictures no model would see. */
  private drawVision(): void {
    if (!this.state) return;
    this.visionNote.render(this.state.t, this.attachments.current.length, this.state.status.readsImages);
    this.sendButton.disabled = this.visionNote.blocks;
  }

  /** The queued messages: each leaves the list once a delivered message with its words is on the timeline (or the run ended). */
  private drawQueued(state: AppState): void {
    const delivered = state.run.items.filter((item) => item.kind === 'message').map((item) => (item as { text: string }).text);
    this.queued = state.status.running ? this.queued.filter((text) => {
      const at = delivered.indexOf(text);
      if (at < 0) return true;
      delivered.splice(at, 1);
      return false;
    }) : [];
    this.queuedList.replaceChildren(...this.queued.map((text) => h('div', { class: 'queued-message muted', 'data-role': 'queued-message' }, state.t('messageQueued', text))));
    setShown(this.queuedList, this.queued.length > 0);
  }

  /** "Send without the picture": the words go as they are, the pictures are dropped. */
  private sendWithoutImages(): void {
    if (!this.state || this.state.status.running) return;
    this.attachments.clear();
    this.drawVision();
    this.send();
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
    if (!this.state) return;
    const text = this.textarea.value.trim();
    if (text === '') return;
    if (this.state.status.running) {
      this.sendWhileRunning(text);
      return;
    }
    const runId = this.followUpRunId();
    const images = this.attachments.current;
    // No model would see the pictures: the note under them says so and offers the set-up.
    if (images.length && this.visionNote.blocks) return;
    if (runId !== undefined && images.length) {
      // A follow-up continues a stored conversation; its images would have no vision pass to go through.
      this.attachments.say(this.state.t('imagesNewTaskOnly'));
      return;
    }
    const sent = runId !== undefined
      ? this.post({ type: 'resumeRun', runId, text })
      : this.post({ type: 'submitTask', text, planMode: this.planSelect.value as PlanMode, ...(images.length ? { images: [...images] } : {}) });
    if (!sent) return;
    this.textarea.value = '';
    // A plan mode picked here is for this task; the next one starts from the settings' mode again.
    if (runId === undefined) this.planSelect.value = this.state.status.planMode ?? 'auto';
    this.attachments.clear();
    this.drawVision();
    this.persist();
  }

  /** Queues the words for the running task; pictures wait for a new task (the running one has no vision pass for them). */
  private sendWhileRunning(text: string): void {
    if (!this.state || this.attachments.current.length) {
      if (this.state) this.attachments.say(this.state.t('imagesNewTaskOnly'));
      return;
    }
    if (!this.post({ type: 'sendMessage', text })) return;
    this.queued.push(text);
    this.textarea.value = '';
    this.persist();
    this.drawQueued(this.state);
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
