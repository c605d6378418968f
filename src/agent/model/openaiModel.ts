import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { CancelledError, throwIfAborted } from '../errors';
import type { Clock, Logger } from '../ports';
import { type AdaptableParam, classifyModelError, StreamStalledError } from './classifyModelError';
import { ModelBadRequestError, StreamInterruptedError } from './modelErrors';
import { loadOpenAI } from './loadOpenAI';
import { withNormalizedErrorBodies } from './normalizeErrorBody';
import { toOpenAIMessages, toOpenAITools } from './openaiMessages';
import { quirksFor } from './providerQuirks';
import { withCacheBreakpoints } from './cacheBreakpoints';
import { DEFAULT_RETRY_TIMING, type RetryTiming, waitToRetry } from './retryPolicy';
import { chatChunks } from './sseChunks';
import { StreamAssembler } from './streamAssembler';
import { createToolBlockFilter, renderTextToolPrompt, toTextProtocolMessages } from './textToolProtocol';
import type { ToolBlockFilter } from './toolBlockFilter';
import { malformedCallNote, NoFinishReasonError, recoverAnswer } from './answerRecovery';
import type { ToolProtocol } from '../../shared/vocabulary';
import type { Model, ModelHandlers, ModelRequest, ModelResponse } from './types';

/** Settings of an OpenAI-compatible endpoint (OpenAI, Azure, DeepSeek, Qwen, OpenRouter, Ollama, vLLM, LM Studio...). */
export interface OpenAICompatibleModelOptions {
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseURL: string;
  /** May be empty for local servers that need none. */
  apiKey: string;
  model: string;
  /** Extra headers on every request (Azure's `api-key`, OpenRouter's `HTTP-Referer`...). */
  headers?: Record<string, string>;
  /** Extra query parameters on every request. */
  query?: Record<string, string>;
  /**
   * Azure OpenAI: `baseURL` is the resource endpoint (`https://NAME.openai.azure.com`), `model` the
   * deployment; the key goes in the `api-key` header and this version in the `api-version` query.
   */
  azureApiVersion?: string;
  /** Default `auto`. */
  /**
   * How tools reach the model. `native`: OpenAI `tools`. `text`: described in the system prompt and
   * called with fenced blocks (see textToolProtocol.ts). `auto`: native until the endpoint rejects
   * `tools`, then text for the rest of this model instance's life.
   */
  toolProtocol?: ToolProtocol;
  /** Retries after 429, 5xx and connection failures before any output; default 4. */
  maxRetries?: number;
  /** Drives the backoff sleeps (so tests need not wait). */
  clock: Clock;
  logger: Logger;
  /** Wait for the response headers; default 10 min (a local server may take long to read a big prompt). */
  requestTimeoutMs?: number;
  /** Longest silence inside a stream before it counts as a dropped connection; default 5 min. */
  streamIdleTimeoutMs?: number;
  /** Backoff knobs; default 1 s doubling to 30 s, server waits honoured up to 60 s. */
  retryTiming?: Partial<RetryTiming>;
  /** Jitter source in [0, 1); default `Math.random`. */
  random?: () => number;
  /** The model reads images (`image_url` parts); default false. */
  vision?: boolean;
  /** Send `prompt_cache_key`; default: only to api.openai.com, where it is known to be accepted. */
  promptCacheKey?: boolean;
}

const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;
const DEFAULT_STREAM_IDLE_MS = 300_000;

/** One attempt's request and how to read its answer. */
interface PreparedAttempt {
  body: ChatCompletionCreateParamsStreaming;
  filter: ToolBlockFilter | undefined;
  sentTools: boolean;
  sentParams: AdaptableParam[];
  request: ModelRequest;
}

/** Second chances one `complete` call has used (each is given once). */
interface SecondChances {
  /** A note for the model appended to the request (after a provider-side malformed tool call). */
  note?: string;
  noFinishRetried?: boolean;
}

