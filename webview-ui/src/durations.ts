import type { Translate } from './strings';

/** A call's or a run's time: how long it ran and, apart, how long it waited for the user ("1.3 s · waited for you 96.7 s"). */
export function durationWords(t: Translate, ranMs: number, waitedMs: number | undefined): string {
  const ran = t('seconds', (ranMs / 1000).toFixed(1));
  return waitedMs ? `${ran} · ${t('durationWaiting', (waitedMs / 1000).toFixed(1))}` : ran;
}
