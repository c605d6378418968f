import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h, inlineCode, setShown, truncate } from './dom';
import { icon } from './icons';
import { markFileRef, renderMarkdown } from './markdown';
import type { AppState } from './store';
import type { ApprovalItem, Item, QuestionItem } from './viewModel';

/** Characters of an approval's detail (command, diff) shown in the prompt. */
const DETAIL_CHARS = 6_000;

/**
 * The approvals and questions waiting for the user, docked outside the windowed timeline so they
 * stay visible wherever the user has scrolled. Buttons disable once clicked until the host's
 * answered event removes the prompt. Keyboard: a new prompt takes the focus when this view has it
 * (Approve, or the answer field), Enter approves or answers, Escape rejects; once the last prompt
 * is answered the focus goes to `afterAnswer` (the sidebar's input).
 */
export class PromptDock {
  readonly element = h('div', { class: 'dock', 'aria-live': 'polite' });
  private readonly prompts = new Map<string, { item: Item; element: HTMLElement }>();
  /** Prompts answered here, waiting for the host's event. */
  private readonly sent = new Set<string>();
  private lang = '';
  /** A prompt answered from the keyboard had the focus: give it back when the prompt goes. */
  private returnFocus = false;

  constructor(
    private readonly post: (intent: WebviewIntent) => boolean,
    private readonly afterAnswer?: () => void,
  ) {
    this.element.hidden = true;
  }

  /**
   * Shows exactly the pending prompts of the state's run, in the one view that holds them
   * (`holdsPrompts`); the other view shows none, so no prompt is answerable in two places.
   */
  render(state: AppState): void {
    const langChanged = state.lang !== this.lang;
    this.lang = state.lang;
    const wanted = new Map<string, Item>();
    for (const id of holdsPrompts(state) ? state.run.pending : []) {
      const item = findItem(state.run.items, id);
      if (item) wanted.set(id, item);
    }
    const hadFocus = this.element.contains(document.activeElement);
    let added: HTMLElement | undefined;
    for (const [id, prompt] of this.prompts) {
      if (wanted.has(id) && !langChanged) continue;
      prompt.element.remove();
      this.prompts.delete(id);
      if (!wanted.has(id)) this.sent.delete(id);
    }
    for (const [id, item] of wanted) {
      if (this.prompts.has(id)) continue;
      const element = item.kind === 'approval' ? this.approval(item, state) : item.kind === 'question' ? this.question(item, state) : undefined;
      if (!element) continue;
      this.prompts.set(id, { item, element });
      this.element.appendChild(element);
      added ??= element;
    }
    setShown(this.element, this.prompts.size > 0);
    this.moveFocus(added, hadFocus);
  }

  /**
   * The view was brought to the front with the focus (the host does so for a prompt the user is
   * waiting to answer, and for "Show Task Panel"): the first unanswered prompt takes it, unless the
   * focus already is in the dock or the user is typing elsewhere. False when there is none.
   */
  takeFocus(): boolean {
    const active = document.activeElement;
    if (this.element.contains(active) || isTyping(active, this.element)) return false;
    const first = Array.from(this.prompts.values()).find((p) => !this.sent.has(p.item.id))?.element;
    if (!first || this.element.hidden) return false;
    focusPrompt(first);
    return true;
  }

  /** A new prompt takes the focus (unless the user is typing elsewhere); an emptied dock gives it back. */
  private moveFocus(added: HTMLElement | undefined, hadFocus: boolean): void {
    if (!document.hasFocus()) return;
    const typing = isTyping(document.activeElement, this.element);
    const first = Array.from(this.prompts.values()).find((p) => !this.sent.has(p.item.id))?.element;
    if (added && !typing) {
      this.returnFocus = false;
      focusPrompt(added);
    } else if ((hadFocus || this.returnFocus) && !this.element.contains(document.activeElement)) {
      this.returnFocus = false;
      if (first) focusPrompt(first);
      else this.afterAnswer?.();
    }
  }

