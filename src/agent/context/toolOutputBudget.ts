import type { TokenCounter } from './tokenCounter';
import type { ToolOutputStore } from './toolOutputStore';
import { truncateHeadTail, type CutHint, type OmittedSpan } from './truncate';

/** A tool output as the model will see it. */
export interface FittedOutput {
  text: string;
  /** Characters cut from the middle; 0 when the output fitted. */
  omittedChars: number;
}

/**
 * Share of the prompt budget one tool output may take. A test log of 8k tokens in a 20k window
 * leaves room for two more; at a twentieth the window holds the task, its history and a run of
 * outputs, and the prompt stays append-only (cache-stable) for longer. What is cut is kept for
 * `read_output`, so nothing is lost.
 */
export const TOOL_OUTPUT_SHARE = 0.05;
/** The share never brings the cap below this (a tiny window still gets a useful piece of text). */
export const MIN_TOOL_OUTPUT_TOKENS = 512;

/** A run's per-result token cap: the configured cap, lowered to `share` of the prompt budget but never below 512 tokens. */
export function toolResultBudget(configured: number, inputTokens: number, share = TOOL_OUTPUT_SHARE): number {
  const cap = Math.max(1, Math.floor(configured));
  const ofBudget = Math.max(MIN_TOOL_OUTPUT_TOKENS, Math.floor(inputTokens * Math.min(1, Math.max(0, share))));
  return Math.min(cap, ofBudget);
}

/**
 * Cuts a tool output for the model like `fitToolOutput`; a cut output is kept whole in `store`
 * and its marker says which lines are left out and how to read them with `read_output` (an output
 * too big to keep gets the tool's own advice instead).
 */
export function fitAndKeep(content: string, call: { id: string; name: string }, maxTokens: number, counter: TokenCounter, store: ToolOutputStore): FittedOutput {
  const key = store.canKeep(content.length) ? store.keyFor(call.id) : undefined;
  const fitted = fitToolOutput(content, maxTokens, counter, key === undefined ? readMoreHint(call.name) : readOutputHint(key));
  if (key !== undefined && fitted.omittedChars > 0) store.put(key, content);
  return fitted;
}

/** Marker advice for an output kept whole in the run's store: which lines are left out and how to read them. */
export function readOutputHint(callId: string): (span: OmittedSpan) => string {
  return (span) =>
    `lines ${span.firstLine}-${span.lastLine} of ${span.totalLines} are left out here; ` +
    `read them with read_output {"call_id": ${JSON.stringify(callId)}, "start_line": ${span.firstLine}}`;
}

/** How the model can get at what was cut, worded for the tool that produced the output. */
export function readMoreHint(toolName: string): string {
  const words = new Set(toolName.toLowerCase().split(/[^a-z0-9]+/));
  const has = (...candidates: string[]) => candidates.some((word) => words.has(word));
  if (has('fetch')) return `call ${toolName} again with \`start\` to read the page in parts`;
  if (has('read', 'view', 'cat')) return `call ${toolName} again with start_line/end_line to read the omitted lines`;
  if (has('search', 'grep', 'find', 'glob', 'list')) return 'narrow the search (a more specific pattern, path or glob) to see the rest';
  if (has('command', 'shell', 'bash', 'exec', 'run', 'terminal')) {
    return 'run the command again with its output filtered (e.g. `| grep ...`, `| tail -n 50`) or redirected to a file you read in parts';
  }
  return 'ask for a smaller part (narrower arguments) to see the omitted text';
}

/**
 * Cuts `content` to at most `maxTokens` tokens, keeping head and tail with a marker carrying `hint`.
 * Cheap for small outputs (no tokenising when the length alone proves it fits).
 */
export function fitToolOutput(content: string, maxTokens: number, counter: TokenCounter, hint: CutHint): FittedOutput {
  const budget = Math.max(1, Math.floor(maxTokens));
  // A token is at least one UTF-8 byte and a UTF-16 unit is at most three bytes.
  if (content.length * 3 <= budget) return { text: content, omittedChars: 0 };
  // Huge outputs are not tokenised whole: start from a generous character estimate instead.
  const tokens = content.length > budget * 16 ? Number.POSITIVE_INFINITY : counter.count(content);
  if (tokens <= budget) return { text: content, omittedChars: 0 };
  let maxChars = Number.isFinite(tokens) ? Math.floor(((content.length * budget) / tokens) * 0.95) : budget * 8;
  for (let attempt = 0; attempt < 6 && maxChars > 0; attempt++) {
    const cut = truncateHeadTail(content, maxChars, hint);
    const cutTokens = counter.count(cut.text);
    if (cutTokens <= budget) return cut;
    maxChars = Math.floor(maxChars * (budget / cutTokens) * 0.9);
  }
  // Only a tiny budget gets here: the marker alone is what fits.
  const cut = truncateHeadTail(content, 0, hint);
  return { text: cut.text.trim(), omittedChars: content.length };
}
