import type { TokenCounter } from './tokenCounter';

/** Runs of non-space characters longer than this are counted in slices of this size. */
const MAX_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, 'g');

/**
 * Wraps a BPE counter so that long runs without whitespace (a 20 kB line of `=`, base64, minified
 * code) are counted slice by slice: BPE merging is quadratic in the length of one pre-token, and a
 * single such line can otherwise take seconds. The count is within a token per slice of exact.
 */
export function boundedTokenCounter(inner: TokenCounter): TokenCounter {
  return {
    count(text: string): number {
      LONG_RUN.lastIndex = 0;
      if (!LONG_RUN.test(text)) return inner.count(text);
      LONG_RUN.lastIndex = 0;
      let total = 0;
      let last = 0;
      for (const match of text.matchAll(LONG_RUN)) {
        if (match.index > last) total += inner.count(text.slice(last, match.index));
        total += countInSlices(inner, match[0]);
        last = match.index + match[0].length;
      }
      if (last < text.length) total += inner.count(text.slice(last));
      return total;
    },
  };
}

function countInSlices(inner: TokenCounter, run: string): number {
  let total = 0;
  for (let start = 0; start < run.length; ) {
    let end = Math.min(run.length, start + MAX_RUN);
    // Never split a surrogate pair: the halves would count as replacement characters.
    const code = run.charCodeAt(end - 1);
    if (end < run.length && code >= 0xd800 && code <= 0xdbff) end += 1;
    total += inner.count(run.slice(start, end));
    start = end;
  }
  return total;
}