  private approval(item: ApprovalItem, state: AppState): HTMLElement {
    if (item.diffPath !== undefined) return this.editPointer(item, state);
    const t = state.t;
    const reason = h('input', { type: 'text', class: 'reason-input', placeholder: t('rejectReason'), 'aria-label': t('rejectReason'), 'data-role': 'reject-reason' });
    const el = h('div', { class: 'prompt approval-prompt', 'data-call-id': item.callId, role: 'group', 'aria-label': t('approvalNeeded') });
    const answer = (intent: WebviewIntent) => {
      if (this.sent.has(item.id) || !this.post(intent)) return;
      this.sent.add(item.id);
      this.returnFocus ||= el.contains(document.activeElement);
      el.classList.add('sent');
      for (const control of Array.from(el.querySelectorAll<HTMLButtonElement | HTMLInputElement>('button, input'))) control.disabled = true;
      el.appendChild(h('div', { class: 'muted' }, t('waiting')));
    };
    const title = h('div', { class: 'prompt-title' }, icon('shield'), t('approvalNeeded'), h('span', { class: 'badge' }, t(`category.${item.category}`)));
    const subject = h('div', { class: 'prompt-subject' }, inlineCode(item.title));
    if (item.diffPath) markFileRef(subject, { path: item.diffPath });
    reason.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.isComposing) answer({ type: 'reject', callId: item.callId, reason: reason.value.trim() || undefined });
    });
    el.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.isComposing) return;
      event.preventDefault();
      answer({ type: 'reject', callId: item.callId, reason: reason.value.trim() || undefined });
    });
    el.append(title, subject,
      item.detail ? h('pre', { class: 'prompt-detail' }, truncate(item.detail, DETAIL_CHARS)) : '',
      h('div', { class: 'buttons' },
        button(t('approve'), () => answer({ type: 'approve', callId: item.callId }), { kind: 'primary', action: 'approve' }),
        button(t('alwaysAllow', t(`category.${item.category}`)), () => answer({ type: 'approve', callId: item.callId, always: true }), { action: 'always' }),
        button(t('reject'), () => answer({ type: 'reject', callId: item.callId, reason: reason.value.trim() || undefined }), { action: 'reject' })),
      reason,
      h('div', { class: 'muted prompt-keys' }, t('approvalKeys')));
    return el;
  }

  /** An edit is kept or undone in its diff editor (labelled, with keys): here only a pointer to it. */
  private editPointer(item: ApprovalItem, state: AppState): HTMLElement {
    const t = state.t;
    const subject = h('span', { class: 'prompt-subject' }, inlineCode(item.title));
    if (item.diffPath) markFileRef(subject, { path: item.diffPath });
    return h('div', { class: 'prompt edit-pointer', 'data-call-id': item.callId, role: 'group', 'aria-label': t('reviewInEditor') },
      h('div', { class: 'prompt-title' }, icon('shield'), t('reviewInEditor')), subject,
      h('div', { class: 'buttons' }, button(t('showChange'), () => this.post({ type: 'revealReview', callId: item.callId }), { kind: 'secondary', action: 'reveal-review' })));
  }

  private question(item: QuestionItem, state: AppState): HTMLElement {
    const t = state.t;
    const el = h('div', { class: 'prompt question-prompt', 'data-call-id': item.callId, role: 'group', 'aria-label': t('question') });
    const input = h('input', { type: 'text', class: 'answer-input', placeholder: t('answerPlaceholder'), 'aria-label': t('answerPlaceholder'), 'data-role': 'answer-input' });
    const answer = (text: string) => {
      if (text.trim() === '' || this.sent.has(item.id) || !this.post({ type: 'answer', callId: item.callId, answer: text })) return;
      this.sent.add(item.id);
      this.returnFocus ||= el.contains(document.activeElement);
      el.classList.add('sent');
      for (const control of Array.from(el.querySelectorAll<HTMLButtonElement | HTMLInputElement>('button, input'))) control.disabled = true;
      el.appendChild(h('div', { class: 'muted' }, t('answered', text)));
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.isComposing) answer(input.value);
    });
    const question = h('div', { class: 'markdown' });
    question.innerHTML = renderMarkdown(item.question);
    el.append(h('div', { class: 'prompt-title' }, icon('question'), t('question')), question);
    if (item.options.length > 0) el.appendChild(h('div', { class: 'buttons options' }, ...item.options.map((option) => button(option, () => answer(option), { action: 'option' }))));
    el.appendChild(h('div', { class: 'answer-row' }, input, button(t('answer'), () => answer(input.value), { kind: 'primary', action: 'answer' })));
    return el;
  }
}

/** Whether this webview shows the run's prompts (the host says which one the user is looking at). */
export function holdsPrompts(state: Pick<AppState, 'view' | 'status'>): boolean {
  return (state.status.promptsIn ?? 'sidebar') === state.view;
}

/** The user has words in a text field outside the dock: a prompt must not pull the caret away from them. */
function isTyping(active: Element | null, dock: HTMLElement): boolean {
  return (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.value !== '' && !dock.contains(active);
}

/** Focuses a prompt's main control: Approve, else the answer field. */
function focusPrompt(prompt: HTMLElement): void {
  prompt.querySelector<HTMLElement>('[data-action="approve"], [data-role="answer-input"]')?.focus();
}

function findItem(items: readonly Item[], id: string): Item | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.id === id) return items[i];
  return undefined;
}
