/** Longest delay setTimeout honours; anything longer means "no timeout". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Resolves with why the command must stop (timeout or abort); `dispose` clears the timer and listener. */
export function stopTrigger(timeoutMs: number, signal: AbortSignal): { reason: Promise<'timeout' | 'cancel'>; dispose(): void } {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const reason = new Promise<'timeout' | 'cancel'>((resolve) => {
    // setTimeout fires at once for delays past 2^31-1 ms; anything that long means "no timeout".
    if (Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS) {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    }
    onAbort = () => resolve('cancel');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    reason,
    dispose() {
      if (timer) clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    },
  };
}

/** The promise's value, or `false` if it did not settle within `ms`. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | false> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
