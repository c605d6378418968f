import type { AgentEvent } from '../../../shared/events';

/**
 * Decides when a new approval or question takes the keyboard focus away from where it is. The user
 * is "on the keyboard path" once they answered a prompt themselves (in a webview, in the diff
 * editor with Ctrl+Enter, in a quick input) and until they go to work in an ordinary editor: then
 * the next prompt that waits for them must be reachable with Enter, not 15 Tabs away. A prompt that
 * arrives while the user works elsewhere never steals the focus (the status bar and a notification
 * tell them). Edits need nothing here: their diff editor opens with the focus.
 */
export class PromptFocus {
  private onKeyboardPath = false;

  constructor(private readonly focusPrompts: () => void) {}

  /** Feeds every event of the run the user sees; may call `focusPrompts` (once per new prompt). */
  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'approval_answered':
        // Auto-approved calls were never the user's to answer: they say nothing about the keyboard.
        if (!event.auto) this.onKeyboardPath = true;
        return;
      case 'question_answered':
        this.onKeyboardPath = true;
        return;
      case 'approval_requested':
        if (event.diff === undefined && this.onKeyboardPath) this.focusPrompts();
        return;
      case 'question_asked':
        if (this.onKeyboardPath) this.focusPrompts();
        return;
      default:
        return;
    }
  }

  /** The user accepted a plan in review (from the panel): the prompts that follow come to them too. */
  answered(): void {
    this.onKeyboardPath = true;
  }

  /** The user typed or clicked in an ordinary editor: later prompts wait for them without taking the focus. */
  workedElsewhere(): void {
    this.onKeyboardPath = false;
  }

  /** True while a new prompt would take the focus. */
  get active(): boolean {
    return this.onKeyboardPath;
  }
}
