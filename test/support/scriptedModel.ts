import { CancelledError } from '../../src/agent/errors';
import type { FinishReason, Model, ModelHandlers, ModelRequest, ModelResponse, ModelToolCall } from '../../src/agent/model/types';
import type { Usage } from '../../src/shared/events';

/** A tool call in a script; `id` defaults to `call_<n>`, object arguments are JSON-encoded. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments?: string | Record<string, unknown>;
}

/** One scripted answer. */
export interface ScriptedResponse {
  text?: string;
  /** Streamed through `onText` in these pieces (default: the text in two halves). */
  chunks?: string[];
  toolCalls?: ScriptedToolCall[];
  finishReason?: FinishReason;
  usage?: Usage;
  /** Called before answering, as an adapter would while retrying. */
  retries?: { attempt: number; delayMs: number; reason: string }[];
  notice?: string;
  /** Thrown after the text has streamed (e.g. `StreamInterruptedError` for a dropped connection). */
  errorAfterText?: Error;
}

/** What a script step may be: an answer, an error to throw, or a function of the request. */
export type ScriptStep =
  | ScriptedResponse
  | Error
  | ((request: ModelRequest, callIndex: number) => ScriptedResponse | Error | Promise<ScriptedResponse | Error>);

/**
 * A `Model` for unit tests and benchmarks: answers from a script, with zero latency. Records every
 * request (messages copied at call time). Throws when the script runs out (a bug in the test).
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  private nextId = 1;

  constructor(
    private readonly script: ScriptStep[] | ((request: ModelRequest, callIndex: number) => ScriptStep),
    readonly id = 'scripted-model',
  ) {}

  /** Number of calls made so far. */
  get calls(): number {
    return this.requests.length;
  }

  async complete(request: ModelRequest, handlers: ModelHandlers = {}): Promise<ModelResponse> {
    const callIndex = this.requests.length;
    this.requests.push({ ...request, messages: [...request.messages], tools: [...request.tools] });
    if (request.signal.aborted) throw new CancelledError();
    let step: ScriptStep | undefined = Array.isArray(this.script) ? this.script[callIndex] : this.script(request, callIndex);
    if (step === undefined) throw new Error(`ScriptedModel: no response scripted for call ${callIndex + 1}`);
    if (typeof step === 'function') step = await step(request, callIndex);
    if (step instanceof Error) throw step;

    for (const retry of step.retries ?? []) handlers.onRetry?.(retry);
    if (step.notice) handlers.onNotice?.(step.notice);
    const text = step.text ?? '';
    const chunks = step.chunks ?? (text ? [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))] : []);
    for (const chunk of chunks) if (chunk) handlers.onText?.(chunk);
    if (step.errorAfterText) throw step.errorAfterText;
    if (request.signal.aborted) throw new CancelledError();

    const toolCalls: ModelToolCall[] = (step.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_${this.nextId++}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    }));
    return {
      text,
      toolCalls,
      finishReason: step.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
      ...(step.usage ? { usage: step.usage } : {}),
    };
  }
}
