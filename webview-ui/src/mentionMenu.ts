import type { MentionSuggestion, WebviewIntent } from '../../src/shared/webviewProtocol';
import { h, replaceChildren, setShown } from './dom';

/** The `@word` being typed just before the caret, with where it starts; `undefined` when there is none. */
export function mentionAtCaret(text: string, caret: number): { query: string; start: number } | undefined {
  const match = /(^|[\s(["'])@("[^"\n]*|[^\s@"]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { query: match[2]!.replace(/^"/, ''), start: caret - match[2]!.length - 1 };
}

/** The `/name` being typed at the very start of the box (a prompt file), as the query `/name`; `undefined` otherwise. */
export function commandAtCaret(text: string, caret: number): { query: string; start: number } | undefined {
  const match = /^(\s*)\/([A-Za-z0-9._-]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { query: `/${match[2]!}`, start: match[1]!.length };
}

/**
 * The chat box's `@` list (and its `/` list of prompt files at the start of the box): while the user types `@word`, asks the host for matches (debounced) and
 * shows them under the input; ↑/↓ move, Enter/Tab insert, Escape closes. A listbox with an active
 * descendant, so screen readers follow the choice.
 */
export class MentionMenu {
  readonly element: HTMLElement;
  private items: readonly MentionSuggestion[] = [];
  private active = 0;
  private open?: { query: string; start: number };
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly post: (intent: WebviewIntent) => boolean,
  ) {
    this.element = h('div', { class: 'mention-menu', role: 'listbox', id: 'mention-menu', 'data-role': 'mention-menu' });
    setShown(this.element, false);
    input.setAttribute('aria-controls', 'mention-menu');
    input.addEventListener('input', () => this.onInput());
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
  }

  /** Shows the host's answer when it is for the word being typed. */
  show(answer: { query: string; items: readonly MentionSuggestion[] } | undefined): void {
    if (!answer || !this.open || answer.query !== this.open.query) return;
    this.items = answer.items;
    this.active = 0;
    this.draw();
  }

  /** Handles ↑/↓/Enter/Tab/Escape while the list is open; true when the key was used. */
  onKey(event: KeyboardEvent): boolean {
    if (!this.open || !this.items.length) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : this.items.length - 1)) % this.items.length;
      this.draw();
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      this.pick(this.items[this.active]!);
    } else if (event.key === 'Escape') {
      this.close();
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  }

  private onInput(): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const at = commandAtCaret(this.input.value, caret) ?? mentionAtCaret(this.input.value, caret);
    if (!at) return this.close();
    this.open = at;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.post({ type: 'suggestMentions', query: at.query }), 120);
  }

  private pick(item: MentionSuggestion): void {
    if (!this.open) return;
    const caret = this.input.selectionStart ?? this.input.value.length;
    const before = this.input.value.slice(0, this.open.start);
    const after = this.input.value.slice(caret);
    const inserted = item.kind === 'command' ? `/${item.insert} ` : `@${item.insert}${item.kind === 'folder' ? '' : ' '}`;
    this.input.value = before + inserted + after;
    const next = before.length + inserted.length;
    this.input.setSelectionRange(next, next);
    this.close();
    this.input.dispatchEvent(new Event('input'));
  }

  private close(): void {
    clearTimeout(this.timer);
    this.open = undefined;
    this.items = [];
    setShown(this.element, false);
    this.input.removeAttribute('aria-activedescendant');
  }

  private draw(): void {
    setShown(this.element, this.items.length > 0);
    replaceChildren(this.element, ...this.items.map((item, i) => {
      const row = h('div', { class: ['mention-item', i === this.active && 'active'], role: 'option', id: `mention-${i}`, 'aria-selected': String(i === this.active), 'data-kind': item.kind },
        h('span', { class: 'mention-kind' }, item.kind === 'file' || item.kind === 'folder' || item.kind === 'command' ? '' : '@'), item.label);
      row.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.pick(item);
      });
      return row;
    }));
    if (this.items.length) this.input.setAttribute('aria-activedescendant', `mention-${this.active}`);
  }
}
