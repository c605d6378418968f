import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h, setShown, setText } from './dom';
import { icon } from './icons';
import type { AppState } from './store';

/** Clocks the banner reads (injectable for tests). */
export interface BannerClock {
  now(): number;
  every(ms: number, tick: () => void): () => void;
}

const realClock: BannerClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

/**
 * While a model call waits to be retried (rate limited, a server error): which attempt of how many
 * and a live countdown to it, with Stop, instead of a bare "Running". Hidden when nothing waits or
 * the wait is over (a replayed history shows none).
 */
export class RetryBanner {
  readonly element: HTMLElement;
  private readonly text = h('span', { class: 'retry-text', 'data-role': 'retry-text' });
  private readonly stop: HTMLButtonElement;
  private stopTicking: (() => void) | undefined;
  private state: AppState | undefined;

  constructor(
    post: (intent: WebviewIntent) => boolean,
    private readonly clock: BannerClock = realClock,
  ) {
    this.stop = button('', () => post({ type: 'cancel' }), { kind: 'secondary', icon: icon('stop'), action: 'retry-stop' });
    this.element = h('div', { class: 'retry-banner', role: 'status', 'aria-live': 'polite', 'data-role': 'retry-banner' }, icon('warning'), this.text, this.stop);
    this.element.hidden = true;
  }

  /** Shows the wait of `state`'s run, if any, and ticks each second until it is over. */
  render(state: AppState, running: boolean): void {
    this.state = state;
    const waiting = running && state.run.retrying !== undefined && state.run.retrying.until > this.clock.now();
    if (waiting && !this.stopTicking) this.stopTicking = this.clock.every(1_000, () => this.draw());
    if (!waiting) this.halt();
    this.draw();
  }

  private draw(): void {
    const state = this.state;
    const wait = state?.run.retrying;
    const left = wait ? Math.ceil((wait.until - this.clock.now()) / 1000) : 0;
    const shown = Boolean(state && wait && left > 0 && state.status.running);
    setShown(this.element, shown);
    if (!shown || !state || !wait) {
      this.halt();
      return;
    }
    const { t } = state;
    setText(this.text, wait.of ? t('retryWaitOf', wait.attempt, wait.of, left) : t('retryWait', wait.attempt, left));
    this.element.title = wait.reason;
    this.stop.lastChild!.textContent = t('stop');
  }

  private halt(): void {
    this.stopTicking?.();
    this.stopTicking = undefined;
  }
}
