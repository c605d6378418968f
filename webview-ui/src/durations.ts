import type { Translate } from './strings';

/** A call's or a run's time: how long it ran and, apart, how long it waited for the user ("1.3 s · waited for you 96.7 s"). */
export function durationWords(t: Translate, ranMs: number, waitedMs: number | undefined): string {
  return t('seconds', (ranMs / 1000).toFixed(1)) + waitingWords(t, waitedMs);
}

/** " · waited for you 96.7 s", or nothing when nobody was waited for (an auto-approved call waits 0.0 s: not worth saying). */
export function waitingWords(t: Translate, waitedMs: number | undefined): string {
  return waitedMs !== undefined && waitedMs >= 50 ? ` · ${t('durationWaiting', (waitedMs / 1000).toFixed(1))}` : '';
}