/**
 * A `Model` over any OpenAI-compatible chat-completions endpoint, streaming. The SDK's own retries
 * are off: this class retries 429, 5xx and connection failures that happen before any output (with
 * backoff honouring `retry-after`, reported through `handlers.onRetry`, sleeping on the clock so
 * cancellation cuts the wait), and never retries once output has streamed or the signal aborted.
 * Failures are thrown as `ModelError` subclasses (see classifyModelError.ts); cancellation as
 * `CancelledError`.
 */
export class OpenAICompatibleModel implements Model {
  readonly id: string;
  readonly vision: boolean;
  private sdkClient: OpenAI | undefined;
  private readonly protocol: ToolProtocol;
  private readonly maxRetries: number;
  private readonly idleMs: number;
  private readonly timing: RetryTiming;
  private readonly random: () => number;
  private textMode: boolean;
  private maxTokensParam: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';
  private readonly droppedParams = new Set<AdaptableParam>();
  private textCallCount = 0;
  private nativeCallCount = 0;
  /** The provider caches only at explicit breakpoints (providerQuirks.ts). */
  private readonly cacheBreakpoints: boolean;

  constructor(private readonly options: OpenAICompatibleModelOptions) {
    if (!isHttpUrl(options.baseURL)) {
      throw new ModelBadRequestError(`The model base URL "${options.baseURL}" is not a valid URL (expected e.g. https://api.openai.com/v1).`);
    }
    this.id = options.model;
    this.vision = options.vision ?? false;
    this.protocol = options.toolProtocol ?? 'auto';
    this.textMode = this.protocol === 'text';
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.idleMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS;
    this.timing = { ...DEFAULT_RETRY_TIMING, ...options.retryTiming };
    this.random = options.random ?? Math.random;
    const quirks = quirksFor(options.baseURL, options.model);
    for (const param of quirks.dropParams) this.droppedParams.add(param);
    this.cacheBreakpoints = quirks.cacheBreakpoints === true;
  }

  /** The SDK client, made on the first request: constructing a model (at activation too) loads no SDK. */
  private get client(): OpenAI {
    if (this.sdkClient) return this.sdkClient;
    const sdk = loadOpenAI();
    const clientOptions = {
      // The SDK refuses to start without a key; local servers ignore it.
      apiKey: this.options.apiKey || 'none',
      defaultHeaders: this.options.headers,
      defaultQuery: this.options.query,
      maxRetries: 0,
      timeout: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      fetch: withNormalizedErrorBodies((input, init) => fetch(input, init)),
      logger: this.options.logger,
      logLevel: 'warn' as const,
    };
    // Azure: the SDK's own client puts the key in `api-key`, the version in the query and the deployment in the path.
    this.sdkClient = this.options.azureApiVersion
      ? new sdk.AzureOpenAI({ ...clientOptions, baseURL: azureOpenAIBase(this.options.baseURL), apiVersion: this.options.azureApiVersion })
      : new sdk.OpenAI({ ...clientOptions, baseURL: this.options.baseURL });
    return this.sdkClient;
  }

  /** The protocol requests use now: `text` once `auto` has fallen back. */
  get activeToolProtocol(): 'native' | 'text' {
    return this.textMode ? 'text' : 'native';
  }

