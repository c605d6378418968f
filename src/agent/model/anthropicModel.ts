import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { CancelledError, throwIfAborted } from '../errors';
import type { Clock, Logger } from '../ports';
import type { ToolProtocol } from '../../shared/vocabulary';
import { classifyAnthropicError, rateLimitSummary } from './anthropicErrors';
import { toAnthropicPrompt, toAnthropicTools } from './anthropicMessages';
import { AnthropicStreamAssembler } from './anthropicStream';
import { NoFinishReasonError, recoverAnswer } from './answerRecovery';
import { StreamStalledError } from './classifyModelError';
import { loadAnthropic } from './loadAnthropic';
import { ModelBadRequestError, StreamInterruptedError } from './modelErrors';
import { DEFAULT_RETRY_TIMING, type RetryTiming, waitToRetry } from './retryPolicy';
import { createToolBlockFilter, renderTextToolPrompt, toTextProtocolMessages } from './textToolProtocol';
import type { ToolBlockFilter } from './toolBlockFilter';
import type { Model, ModelHandlers, ModelRequest, ModelResponse } from './types';

/** Anthropic's own API root; the SDK adds `/v1/messages`. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Settings of Anthropic's Messages API (or a server speaking it). */
export interface AnthropicModelOptions {
  /** Default https://api.anthropic.com (without `/v1`). */
  baseURL?: string;
  apiKey: string;
  model: string;
  /** `native` (default, `auto` too): Anthropic tools. `text`: fenced blocks described in the system prompt. */
  toolProtocol?: ToolProtocol;
  /** Extended thinking: the token budget of the model's thinking; off when absent. */
  thinkingBudgetTokens?: number;
  /** Retries after 429, 529, 5xx and connection failures before any output; default 4. */
  maxRetries?: number;
  clock: Clock;
  logger: Logger;
  /** Wait for the response headers; default 10 min. */
  requestTimeoutMs?: number;
  /** Longest silence inside a stream before it counts as a dropped connection; default 5 min (Anthropic pings meanwhile). */
  streamIdleTimeoutMs?: number;
  retryTiming?: Partial<RetryTiming>;
  random?: () => number;
  /** The model reads images (`image` blocks); default true, as every current Claude model does. */
  vision?: boolean;
}

const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;
const DEFAULT_STREAM_IDLE_MS = 300_000;
/** `max_tokens` is required by the API; 8,192 fits every current Claude model. */
const DEFAULT_MAX_TOKENS = 8_192;

/** One attempt's request and how to read its answer. */
interface PreparedAttempt {
  body: MessageCreateParamsStreaming;
  filter: ToolBlockFilter | undefined;
  request: ModelRequest;
}

/**
 * A `Model` over Anthropic's Messages API, streaming, with the official SDK (its own retries off).
 * Failures sort into the same classes as the OpenAI adapter's (`classifyAnthropicError`) and go
 * through the same retry rule (`waitToRetry`: backoff, `retry-after` honoured, never after output);
 * each retry logs the `anthropic-ratelimit-*` headers. Prompt caching breakpoints, thinking blocks
 * and cache usage: see anthropicMessages.ts and anthropicStream.ts.
 */
export class AnthropicModel implements Model {
  readonly id: string;
  readonly vision: boolean;
  private sdkClient: Anthropic | undefined;
  private readonly baseURL: string;
  private readonly textMode: boolean;
  private readonly maxRetries: number;
  private readonly timing: RetryTiming;
  private callCount = 0;

  constructor(private readonly options: AnthropicModelOptions) {
    this.baseURL = (options.baseURL ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '');
    if (!isHttpUrl(this.baseURL)) throw new ModelBadRequestError(`The model base URL "${this.baseURL}" is not a valid URL (expected e.g. ${ANTHROPIC_BASE_URL}).`);
    this.id = options.model;
    this.vision = options.vision ?? true;
    this.textMode = options.toolProtocol === 'text';
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.timing = { ...DEFAULT_RETRY_TIMING, ...options.retryTiming };
  }

