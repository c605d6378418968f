import * as vscode from 'vscode';
import { CancelledError, errorMessage } from '../../../agent/errors';
import { withTextToolCalls } from '../../../agent/model/answerRecovery';
import { ModelAuthError, ModelBadRequestError, ModelError, ModelRateLimitError, ModelUnavailableError } from '../../../agent/model/modelErrors';
import { createToolBlockFilter, renderTextToolPrompt, toTextProtocolMessages } from '../../../agent/model/textToolProtocol';
import { correctionNote } from '../../../agent/model/toolCallFormats/recoverToolCalls';
import type { ToolBlockFilter } from '../../../agent/model/toolBlockFilter';
import type { ChatMessage, Model, ModelHandlers, ModelRequest, ModelResponse, ModelToolCall, ToolSpec } from '../../../agent/model/types';
import type { ToolProtocol } from '../../../shared/vocabulary';

type LmPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart;

function parseInput(raw: string): object {
  try {
    const value: unknown = JSON.parse(raw || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : { value };
  } catch {
    // The model sent broken JSON; keep it visible rather than dropping the call from the history.
    return { invalidJson: raw };
  }
}

/**
 * Converts the provider-neutral conversation to vscode.lm messages. vscode.lm has no system role:
 * system text goes first as a user message. Consecutive tool results are merged into one user
 * message, as the API wants results right after the assistant's tool calls.
 */
export function toLmMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let toolResults: vscode.LanguageModelToolResultPart[] = [];
  const flush = (): void => {
    if (toolResults.length) out.push(vscode.LanguageModelChatMessage.User(toolResults));
    toolResults = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      const text = message.isError ? `Error: ${message.content}` : message.content;
      toolResults.push(new vscode.LanguageModelToolResultPart(message.toolCallId, [new vscode.LanguageModelTextPart(text)]));
      continue;
    }
    flush();
    if (message.role === 'system' || message.role === 'user') {
      out.push(vscode.LanguageModelChatMessage.User(message.content));
    } else {
      const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
      if (message.content) parts.push(new vscode.LanguageModelTextPart(message.content));
      for (const call of message.toolCalls ?? []) parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, parseInput(call.arguments)));
      out.push(vscode.LanguageModelChatMessage.Assistant(parts.length ? parts : ''));
    }
  }
  flush();
  return out;
}

/** Maps vscode.lm failures to the Model port's error classes. */
export function toModelError(error: unknown): Error {
  if (error instanceof vscode.CancellationError) return new CancelledError();
  if (error instanceof vscode.LanguageModelError) {
    // An extension's own LanguageModelError often has no code: its message alone, not ": message".
    const message = error.code ? `${error.code}: ${error.message}` : error.message;
    switch (error.code) {
      case vscode.LanguageModelError.NoPermissions.name:
        return new ModelAuthError(message, { cause: error });
      case vscode.LanguageModelError.Blocked.name:
        return new ModelRateLimitError(message, { cause: error });
      case vscode.LanguageModelError.NotFound.name:
        return new ModelUnavailableError(message, { cause: error });
      default:
        return new ModelError(message, { cause: error });
    }
  }
  return new ModelBadRequestError(errorMessage(error), { cause: error });
}

/** What newer VS Code versions tell about a model (`LanguageModelChat.capabilities`, not in @types/vscode 1.99). */
interface LmCapabilities {
  supportsToolCalling?: boolean;
  supportsImageToText?: boolean;
}

/** Whether `chat` says it has no tool calling (an older VS Code says nothing: assume it has). */
export function lacksToolCalling(chat: vscode.LanguageModelChat): boolean {
  const capabilities = (chat as vscode.LanguageModelChat & { capabilities?: LmCapabilities }).capabilities;
  return capabilities?.supportsToolCalling === false;
}

/** Options of the vscode.lm adapter. */
export interface LmChatModelOptions {
  /** `stepwise.toolProtocol`: `auto` uses the text protocol only for models that say they lack tool calling. */
  toolProtocol?: ToolProtocol;
}

/**
 * The Model port over a VS Code language model (`vscode.lm`, e.g. Copilot's models), with native
 * tool calling through LanguageModelChatTool / LanguageModelToolCallPart / LanguageModelToolResultPart;
 * for models without tool calling (or `toolProtocol: text`) the text tool protocol instead: tools
 * described in the prompt, calls read from fenced blocks and hidden from the streamed text.
 * It reports no token usage (the API has none).
 */