  async complete(request: ModelRequest, handlers: ModelHandlers = {}): Promise<ModelResponse> {
    throwIfAborted(request.signal);
    let retries = 0;
    const chances: SecondChances = {};
    for (;;) {
      const attempt = this.prepare(chances.note ? { ...request, messages: [...request.messages, { role: 'user', content: chances.note }] } : request);
      const progress: { assembler?: StreamAssembler } = {};
      try {
        return await this.stream(request, attempt, handlers, progress);
      } catch (error) {
        if (request.signal.aborted) throw new CancelledError();
        if (error instanceof NoFinishReasonError) {
          if (chances.noFinishRetried) throw error.giveUp(this.options.baseURL, progress.assembler?.visibleText);
          chances.noFinishRetried = true;
          handlers.onRetry?.({ attempt: 1, delayMs: 0, reason: 'the stream ended without a finish reason' });
          continue;
        }
        const failure = classifyModelError(error, {
          baseURL: this.options.baseURL,
          model: this.options.model,
          outputStarted: progress.assembler?.outputStarted ?? false,
          sentTools: attempt.sentTools,
          sentParams: attempt.sentParams,
        });
        switch (failure.kind) {
          case 'cancelled':
            throw new CancelledError();
          case 'unknown':
            throw failure.error;
          case 'fatal':
            if (failure.error instanceof StreamInterruptedError) failure.error.partialText = progress.assembler?.visibleText;
            throw failure.error;
          case 'tools_unsupported':
            this.switchToTextProtocol(failure.message, handlers);
            continue;
          case 'param_unsupported':
            this.adapt(failure.param, failure.message, handlers);
            continue;
          case 'malformed_tool_call':
            if (chances.note) {
              throw new ModelBadRequestError(`The model endpoint ${this.options.baseURL} could not read the model's tool call twice (400: ${failure.message}).`, { cause: error });
            }
            chances.note = malformedCallNote(failure.message, failure.generation);
            handlers.onRetry?.({ attempt: 1, delayMs: 0, reason: `the provider could not read the model's tool call (${failure.message})` });
            continue;
          case 'retryable': {
            retries = await waitToRetry({
              retries, maxRetries: this.maxRetries, failure, clock: this.options.clock, timing: this.timing, random: this.random, signal: request.signal,
              announce: (attempt, delayMs) => {
                this.options.logger.warn(`model ${this.id}: ${failure.reason}; retry ${attempt}/${this.maxRetries} in ${delayMs} ms`);
                handlers.onRetry?.({ attempt, of: this.maxRetries, delayMs, reason: failure.reason });
              },
            });
            throwIfAborted(request.signal);
          }
        }
      }
    }
  }

  private prepare(request: ModelRequest): PreparedAttempt {
    const offered = request.toolChoice === 'none' ? [] : request.tools;
    const messages = this.textMode
      ? toTextProtocolMessages(request.messages, offered.length > 0 ? renderTextToolPrompt(offered, request.toolChoice) : undefined)
      : request.messages;
    const reasoning = !this.droppedParams.has('reasoning_content');
    const wire = toOpenAIMessages(messages, { reasoning });
    const body: ChatCompletionCreateParamsStreaming = { model: this.options.model, messages: this.cacheBreakpoints ? withCacheBreakpoints(wire) : wire, stream: true };
    const sentParams: AdaptableParam[] = [];
    if (reasoning && messages.some((m) => m.role === 'assistant' && m.reasoning && m.toolCalls?.length)) sentParams.push('reasoning_content');
    if (!this.droppedParams.has('stream_options')) {
      body.stream_options = { include_usage: true };
      sentParams.push('stream_options');
    }
    const sentTools = !this.textMode && offered.length > 0;
    if (sentTools) {
      body.tools = toOpenAITools(offered);
      // `auto` is the default when tools are present; leaving it out keeps picky servers happy.
      if (request.toolChoice === 'required') body.tool_choice = 'required';
    }
    if (request.maxOutputTokens !== undefined) {
      if (this.maxTokensParam === 'max_tokens') {
        body.max_tokens = request.maxOutputTokens;
        sentParams.push('max_tokens');
      } else {
        body.max_completion_tokens = request.maxOutputTokens;
      }
    }
    if (request.cacheKey && sendsCacheKey(this.options)) body.prompt_cache_key = request.cacheKey;
    if (request.temperature !== undefined && !this.droppedParams.has('temperature')) {
      body.temperature = request.temperature;
      sentParams.push('temperature');
    }
    const filter = offered.length > 0 ? createToolBlockFilter(this.textMode ? 'text' : 'native', offered) : undefined;
    return { body, filter, sentTools, sentParams, request };
  }

