import {
  checkSummary,
  pinnedAsMessage,
  outlineOf,
  recentlyRead,
  renderTranscript,
  splitForCompaction,
  SUMMARY_INSTRUCTION,
  summaryMessage,
  touchedPaths,
} from '../context/compaction';
import { recentTurnsStart } from '../context/messageHistory';
import { isCancellation } from '../errors';
import { ModelError } from '../model/modelErrors';
import type { ChatMessage, ModelToolCall } from '../model/types';
import type { RunSession } from './runSession';
import { addUsage, estimatedUsage } from './usage';
import { runHooks } from '../hooks/runHooks';
import { hookPorts } from './toolHooks';

/** Most recent turns kept verbatim; fewer when they alone fill more than `RECENT_SHARE` of the budget. */
const KEEP_TURNS = 4;
const RECENT_SHARE = 0.35;
/** Characters of transcript per token of the prompt budget that the summary request may use. */
const TRANSCRIPT_CHARS_PER_BUDGET_TOKEN = 1.8;
const SUMMARY_MAX_TOKENS = 1_500;
/** Files larger than this are not outlined after a compaction. */
const MAX_OUTLINE_BYTES = 1_000_000;

/** Whether a message survives eliding and compaction: the system prompt, the task, initial pins, and the user's pinned tool results. */
export function isPinnedOrProtected(run: RunSession, message: ChatMessage): boolean {
  return run.protectedMessages.has(message) || (message.role === 'tool' && run.control.pinned().has(message.toolCallId));
}

/**
 * Summarizes the older turns with the summary model into a structured state, keeps the recent turns
 * verbatim and every protected or pinned message, checks the summary names every touched file, and
 * re-offers recently read files as outlines. Emits `compaction_started` / `compaction_finished`.
 * Returns false (with a notice) when there is too little to summarize or the summary call fails.
 */
export async function compactContext(run: RunSession, reason: 'window' | 'user'): Promise<boolean> {
  const messages = run.messages;
  const recentStart = recentStartWithin(run, messages);
  const split = splitForCompaction(messages, recentStart, (m) => isPinnedOrProtected(run, m));
  const summarized = split.summarized.map((i) => messages[i]!);
  if (summarized.length < 2) {
    if (reason === 'user') notice(run, 'Nothing to compact yet: the context holds only the task, pinned items and the recent turns.');
    return false;
  }
  const id = `compaction-${run.turns}-${run.compactions.length + 1}`;
  const model = run.options.summaryModel ?? run.options.model;
  const tokensBefore = run.tokens.countAll(messages);
  // The user's PreCompact hooks hear of it first (as in Claude Code, they cannot stop it).
  if (run.options.hooks) await runHooks(run.options.hooks, hookPorts(run), 'PreCompact', { trigger: reason === 'user' ? 'manual' : 'auto', custom_instructions: '' });
  run.emit({ type: 'compaction_started', id, reason, messages: summarized.length, tokens: run.tokens.countAll(summarized), model: model.id, instruction: SUMMARY_INSTRUCTION });
  const transcript = renderTranscript(summarized, Math.floor(run.inputTokens * TRANSCRIPT_CHARS_PER_BUDGET_TOKEN));
  let text: string;
  try {
    const response = await model.complete({
      messages: [
        { role: 'system', content: SUMMARY_INSTRUCTION },
        { role: 'user', content: `The task: ${run.options.task}\n\nThe history to compress:\n\n${transcript}` },
      ],
      tools: [],
      toolChoice: 'none',
      signal: run.options.signal,
      maxOutputTokens: SUMMARY_MAX_TOKENS,
      cacheKey: run.cacheKey,
    });
    const usage = response.usage ?? estimatedUsage(run.tokens.counter.count(SUMMARY_INSTRUCTION + transcript), run.tokens.counter.count(response.text));
    run.usage = addUsage(run.usage, usage);
    run.emit({ type: 'usage', usage, total: run.usage });
    text = response.text.trim();
  } catch (error) {
    if (isCancellation(error) || run.options.signal.aborted || !(error instanceof ModelError)) throw error;
    notice(run, `Compaction failed (${error.message}); older tool outputs are elided instead.`);
    return false;
  }
  if (!text) {
    notice(run, 'Compaction failed: the summary model answered with nothing; older tool outputs are elided instead.');
    return false;
  }
  const checked = checkSummary(text, touchedPaths(summarized));
  const outlines = await outlinesOf(run, recentlyRead(summarized));
  const turns = summarized.filter((m) => m.role === 'assistant').length;
  const summary = summaryMessage(checked.summary, outlines, turns);
  run.messages = [...keptBefore(run, messages, recentStart), summary, ...messages.slice(recentStart)];
  run.compactions.push({ id, before: messages, afterLength: run.messages.length });
  run.emit({
    type: 'compaction_finished',
    id,
    summary: summary.content,
    summarizedMessages: summarized.length,
    tokensBefore,
    tokensAfter: run.tokens.countAll(run.messages),
    addedByCheck: checked.missing,
    outlines: outlines.map((o) => o.path),
  });
  return true;
}

