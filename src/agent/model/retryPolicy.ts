/** Something that answers header look-ups (`Headers`, or a test double). */
export interface HeaderLookup {
  get(name: string): string | null;
}

/** Retry timing knobs; all in milliseconds. */
export interface RetryTiming {
  /** Delay before the first retry when the server gives no hint; doubles each retry. */
  baseDelayMs: number;
  /** Cap on the computed exponential delay. */
  maxBackoffMs: number;
  /** The longest server-requested wait we honour; a longer one ends the retries at once. */
  maxRetryAfterMs: number;
}

/** Defaults: 1 s, 2 s, 4 s, ... capped at 30 s; a server may ask for up to 60 s. */
export const DEFAULT_RETRY_TIMING: RetryTiming = { baseDelayMs: 1_000, maxBackoffMs: 30_000, maxRetryAfterMs: 60_000 };

/** Share of the backoff that jitter may take off, so clients that failed together do not retry together. */
const JITTER_SHARE = 0.25;

/**
 * The wait a server asked for, in ms: `retry-after-ms` (ms), else `retry-after` as seconds or as an
 * HTTP date (relative to `nowMs`). `undefined` when absent or unparsable; never negative.
 */
export function parseRetryAfter(headers: HeaderLookup | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value)) return Math.max(0, Math.ceil(value));
  }
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * Exponential backoff for the `retry`-th retry (1-based): `base * 2^(retry-1)`, capped at
 * `maxBackoffMs`, minus a random share of up to 25 % (`random` returns values in [0, 1)).
 */
export function backoffDelay(retry: number, timing: RetryTiming = DEFAULT_RETRY_TIMING, random: () => number = Math.random): number {
  const exponential = Math.min(timing.maxBackoffMs, timing.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential * (1 - JITTER_SHARE * random()));
}

/** What to do before the next retry: wait `delayMs`, or give up because the server asked for too long a wait. */
export type RetryDelay = { delayMs: number } | { tooLongMs: number };

/**
 * The delay before the `retry`-th retry: the server's `retry-after-ms` / `retry-after` when present
 * (a wait above `maxRetryAfterMs` gives up, e.g. a daily quota), else exponential backoff with jitter.
 */
export function retryDelay(
  retry: number,
  headers: HeaderLookup | undefined,
  nowMs: number,
  timing: RetryTiming = DEFAULT_RETRY_TIMING,
  random: () => number = Math.random,
): RetryDelay {
  const requested = parseRetryAfter(headers, nowMs);
  if (requested === undefined) return { delayMs: backoffDelay(retry, timing, random) };
  if (requested > timing.maxRetryAfterMs) return { tooLongMs: requested };
  return { delayMs: requested };
}

/** What one wait before a retry needs: the failure's give-up and headers, the run's clock and limits. */
export interface RetryWait {
  retries: number;
  maxRetries: number;
  failure: { reason: string; headers?: HeaderLookup; giveUp: (retries: number, tooLongMs?: number) => Error };
  clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  timing: RetryTiming;
  random: () => number;
  /** Says the retry (the adapter's log line and the loop's `onRetry`). */
  announce: (attempt: number, delayMs: number) => void;
  signal: AbortSignal;
}

/**
 * The one retry step every model adapter takes: gives up (throws the failure's own error) past
 * `maxRetries` or when the server asks to wait too long, else announces the retry, sleeps on the
 * clock and returns the new retry count. Cancellation rejects from the sleep.
 */
export async function waitToRetry(wait: RetryWait): Promise<number> {
  if (wait.retries >= wait.maxRetries) throw wait.failure.giveUp(wait.retries);
  const next = retryDelay(wait.retries + 1, wait.failure.headers, wait.clock.now(), wait.timing, wait.random);
  if ('tooLongMs' in next) throw wait.failure.giveUp(wait.retries, next.tooLongMs);
  const attempt = wait.retries + 1;
  wait.announce(attempt, next.delayMs);
  await wait.clock.sleep(next.delayMs, wait.signal);
  return attempt;
}
