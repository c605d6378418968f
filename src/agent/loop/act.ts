import { fitAndKeep } from '../context/toolOutputBudget';
import { CancelledError, isCancellation } from '../errors';
import type { ModelToolCall } from '../model/types';
import type { ToolResult } from '../tools/tool';
import type { RunSession } from './runSession';
import { createToolContext } from './toolContext';
import { pushImageMessage, settleImages } from './toolImages';
import type { ChatImage } from '../model/types';
import { editedPath, withNewErrors } from './editDiagnostics';
import { afterToolHooks, toolBlockedByHook } from './toolHooks';

/** Answer of a call that was in flight (or not yet started) when the user cancelled. */
export const CANCELLED_RESULT = 'cancelled by the user';
/** Answer of calls after `finish` in the same turn. */
export const SKIPPED_AFTER_FINISH = 'skipped: the run finished';

/**
 * Runs the turn's tool calls one after the other, in the order the model gave them, answering each
 * with a `tool` message carrying its id. Bad calls become error results for the model. On
 * cancellation every call of the turn still gets an answer (so the history stays valid for resume)
 * and `CancelledError` is thrown.
 */
export async function act(run: RunSession, calls: readonly ModelToolCall[]): Promise<{ finishSummary?: string }> {
  let finishSummary: string | undefined;
  const pendingImages: ChatImage[] = [];
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]!;
    if (finishSummary !== undefined) {
      answerWithoutRunning(run, call, SKIPPED_AFTER_FINISH, false);
      continue;
    }
    if (run.options.signal.aborted) {
      for (const rest of calls.slice(index)) answerWithoutRunning(run, rest, cancelledAnswer(run), true);
      throw new CancelledError();
    }
    announce(run, call);
    const started = since(run);
    let result: ToolResult;
    try {
      result = await settleImages(run, call, await runCall(run, call), pendingImages);
    } catch (error) {
      if (!isCancellation(error) && !run.options.signal.aborted) throw error;
      record(run, call, { content: cancelledAnswer(run), isError: true, stopped: true }, started, false);
      for (const rest of calls.slice(index + 1)) answerWithoutRunning(run, rest, cancelledAnswer(run), true);
      throw isCancellation(error) ? error : new CancelledError();
    }
    record(run, call, result, started);
    if (result.finish && !result.isError) finishSummary = result.finish.summary;
  }
  pushImageMessage(run, pendingImages);
  return finishSummary === undefined ? {} : { finishSummary };
}

async function runCall(run: RunSession, call: ModelToolCall): Promise<ToolResult> {
  const { tools } = run.options;
  const parsed = tools.parseArguments(call.name, call.arguments);
  if (!parsed.ok) return { content: parsed.message, isError: true };
  const context = createToolContext(
    {
      workspace: run.options.workspace,
      commands: run.options.commands,
      approver: run.options.approver,
      asker: run.options.asker,
      logger: run.options.logger,
      signal: run.options.signal,
      emit: run.emit,
      resultTokens: { max: run.toolResultTokens, counter: run.tokens.counter },
      outputs: run.control.outputs,
    },
    call.id,
    call.name,
  );
  // The user's PreToolUse hooks see the call before anything else does (no checkpoint, no approval for a refused call).
  const refused = await toolBlockedByHook(run, call, parsed.args);
  if (refused) return refused;
  await run.options.beforeTool?.(call, tools.get(call.name)?.category, run.options.signal);
  const diagnostics = run.options.diagnostics;
  const edited = diagnostics ? editedPath(call) : undefined;
  const errorsBefore = edited ? await diagnostics!.errors(edited).catch(() => []) : [];
  let result = await tools.execute(call.name, parsed.args, context);
  if (edited) result = await withNewErrors(diagnostics!, edited, errorsBefore, result, run.options.signal);
  result = await afterToolHooks(run, call, parsed.args, result);
  if (result.finish && !result.isError && run.options.judgeFinish) {
    const verdict = await run.options.judgeFinish(run.options.signal);
    if (!verdict.accept) return { content: verdict.content };
  }
  return result;
}

function announce(run: RunSession, call: ModelToolCall): void {
  const category = run.options.tools.get(call.name)?.category;
  run.emit({
    type: 'tool_call',
    callId: call.id,
    name: call.name,
    args: argumentsForDisplay(call.arguments),
    ...(category && category !== 'meta' ? { category } : {}),
  });
}

/** Observe: the output is cut to the tool result budget before it enters the history (kept whole for `read_output`). */
/** When a call started, and how long the task had waited for the user by then. */
interface Since {
  at: number;
  waited: number;
}

function since(run: RunSession): Since {
  return { at: run.options.clock.now(), waited: run.options.waits?.total() ?? 0 };
}

function record(run: RunSession, call: ModelToolCall, result: ToolResult, started: Since, countError = true): void {
  const waitedMs = Math.max(0, (run.options.waits?.total() ?? 0) - started.waited);
  const isError = result.isError === true;
  // Known secrets never reach the model: a key a command printed or a file held is replaced here.
  const content = result.content === '' ? '(no output)' : run.options.events.redactText(result.content);
  const fitted = fitAndKeep(content, call, run.toolResultTokens, run.tokens.counter, run.control.outputs);
  if (isError && countError) run.toolErrors++;
  run.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: fitted.text, ...(isError ? { isError } : {}) });
  run.emit({
    type: 'tool_result',
    callId: call.id,
    name: call.name,
    isError,
    content: fitted.text,
    durationMs: Math.max(0, run.options.clock.now() - started.at - waitedMs),
    ...(waitedMs > 0 ? { waitedMs } : {}),
    ...(result.imagePaths?.length ? { images: result.imagePaths } : {}),
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    ...(result.content === CANCELLED_RESULT || result.stopped ? { stopped: true } : {}),
    ...(result.background ? { background: true } : {}),
  });
}

function answerWithoutRunning(run: RunSession, call: ModelToolCall, content: string, isError: boolean): void {
  announce(run, call);
  record(run, call, { content, isError, ...(content === SKIPPED_AFTER_FINISH ? {} : { stopped: true }) }, since(run), false);
}

/** What an interrupted call is answered with: the stop's own words when it gave some (a step's budget), else "cancelled by the user". */
function cancelledAnswer(run: RunSession): string {
  const reason: unknown = run.options.signal.reason;
  return reason instanceof CancelledError && reason.message !== new CancelledError().message ? reason.message : CANCELLED_RESULT;
}

/** Parsed arguments when they are JSON, else the raw text (so the UI shows what the model sent). */
function argumentsForDisplay(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
