import { fitAndKeep } from '../context/toolOutputBudget';
import { CancelledError, isCancellation } from '../errors';
import { ContextLengthError, StreamInterruptedError } from '../model/modelErrors';
import type { ChatMessage, ModelResponse, ModelToolCall, ToolSpec } from '../model/types';
import { isPinnedOrProtected } from './compactContext';
import { prepareContext } from './prepareContext';
import type { RunSession } from './runSession';
import { addUsage, estimatedUsage } from './usage';

/**
 * One model call with the current tools (re-read every turn: MCP tools come and go). The prompt is
 * fitted to the budget first; a `ContextLengthError` tightens the budgets and is retried once.
 * The answer is streamed as `text_delta`, appended to the conversation and reported with its usage.
 */
export async function think(run: RunSession): Promise<ModelResponse> {
  for (let attempt = 0; ; attempt++) {
    const tools = run.options.tools.specs();
    const promptTokens = await prepareContext(run, tools);
    try {
      return await callModel(run, tools, promptTokens);
    } catch (error) {
      if (!(error instanceof ContextLengthError) || attempt > 0 || run.options.signal.aborted) throw error;
      tighten(run, promptTokens);
    }
  }
}

/** After the model rejected the prompt as too long: halve the prompt and tool output budgets, keep only the last turn whole. */
function tighten(run: RunSession, promptTokens: number): void {
  run.toolResultTokens = Math.max(64, Math.floor(run.toolResultTokens / 2));
  run.inputTokens = Math.max(1, Math.min(run.inputTokens, Math.floor(promptTokens / 2)));
  run.keepRecentTurns = 1;
  run.messages = run.messages.map((message) => {
    if (message.role !== 'tool' || isPinnedOrProtected(run, message)) return message;
    if (run.tokens.count(message) <= run.toolResultTokens) return message;
    // An already cut output is kept again as it stands: its own marker still leads to the original.
    const cut = fitAndKeep(message.content, { id: message.toolCallId, name: message.name ?? 'tool' }, run.toolResultTokens, run.tokens.counter, run.control.outputs);
    return { ...message, content: cut.text };
  });
  run.emit({
    type: 'notice',
    level: 'warning',
    code: 'context_elided',
    message:
      `The model rejected the prompt as too long; retrying once with tool outputs cut to ${run.toolResultTokens} tokens ` +
      `and a prompt budget of ${run.inputTokens} tokens.`,
  });
}

async function callModel(run: RunSession, tools: ToolSpec[], promptTokens: number): Promise<ModelResponse> {
  const { model, signal } = run.options;
  let streamed = '';
  let response: ModelResponse;
  try {
    response = await model.complete(
      { messages: run.messages.slice(), tools, toolChoice: run.toolChoice, signal, cacheKey: run.cacheKey },
      {
        onText: (delta) => {
          streamed += delta;
          run.emit({ type: 'text_delta', text: delta });
        },
        onRetry: ({ attempt, of, delayMs, reason }) => {
          // A retried answer starts over (an answer that ended without a finish reason streamed text first).
          streamed = '';
          const retry = { attempt, delayMs: Math.round(delayMs), ...(of ? { of } : {}) };
          run.emit({ type: 'notice', level: 'warning', code: 'retry', message: `Model call failed (${reason}); retry ${attempt} in ${delayMs} ms.`, retry });
        },
        onNotice: (message, code) => run.emit({ type: 'notice', level: 'info', code: code ?? 'tool_protocol', message }),
      },
    );
  } catch (error) {
    // The user saw the partial answer: keep it, so the history matches the screen and a resume continues from it.
    if (error instanceof StreamInterruptedError) keepAnswer(run, streamed || (error.partialText ?? ''), []);
    else if (isCancellation(error) || signal.aborted) keepAnswer(run, streamed, []);
    throw error;
  }
  if (signal.aborted) {
    // Some SDKs end an aborted stream without throwing: what arrived is partial, its tool calls unusable.
    keepAnswer(run, response.text || streamed, []);
    throw new CancelledError();
  }
  const toolCalls = withUniqueIds(response.toolCalls, run.turns);
  keepAnswer(run, response.text, toolCalls, response.reasoning);
  const usage =
    response.usage ??
    estimatedUsage(promptTokens, run.tokens.counter.count(response.text + toolCalls.map((c) => c.name + c.arguments).join('')));
  run.usage = addUsage(run.usage, usage);
  run.emit({ type: 'usage', usage, total: run.usage });
  return { ...response, toolCalls };
}

function keepAnswer(run: RunSession, text: string, toolCalls: ModelToolCall[], reasoning?: string): void {
  if (!text && !toolCalls.length && !reasoning) return;
  const message: ChatMessage = toolCalls.length ? { role: 'assistant', content: text, toolCalls } : { role: 'assistant', content: text };
  // Kept with the turn (DeepSeek needs it back with the calls); shown collapsed as thinking.
  if (reasoning) message.reasoning = reasoning;
  run.messages.push(message);
  if (text.trim()) run.lastText = text;
  run.emit({
    type: 'assistant_message',
    text,
    toolCalls: toolCalls.map(({ id, name, arguments: args, extra }) => ({ id, name, arguments: args, ...(extra ? { extra } : {}) })),
    ...(reasoning ? { thinking: reasoning } : {}),
  });
}

/** Tool messages are matched by id: an empty or repeated id would break the pairing, so it is replaced. */
function withUniqueIds(calls: ModelToolCall[], turn: number): ModelToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, index) => {
    let id = call.id;
    if (!id || seen.has(id)) id = `call_${turn}_${index}`;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
