import { clip, h } from './dom';
import type { AppState } from './store';
import type { RunView } from './viewModel';

/** Characters of an assistant message read out; the rest is on screen. */
const SPOKEN_CHARS = 400;

/**
 * A visually hidden polite live region: screen readers hear each finished assistant message,
 * each plan step's status change and the run's outcome, once, without the streaming noise of
 * every delta (a message is read when it stops streaming). Replays of stored runs are not read.
 */
export class Announcer {
  readonly element = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-role': 'announcer' });
  private runId: string | undefined;
  private spoken = new Set<string>();
  private steps = new Map<string, string>();
  private outcome: string | undefined;
  private primed = false;

  /** `speak` decides whether this view speaks now (e.g. only while it has focus). */
  constructor(private readonly speak: () => boolean = () => true) {}

  /** Compares with what was last seen and announces what is new. */
  render(state: AppState): void {
    const run = state.run;
    if (run.runId !== this.runId) {
      this.runId = run.runId;
      this.spoken.clear();
      this.steps.clear();
      this.outcome = undefined;
      // What a run already shows when it is opened (history, a reload) is not news.
      this.primed = false;
    }
    const lines = this.news(run, state);
    const quiet = !this.primed;
    this.primed = run.lastSeq >= 0;
    if (quiet || lines.length === 0 || !this.speak()) return;
    // A new text node each time, so the same words twice are still read.
    this.element.textContent = '';
    this.element.appendChild(document.createTextNode(lines.join(' ')));
  }

  private news(run: RunView, state: AppState): string[] {
    const t = state.t;
    const lines: string[] = [];
    for (const item of run.items) {
      if (item.kind !== 'text' || item.streaming || this.spoken.has(item.id) || item.text.trim() === '') continue;
      this.spoken.add(item.id);
      lines.push(clip(item.text.trim(), SPOKEN_CHARS));
    }
    run.plan?.steps.forEach((step, index) => {
      if (this.steps.get(step.id) === step.status) return;
      const known = this.steps.has(step.id) || step.status !== 'pending';
      this.steps.set(step.id, step.status);
      if (known) lines.push(t('stepAnnounce', index + 1, t(`step.${step.status}`), step.title));
    });
    if (run.outcome && run.outcome.outcome !== this.outcome) {
      this.outcome = run.outcome.outcome;
      lines.push([t(`outcome.${run.outcome.outcome}`), run.outcome.reason ?? ''].filter(Boolean).join(': '));
    }
    return lines;
  }
}
