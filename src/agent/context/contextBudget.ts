import type { ChatMessage, ModelToolCall } from '../model/types';
import { recentTurnsStart } from './messageHistory';
import { truncateHeadTail } from './truncate';

/** Start of every elided tool output; lets a later pass recognise (and skip) what is already elided. */
export const ELIDED_PREFIX = '[output elided to save context:';

/** Older assistant texts are cut to this many characters in the second pass. */
const KEEP_TEXT_CHARS = 600;
/** Says an assistant text was shortened; a shortened text (longer than the cut, with it) is never shortened again. */
const SHORTENED_NOTE = 'older text shortened to save context';
/** Older tool call arguments longer than this are replaced in the second pass (file contents, big edits). */
const KEEP_ARGUMENT_CHARS = 400;

/** What `fitToBudget` needs; `count` should be cached (see MessageTokenCache). */
export interface BudgetOptions {
  /** Tokens the messages may take (the prompt budget minus the tool schemas). */
  maxTokens: number;
  count: (message: ChatMessage) => number;
  /** Messages never touched: the system prompt, the task, pinned ones. */
  isProtected: (message: ChatMessage) => boolean;
  /** The last N assistant turns (with their tool outputs) are kept whole. */
  keepRecentTurns: number;
  /**
   * Once over `maxTokens`, elide down to this many tokens (default `maxTokens`). A low-water mark
   * well below the budget (e.g. half) makes eliding happen in rare batches: between them the prompt
   * only grows at its end, so the provider's prompt cache keeps hitting.
   */
  lowWaterTokens?: number;
  /**
   * The conversation's opening messages, up to this many tokens, are elided only when eliding the
   * rest is not enough (default 0). Eliding starts after them, so a batch rewrites history from
   * there on and the opening stays in the provider's prompt cache from one batch to the next.
   */
  keepHeadTokens?: number;
  /** The opening is elided too when eliding the rest leaves more than this (default `maxTokens`). */
  keepHeadUnderTokens?: number;
}

/** The conversation after fitting, and what it cost. */
export interface BudgetResult {
  messages: ChatMessage[];
  elidedOutputs: number;
  shortenedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  /** False when even the protected part is over the budget. */
  fits: boolean;
}

/** One line naming a call's arguments, e.g. `path=src/a.ts, start_line=10`. */
export function summarizeArguments(raw: string, maxChars = 120): string {
  let text: string;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      text = Object.entries(parsed as Record<string, unknown>)
        .map(([key, value]) => `${key}=${clip(typeof value === 'string' ? value : JSON.stringify(value), 60)}`)
        .join(', ');
    } else {
      text = raw;
    }
  } catch {
    text = raw;
  }
  return clip(text.replace(/\s+/g, ' ').trim(), maxChars);
}

/** The text that replaces an elided tool output. */
export function elisionMarker(toolName: string, rawArguments: string | undefined): string {
  const args = rawArguments === undefined ? '' : summarizeArguments(rawArguments);
  return `${ELIDED_PREFIX} ${toolName}${args ? ` ${args}` : ''}; call the tool again if needed]`;
}

/**
 * Fits a conversation into `maxTokens`. After the kept opening (`keepHeadTokens`), old tool
 * outputs outside the protected part are replaced by an elision marker, oldest first, stopping once
 * at `lowWaterTokens`; the assistant texts and long tool call arguments before the last elided
 * output are shortened with them, later ones only while still over. The opening is treated the
 * same way only if the prompt still does not fit. Messages are replaced, never removed, so every tool call keeps its answer.
 * Pure: the input array and its messages are not changed.
 */
