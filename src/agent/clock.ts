import { CancelledError } from './errors';
import type { Clock } from './ports';

/** Wall-clock time; `sleep` rejects with `CancelledError` when the signal aborts. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new CancelledError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