export class LmChatModel implements Model {
  readonly id: string;
  private textCalls = 0;
  private readonly textMode: boolean;

  constructor(
    private readonly chat: vscode.LanguageModelChat,
    options: LmChatModelOptions = {},
  ) {
    this.id = `${chat.vendor}/${chat.id}`;
    this.textMode = options.toolProtocol === 'text' || (options.toolProtocol !== 'native' && lacksToolCalling(chat));
  }

  async complete(request: ModelRequest, handlers: ModelHandlers = {}): Promise<ModelResponse> {
    if (request.signal.aborted) throw new CancelledError();
    const source = new vscode.CancellationTokenSource();
    const onAbort = (): void => source.cancel();
    request.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const offered = request.toolChoice !== 'none' ? request.tools : [];
      const native = !this.textMode && offered.length > 0;
      const messages = this.textMode ? toTextProtocolMessages(request.messages, offered.length > 0 ? renderTextToolPrompt(offered, request.toolChoice) : undefined) : request.messages;
      const response = await this.chat.sendRequest(toLmMessages(messages), this.requestOptions(request, native ? offered : []), source.token);
      // The text protocol's blocks are calls, not prose: the filter holds them back from the stream.
      const filter = this.textMode && offered.length > 0 ? createToolBlockFilter('text', offered) : undefined;
      let text = '';
      const emit = (visible: string): void => {
        if (!visible) return;
        text += visible;
        handlers.onText?.(visible);
      };
      const toolCalls: ModelToolCall[] = [];
      for await (const part of response.stream as AsyncIterable<LmPart | unknown>) {
        if (part instanceof vscode.LanguageModelTextPart) {
          emit(filter ? filter.push(part.value) : part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          toolCalls.push({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
        }
      }
      if (filter) emit(filter.end());
      if (request.signal.aborted) throw new CancelledError();
      if (filter) return this.textAnswer(text, toolCalls, filter);
      // Models behind vscode.lm may write calls as text in their own format: read them as the OpenAI adapter does.
      return withTextToolCalls({ text, toolCalls, finishReason: toolCalls.length ? 'tool_calls' : 'stop' }, native ? offered : [], () => this.nextId());
    } catch (error) {
      if (request.signal.aborted) throw new CancelledError();
      throw error instanceof ModelError || error instanceof CancelledError ? error : toModelError(error);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }

  private requestOptions(request: ModelRequest, tools: readonly ToolSpec[]): vscode.LanguageModelChatRequestOptions {
    return {
      justification: vscode.l10n.t('Stepwise runs the task you gave it.'),
      ...(tools.length > 0
        ? {
            tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters })),
            toolMode: request.toolChoice === 'required' ? vscode.LanguageModelChatToolMode.Required : vscode.LanguageModelChatToolMode.Auto,
          }
        : {}),
      ...(request.maxOutputTokens || request.temperature !== undefined
        ? { modelOptions: { ...(request.maxOutputTokens ? { maxTokens: request.maxOutputTokens } : {}), ...(request.temperature !== undefined ? { temperature: request.temperature } : {}) } }
        : {}),
    };
  }

  /** A text-protocol answer: the blocks' calls (native parts, should a provider send some anyway, win), unreadable blocks as a correction. */
  private textAnswer(text: string, nativeCalls: ModelToolCall[], filter: ToolBlockFilter): ModelResponse {
    const toolCalls = nativeCalls.length > 0 ? nativeCalls : filter.calls.map((call) => ({ id: this.nextId(), name: call.name, arguments: call.arguments }));
    const problems = nativeCalls.length > 0 ? [] : filter.problems;
    return {
      text,
      toolCalls,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      ...(filter.thinking.trim() ? { reasoning: filter.thinking.trim() } : {}),
      ...(problems.length > 0 ? { correction: correctionNote(problems, 'text') } : {}),
    };
  }

  private nextId(): string {
    return `call_lm_${++this.textCalls}`;
  }
}

/**
 * The first vscode.lm chat model matching `preferred` (by id, then family), else any model;
 * `undefined` when VS Code offers none.
 */
export async function selectLmModel(preferred: string): Promise<vscode.LanguageModelChat | undefined> {
  const all = await vscode.lm.selectChatModels();
  return all.find((m) => m.id === preferred) ?? all.find((m) => m.family === preferred) ?? all[0];
}