export function fitToBudget(messages: readonly ChatMessage[], options: BudgetOptions): BudgetResult {
  const counts = messages.map(options.count);
  const tokensBefore = counts.reduce((sum, n) => sum + n, 0);
  let total = tokensBefore;
  const result: BudgetResult = { messages: [...messages], elidedOutputs: 0, shortenedMessages: 0, tokensBefore, tokensAfter: total, fits: true };
  if (total <= options.maxTokens) return result;
  const target = Math.min(options.maxTokens, options.lowWaterTokens ?? options.maxTokens);

  const out = result.messages;
  const recentStart = recentTurnsStart(messages, options.keepRecentTurns);
  const { head, rest } = elisionRanges(counts, recentStart, options.keepHeadTokens ?? 0);
  const calls = new Map<string, ModelToolCall>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
  }
  const replace = (index: number, next: ChatMessage): void => {
    const tokens = options.count(next);
    total += tokens - counts[index]!;
    counts[index] = tokens;
    out[index] = next;
  };
  const shorten = (i: number): void => {
    const message = out[i]!;
    if (message.role !== 'assistant' || options.isProtected(message)) return;
    const shortened = shortenAssistant(message);
    if (!shortened) return;
    replace(i, shortened);
    result.shortenedMessages++;
  };
  // Compacts a prefix of `indexes`: outputs oldest first down to the target, then the assistant
  // messages up to the last output elided, so the compacted part stays a prefix (a later batch never
  // goes back before it and rewrites what the provider has cached); later texts only if still over.
  const elide = (indexes: readonly number[]): void => {
    let last = -1;
    for (let k = 0; k < indexes.length && total > target; k++) {
      const i = indexes[k]!;
      const message = out[i]!;
      if (message.role !== 'tool' || options.isProtected(message) || message.content.startsWith(ELIDED_PREFIX)) continue;
      const marker = elisionMarker(message.name, calls.get(message.toolCallId)?.arguments);
      if (marker.length >= message.content.length) continue;
      replace(i, { ...message, content: marker });
      result.elidedOutputs++;
      last = k;
    }
    for (let k = 0; k <= last; k++) shorten(indexes[k]!);
    for (let k = last + 1; k < indexes.length && total > target; k++) shorten(indexes[k]!);
  };

  elide(rest);
  // The opening goes only when eliding the rest leaves too much (not merely more than the low-water mark).
  if (total > (options.keepHeadUnderTokens ?? options.maxTokens)) elide(head);

  result.tokensAfter = total;
  result.fits = total <= options.maxTokens;
  return result;
}

/**
 * Indexes before `recentStart`, split into the opening (the first messages within `keepHeadTokens`)
 * and the rest. The opening is measured on the conversation as it is, so it is the same from one
 * batch to the next (its messages are not changed).
 */
function elisionRanges(counts: readonly number[], recentStart: number, keepHeadTokens: number): { head: number[]; rest: number[] } {
  let headEnd = 0;
  for (let sum = 0; headEnd < recentStart && sum + counts[headEnd]! <= keepHeadTokens; headEnd++) sum += counts[headEnd]!;
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
  return { head: range(0, headEnd), rest: range(headEnd, recentStart) };
}

function shortenAssistant(message: Extract<ChatMessage, { role: 'assistant' }>): ChatMessage | undefined {
  let changed = false;
  let content = message.content;
  if (content.length > KEEP_TEXT_CHARS && !content.includes(`; ${SHORTENED_NOTE} ...]`)) {
    content = truncateHeadTail(content, KEEP_TEXT_CHARS, SHORTENED_NOTE).text;
    changed = true;
  }
  const toolCalls = message.toolCalls?.map((call) => {
    if (call.arguments.length <= KEEP_ARGUMENT_CHARS) return call;
    changed = true;
    // Still valid JSON: some providers parse the arguments of earlier calls.
    const note = `${call.arguments.length} characters of arguments elided to save context: ${summarizeArguments(call.arguments, 160)}`;
    return { ...call, arguments: JSON.stringify({ elided: note }) };
  });
  if (!changed) return undefined;
  return toolCalls ? { ...message, content, toolCalls } : { ...message, content };
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}