  /** The SDK client, made on the first request: constructing a model loads no SDK. */
  private get client(): Anthropic {
    if (this.sdkClient) return this.sdkClient;
    const sdk = loadAnthropic();
    this.sdkClient = new sdk.Anthropic({
      apiKey: this.options.apiKey,
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, init),
      logger: this.options.logger,
      logLevel: 'warn',
    });
    return this.sdkClient;
  }

  async complete(request: ModelRequest, handlers: ModelHandlers = {}): Promise<ModelResponse> {
    throwIfAborted(request.signal);
    let retries = 0;
    let noFinishRetried = false;
    for (;;) {
      const attempt = this.prepare(request);
      const progress: { assembler?: AnthropicStreamAssembler } = {};
      try {
        return await this.stream(attempt, handlers, progress);
      } catch (error) {
        if (request.signal.aborted) throw new CancelledError();
        if (error instanceof NoFinishReasonError) {
          if (noFinishRetried) throw error.giveUp(this.baseURL, progress.assembler?.visibleText);
          noFinishRetried = true;
          handlers.onRetry?.({ attempt: 1, delayMs: 0, reason: 'the stream ended without a stop reason' });
          continue;
        }
        const failure = classifyAnthropicError(error, { baseURL: this.baseURL, model: this.id, outputStarted: progress.assembler?.outputStarted ?? false });
        if (failure.kind === 'cancelled') throw new CancelledError();
        if (failure.kind === 'unknown') throw failure.error;
        if (failure.kind === 'fatal') {
          if (failure.error instanceof StreamInterruptedError) failure.error.partialText = progress.assembler?.visibleText;
          throw failure.error;
        }
        if (failure.kind !== 'retryable') throw new ModelBadRequestError(`The model endpoint ${this.baseURL} failed: ${failure.message}`, { cause: error });
        // The one retry step (retryPolicy.ts), as for every other endpoint.
        const limits = rateLimitSummary(failure.headers as Parameters<typeof rateLimitSummary>[0]);
        retries = await waitToRetry({
          retries, maxRetries: this.maxRetries, failure, clock: this.options.clock, timing: this.timing, random: this.options.random ?? Math.random, signal: request.signal,
          announce: (attempt, delayMs) => {
            this.options.logger.warn(`model ${this.id}: ${failure.reason}; retry ${attempt}/${this.maxRetries} in ${delayMs} ms${limits ? ` (rate limits: ${limits})` : ''}`);
            handlers.onRetry?.({ attempt, of: this.maxRetries, delayMs, reason: failure.reason });
          },
        });
        throwIfAborted(request.signal);
      }
    }
  }

  private prepare(request: ModelRequest): PreparedAttempt {
    const offered = request.toolChoice === 'none' ? [] : request.tools;
    const conversation = this.textMode
      ? toTextProtocolMessages(request.messages, offered.length > 0 ? renderTextToolPrompt(offered, request.toolChoice) : undefined)
      : request.messages;
    const { system, messages } = toAnthropicPrompt(conversation);
    const budget = this.options.thinkingBudgetTokens;
    const maxTokens = request.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
    const body: MessageCreateParamsStreaming = { model: this.id, messages, max_tokens: budget ? budget + maxTokens : maxTokens, stream: true };
    if (system.length > 0) body.system = system;
    // A history with tool_use blocks needs the tools defined, even when this call may not use them.
    if (!this.textMode && request.tools.length > 0) {
      body.tools = toAnthropicTools(request.tools);
      if (request.toolChoice === 'none') body.tool_choice = { type: 'none' };
      // Extended thinking allows only `auto` and `none`.
      else if (request.toolChoice === 'required' && !budget) body.tool_choice = { type: 'any' };
    }
    if (budget) body.thinking = { type: 'enabled', budget_tokens: budget };
    // With thinking on, the API accepts no temperature but the default.
    else if (request.temperature !== undefined) body.temperature = request.temperature;
    const filter = offered.length > 0 ? createToolBlockFilter(this.textMode ? 'text' : 'native', offered) : undefined;
    return { body, filter, request };
  }

  private async stream(attempt: PreparedAttempt, handlers: ModelHandlers, progress: { assembler?: AnthropicStreamAssembler }): Promise<ModelResponse> {
    const signal = attempt.request.signal;
    // Our own controller, so the idle watchdog can end a silent stream without it looking like a cancel.
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal.addEventListener('abort', abort, { once: true });
    let stalled = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const idleMs = this.options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS;
    try {
      const stream = await this.client.messages.create(attempt.body, { signal: controller.signal });
      const assembler = new AnthropicStreamAssembler(attempt.filter, handlers.onText);
      progress.assembler = assembler;
      watchdog = setTimeout(() => {
        stalled = true;
        controller.abort();
      }, idleMs);
      for await (const event of stream) {
        watchdog.refresh();
        assembler.add(event);
      }
      if (signal.aborted) throw new CancelledError();
      if (stalled) throw new StreamStalledError(idleMs);
      const answer = assembler.finish();
      if (answer.finishReason === undefined) throw new NoFinishReasonError();
      const offered = attempt.request.toolChoice === 'none' ? [] : attempt.request.tools;
      return recoverAnswer(answer, {
        tools: offered,
        mode: this.textMode ? 'text' : 'native',
        ids: { native: () => `toolu_${++this.callCount}`, text: () => `call_txt_${++this.callCount}` },
        logger: this.options.logger,
        modelId: this.id,
      });
    } catch (error) {
      // An aborted SDK stream throws its own abort error: tell a stall from the user's Stop.
      if (stalled && !signal.aborted) throw new StreamStalledError(idleMs);
      throw error;
    } finally {
      clearTimeout(watchdog);
      signal.removeEventListener('abort', abort);
    }
  }
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}
