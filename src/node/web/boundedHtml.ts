import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../../agent/errors';
import type { ReadablePage } from './htmlToMarkdown';
import { htmlToPlainText } from './htmlToPlainText';

/** The budget of one conversion: what is left of the fetch's time, and the worker's heap. */
export interface HtmlBudget {
  /** Milliseconds the conversion may take; the worker is ended when they are up. */
  timeMs: number;
  /** Old-generation heap of the worker, in MB. */
  heapMb?: number;
  signal?: AbortSignal;
}

/** A converted page; `note` says when the plain-text fallback was used, and why. */
export interface ConvertedPage extends ReadablePage {
  format: 'markdown' | 'text';
  note?: string;
}

/** Heap of the conversion worker: enough for ordinary pages many times over, far below what a hostile one would take. */
export const HTML_WORKER_HEAP_MB = 256;
/** Nesting deeper than this is never handed to the DOM path (Readability and Turndown recurse per level). */
export const MAX_HTML_DEPTH = 1_500;
/** Pages with more elements than this skip the DOM path: parsing and converting them takes longer than any fetch may (seconds per 10,000). */
export const MAX_HTML_ELEMENTS = 30_000;
/** Share of the remaining time kept for the plain-text fallback after the worker is ended. */
const FALLBACK_RESERVE = 0.1;

/**
 * The shape of `html` from one linear pass over its tags: the deepest element nesting (void and
 * often-unclosed elements ignored) and the number of start tags; stops once past either limit.
 */
export function htmlShape(html: string): { depth: number; elements: number } {
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    if (!match[1]) elements++;
    if (elements > MAX_HTML_ELEMENTS) break;
    if (match[3] || /^(area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr|p|li|option|td|th|tr)$/i.test(match[2]!)) continue;
    depth = match[1] ? Math.max(0, depth - 1) : depth + 1;
    if (depth > deepest && (deepest = depth) > MAX_HTML_DEPTH) break;
  }
  return { depth: deepest, elements };
}

/** The worker's script: the built `html-worker.js` beside the bundle, or the TypeScript source through tsx (tests, development). */
function workerSource(): { code: string; eval: true } | { code: string; eval: false } {
  const built = path.join(__dirname, 'html-worker.js');
  if (existsSync(built)) return { code: built, eval: false };
  const source = path.join(__dirname, 'htmlWorker.ts');
  return { code: `require('tsx/cjs'); require(${JSON.stringify(source)});`, eval: true };
}

/**
 * HTML to markdown off the main thread, bounded: Readability + Turndown run in a worker thread
 * with a heap limit and the fetch's remaining time. When the worker runs out of either, fails
 * (a stack overflow on a deeply nested page), or the page is nested too deeply to try, the worker is
 * ended and the page comes back as plain text from a linear tag stripper, with a note saying so; a
 * page too large to convert in time goes to the fallback at once.
 * Cancellation ends the worker and throws `CancelledError`.
 */
export async function convertHtmlBounded(html: string, url: string, budget: HtmlBudget): Promise<ConvertedPage> {
  const fallback = (why: string): ConvertedPage => {
    const plain = htmlToPlainText(html);
    return { format: 'text', markdown: plain.text, ...(plain.title ? { title: plain.title } : {}), note: `${why}; shown as plain text without links or formatting.` };
  };
  const shape = htmlShape(html);
  if (shape.depth > MAX_HTML_DEPTH) return fallback(`The page nests elements more than ${MAX_HTML_DEPTH} deep`);
  if (shape.elements > MAX_HTML_ELEMENTS) return fallback(`The page has more than ${MAX_HTML_ELEMENTS} elements, too many to convert in time`);
  // The fallback's share is kept back, so the whole fetch ends within its limit.
  const timeMs = Math.floor(budget.timeMs * (1 - FALLBACK_RESERVE));
  if (timeMs <= 0) return fallback('The fetch used up its time limit downloading the page');
  const outcome = await inWorker(html, url, { ...budget, timeMs });
  if (outcome.ok) return { format: 'markdown', ...outcome.page };
  return fallback(outcome.why);
}

type WorkerOutcome = { ok: true; page: ReadablePage } | { ok: false; why: string };

function inWorker(html: string, url: string, budget: HtmlBudget): Promise<WorkerOutcome> {
  if (budget.signal?.aborted) return Promise.reject(new CancelledError());
  const source = workerSource();
  const worker = new Worker(source.code, {
    eval: source.eval,
    resourceLimits: { maxOldGenerationSizeMb: budget.heapMb ?? HTML_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    // The worker's own output is not ours to print (the CLI's stdout may be JSON lines): read and dropped.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return new Promise<WorkerOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      budget.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    const onAbort = () => finish(() => reject(new CancelledError()));
    const timer = setTimeout(() => finish(() => resolve({ ok: false, why: `Converting the page took longer than the ${Math.round(budget.timeMs / 1000)} s left of the fetch's time limit` })), budget.timeMs);
    budget.signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: { ok: true; page: ReadablePage } | { ok: false; message: string }) =>
      finish(() => resolve(message.ok ? { ok: true, page: message.page } : { ok: false, why: `The page could not be converted (${message.message})` })),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      finish(() => resolve({ ok: false, why: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `Converting the page needed more than ${budget.heapMb ?? HTML_WORKER_HEAP_MB} MB` : `The page could not be converted (${error.message})` })),
    );
    worker.once('exit', (code) => finish(() => resolve({ ok: false, why: `The page converter stopped (exit code ${code})` })));
    worker.postMessage({ html, url });
  });
}
