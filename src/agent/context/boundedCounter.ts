import type { TokenCounter } from './tokenCounter';

/** Runs of non-space characters longer than this are counted in slices of this size. */
const MAX_RUN = 256;

/**
 * Wraps a BPE counter so that long runs without whitespace (a 20 kB line of `=`, base64, minified
 * code) are counted slice by slice: BPE merging is quadratic in the length of one pre-token, and a
 * single such line can otherwise take seconds. The count is within a token per slice of exact; a
 * text over `SAMPLE_ABOVE` characters is estimated from samples, in fixed work.
 */
export function boundedTokenCounter(inner: TokenCounter): TokenCounter {
  const exact = slicedCounter(inner);
  return { count: (text) => (text.length > SAMPLE_ABOVE ? sampledCount(exact, text) : exact.count(text)) };
}

/** Texts longer than this (a multi-megabyte tool argument) are counted from samples: see `sampledCount`. */
export const SAMPLE_ABOVE = 1 << 20;
/** How many evenly spaced samples, and their length; together a quarter of `SAMPLE_ABOVE`. */
const SAMPLES = 16;
const SAMPLE_CHARS = 1 << 14;

/**
 * Tokens of a huge text estimated from `SAMPLES` evenly spaced windows, scaled by length: counting
 * 50 MB exactly costs seconds on the task's path, and at that size only the order of magnitude
 * decides anything (it is far over every context window; the budget counts the provider's usage
 * report when there is one). Within a few percent for text of one kind; the work is fixed,
 * whatever the length.
 */
function sampledCount(counter: TokenCounter, text: string): number {
  let tokens = 0;
  let chars = 0;
  const step = (text.length - SAMPLE_CHARS) / (SAMPLES - 1);
  for (let i = 0; i < SAMPLES; i++) {
    let start = Math.floor(i * step);
    let end = start + SAMPLE_CHARS;
    // Never cut a surrogate pair: a half counts as a replacement character.
    if (isLowSurrogate(text.charCodeAt(start))) start += 1;
    if (isLowSurrogate(text.charCodeAt(end))) end += 1;
    tokens += counter.count(text.slice(start, end));
    chars += end - start;
  }
  return Math.round((tokens * text.length) / chars);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The exact count, with long runs counted in slices (see `boundedTokenCounter`). */
function slicedCounter(inner: TokenCounter): TokenCounter {
  return {
    count(text: string): number {
      let total = 0;
      let last = 0;
      // A scan, not a regex: `\S{257,}` over a run of megabytes overflows V8's regex stack.
      for (const [start, end] of longRuns(text)) {
        if (start > last) total += inner.count(text.slice(last, start));
        total += countInSlices(inner, text.slice(start, end));
        last = end;
      }
      return last === 0 ? inner.count(text) : last < text.length ? total + inner.count(text.slice(last)) : total;
    },
  };
}

/** What JavaScript's `\s` matches. */
function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) || code === 32 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/** `[start, end)` of every run of more than `MAX_RUN` non-space characters, in one linear pass. */
function* longRuns(text: string): Generator<[number, number]> {
  let runStart = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isSpace(text.charCodeAt(i));
    if (!space) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0 && i - runStart > MAX_RUN) yield [runStart, i];
    runStart = -1;
  }
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