/** Restores the conversation from before a compaction (the last one when `id` is not given), keeping what came after it. */
export function undoCompaction(run: RunSession, id: string | undefined): boolean {
  const index = id === undefined ? run.compactions.length - 1 : run.compactions.findIndex((c) => c.id === id);
  const record = run.compactions[index];
  if (!record) {
    notice(run, 'No compaction of this run to undo.');
    return false;
  }
  run.messages = [...record.before, ...run.messages.slice(record.afterLength)];
  run.compactions = run.compactions.slice(0, index);
  // The user wants the full history back: do not compact again on our own; eliding still applies.
  run.autoCompact = false;
  run.emit({ type: 'compaction_undone', id: record.id });
  notice(run, 'Compaction undone: the full history is back. Automatic compaction is off for the rest of this run; compact again from the panel if needed.');
  return true;
}

/** The kept messages before the recent turns: protected ones as they are, pinned tool results as standalone messages. */
function keptBefore(run: RunSession, messages: readonly ChatMessage[], recentStart: number): ChatMessage[] {
  const calls = new Map<string, ModelToolCall>();
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) calls.set(c.id, c);
  const kept: ChatMessage[] = [];
  for (let i = 0; i < recentStart; i++) {
    const m = messages[i]!;
    if (run.protectedMessages.has(m)) kept.push(m);
    else if (m.role === 'tool' && run.control.pinned().has(m.toolCallId)) {
      const copy = pinnedAsMessage(m, calls.get(m.toolCallId));
      run.protectedMessages.add(copy);
      kept.push(copy);
    }
  }
  return kept;
}

/** Outlines of the files as they are now (read again: their old outputs may be elided); unreadable ones are left out. */
async function outlinesOf(run: RunSession, paths: readonly string[]): Promise<Array<{ path: string; outline: string }>> {
  const out: Array<{ path: string; outline: string }> = [];
  for (const path of paths) {
    try {
      const stat = await run.options.workspace.stat(path);
      if (stat?.kind !== 'file' || stat.size > MAX_OUTLINE_BYTES) continue;
      const outline = outlineOf(new TextDecoder().decode(await run.options.workspace.readFile(path, run.options.signal)));
      if (outline) out.push({ path, outline });
    } catch (error) {
      if (isCancellation(error)) throw error;
    }
  }
  return out;
}

function recentStartWithin(run: RunSession, messages: readonly ChatMessage[]): number {
  for (let keep = KEEP_TURNS; keep > 1; keep--) {
    const start = recentTurnsStart(messages, keep);
    if (run.tokens.countAll(messages.slice(start)) <= run.inputTokens * RECENT_SHARE) return start;
  }
  return recentTurnsStart(messages, 1);
}

function notice(run: RunSession, message: string): void {
  run.emit({ type: 'notice', level: 'info', code: 'context_compaction', message });
}