  private async stream(
    request: ModelRequest,
    attempt: PreparedAttempt,
    handlers: ModelHandlers,
    progress: { assembler?: StreamAssembler },
  ): Promise<ModelResponse> {
    // Our own controller, so the idle watchdog can end a silent stream without it looking like a cancel.
    const controller = new AbortController();
    const abort = () => controller.abort();
    request.signal.addEventListener('abort', abort, { once: true });
    let stalled = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    try {
      // The SDK sends, retries and maps HTTP errors; the body is read by chatChunks, linear in its size.
      const response = await this.client.chat.completions.create(attempt.body, { signal: controller.signal }).asResponse();
      const chunks = chatChunks(response, { signal: controller.signal, apiError: sdkApiError });
      const assembler = new StreamAssembler(attempt.filter, handlers.onText);
      progress.assembler = assembler;
      // A real timer, like the SDK's own timeout: it guards the transport, not the agent's pacing.
      watchdog = setTimeout(() => {
        stalled = true;
        controller.abort();
      }, this.idleMs);
      // An aborted stream ends this loop without throwing (chatChunks, as the SDK's): the checks below tell why it ended.
      for await (const batch of chunks) {
        watchdog.refresh();
        for (const chunk of batch) assembler.add(chunk);
      }
      if (request.signal.aborted) throw new CancelledError();
      if (stalled) throw new StreamStalledError(this.idleMs);
      return this.toResponse(assembler, attempt);
    } finally {
      clearTimeout(watchdog);
      request.signal.removeEventListener('abort', abort);
    }
  }

  private toResponse(assembler: StreamAssembler, attempt: PreparedAttempt): ModelResponse {
    const answer = assembler.finish();
    if (answer.finishReason === undefined) throw new NoFinishReasonError();
    const offered = attempt.request.toolChoice === 'none' ? [] : attempt.request.tools;
    return recoverAnswer(answer, {
      tools: offered,
      mode: this.textMode ? 'text' : 'native',
      ids: { native: () => `call_${++this.nativeCallCount}`, text: () => `call_txt_${++this.textCallCount}` },
      logger: this.options.logger,
      modelId: this.id,
    });
  }

  private switchToTextProtocol(serverMessage: string, handlers: ModelHandlers): void {
    if (this.protocol !== 'auto' || this.textMode) {
      throw new ModelBadRequestError(
        `The model endpoint ${this.options.baseURL} does not accept native tool calling for ${this.options.model} (${serverMessage}). ` +
          `Set the tool protocol to "text" (or "auto") for this model.`,
      );
    }
    this.textMode = true;
    const notice = `The endpoint rejected native tool calling for ${this.options.model} (${serverMessage}); switched to text tool protocol.`;
    this.options.logger.info(`model ${this.id}: ${notice}`);
    handlers.onNotice?.(notice);
  }

  private adapt(param: AdaptableParam, serverMessage: string, handlers: ModelHandlers): void {
    if (param === 'max_tokens') this.maxTokensParam = 'max_completion_tokens';
    else this.droppedParams.add(param);
    const notice = `The endpoint ${this.options.baseURL} refused \`${param}\` (${serverMessage}); resending without it from now on.`;
    this.options.logger.info(`model ${this.id}: ${notice}`);
    handlers.onNotice?.(notice, 'other');
  }
}

/** The SDK's error for an `{"error": …}` payload inside a stream, as its own `Stream` throws it. */
function sdkApiError(error: unknown, headers: Headers): Error {
  return new (loadOpenAI().APIError)(undefined, error as object | undefined, undefined, headers);
}

function sendsCacheKey(options: OpenAICompatibleModelOptions): boolean {
  if (options.promptCacheKey !== undefined) return options.promptCacheKey;
  try {
    return new URL(options.baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Azure's API root for a resource endpoint (`https://NAME.openai.azure.com[/openai]` -> `.../openai`). */
export function azureOpenAIBase(endpoint: string): string {
  return `${endpoint.trim().replace(/\/+$/, '').replace(/\/openai$/, '')}/openai`;
}
