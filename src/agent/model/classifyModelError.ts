import type { APIError } from 'openai';
import { isCancellation } from '../errors';
import { loadOpenAI } from './loadOpenAI';
import {
  ContextLengthError,
  ModelAuthError,
  ModelBadRequestError,
  type ModelError,
  ModelRateLimitError,
  ModelServerError,
  ModelUnavailableError,
  StreamInterruptedError,
} from './modelErrors';
import type { HeaderLookup } from './retryPolicy';

/** Raised by the adapter when a stream sent nothing for too long; handled like a dropped connection. */
export class StreamStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(`no data for ${Math.round(idleMs / 1000)} s`);
    this.name = 'StreamStalledError';
  }
}

/** Request parameters some OpenAI-compatible servers reject; the adapter adapts once and resends. */
export type AdaptableParam = 'max_tokens' | 'temperature' | 'stream_options' | 'reasoning_content';

/** What the failed attempt was. */
export interface FailureContext {
  baseURL: string;
  model: string;
  /** Text or a tool-call fragment had already arrived when it failed. */
  outputStarted: boolean;
  /** The request carried native `tools`. */
  sentTools: boolean;
  /** Optional parameters the request carried. */
  sentParams: readonly AdaptableParam[];
}

/** How the adapter should react to a failed attempt. */
export type FailureClass =
  | { kind: 'cancelled' }
  /** The endpoint does not do native tool calling: switch to the text tool protocol. */
  | { kind: 'tools_unsupported'; message: string }
  /** The provider could not parse the tool call the model generated (Groq's `tool_use_failed`): retry once with a note. */
  | { kind: 'malformed_tool_call'; message: string; generation?: string }
  /** The endpoint rejected an optional parameter: adapt the request and resend. */
  | { kind: 'param_unsupported'; param: AdaptableParam; message: string }
  /** Worth another try; `giveUp` builds the error once retries are exhausted (or the wait is too long). */
  | { kind: 'retryable'; reason: string; headers?: HeaderLookup; giveUp: (retries: number, tooLongMs?: number) => ModelError }
  | { kind: 'fatal'; error: ModelError }
  /** Not a model failure (a bug): rethrow as it is. */
  | { kind: 'unknown'; error: unknown };

const CONTEXT_LENGTH = /maximum context length|context[ _-]?length|context window|too many tokens|prompt is too long|reduce the length|input is too long/i;
const TOOLS = /\btools?\b|tool[ _-]?choice|function[ _-]?call|tool[ _-]?(?:use|call)/i;
const REFUSED = /unsupported|not supported|does not support|doesn't support|unrecognized|unknown|not enabled|not available|not allowed|not permitted|requires|no endpoints|extra (?:inputs|fields)/i;
/** Rejections that name tools but are about our request (a tool's schema, the shape of the history). */
const OUR_TOOL_MISTAKE = /tools\[\d+\]|messages\[\d+\]|tool_call_id|must be (?:followed|a response)|role '?tool'?/i;
const UNSUPPORTED = /unsupported|not supported|does not support|doesn't support|unrecognized|unknown (?:field|param|argument)|extra (?:inputs|fields)|not permitted|only the default/i;
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const MAX_MESSAGE_CHARS = 400;

/** True when a message reads like "the prompt does not fit the context window". */
export function isContextLengthMessage(message: string): boolean {
  return CONTEXT_LENGTH.test(message);
}

/** The server's own words, without the SDK's status prefix, cut to a readable length. */
export function serverMessage(error: unknown): string {
  let message: string;
  if (error instanceof loadOpenAI().APIError) {
    const body = error.error as { message?: unknown } | undefined;
    message = typeof body?.message === 'string' ? body.message : error.message.replace(/^\d{3}\s+/, '');
  } else {
    message = error instanceof Error ? error.message : String(error);
  }
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
}

/**
 * Sorts a failed model call into what to do next. Order matters: cancellation first, then broken
 * connections (never retried once output has streamed), then HTTP statuses; context-length is
 * recognised by code or message on any status but 429 ("too many tokens per minute" is a rate).
 */
// eslint-disable-next-line max-lines-per-function -- one ordered decision table over the provider's failures; split, the order of the checks (which is the logic) is lost
export function classifyModelError(error: unknown, context: FailureContext): FailureClass {
  const { APIError, APIUserAbortError } = loadOpenAI();
  if (error instanceof APIUserAbortError || isCancellation(error)) return { kind: 'cancelled' };
  const where = context.baseURL;

  if (isConnectionFailure(error)) {
    const reason = error instanceof StreamStalledError ? `the stream stalled (${error.message})` : `connection failed (${serverMessage(error)})`;
    if (context.outputStarted) return { kind: 'fatal', error: interrupted(reason, error) };
    return {
      kind: 'retryable',
      reason,
      giveUp: (retries) =>
        new ModelUnavailableError(
          `Could not get an answer from the model endpoint ${where}: ${reason}${afterRetries(retries)}. Check that the server is running and that the base URL is right.`,
          { cause: error },
        ),
    };
  }
  if (!(error instanceof APIError)) return { kind: 'unknown', error };

  const message = serverMessage(error);
  const status = error.status;
  if (status === undefined) {
    // An error event inside the stream (OpenRouter and others send these).
    if (context.outputStarted) return { kind: 'fatal', error: interrupted(message, error) };
    if (isContextLengthMessage(message)) return { kind: 'fatal', error: contextLength(message, error) };
    return { kind: 'retryable', reason: message, giveUp: (retries) => serverError(where, message, retries, error) };
  }

  if (status === 401 || status === 403) {
    return {
      kind: 'fatal',
      error: new ModelAuthError(
        `The model endpoint ${where} refused the request (${status}: ${message}). Check your API key and base URL.`,
        { cause: error },
      ),
    };
  }
  if (status !== 429 && (error.code === 'context_length_exceeded' || status === 413 || isContextLengthMessage(message))) {
    return { kind: 'fatal', error: contextLength(message, error) };
  }

  const shouldRetry = error.headers?.get('x-should-retry');
  if (status === 429) {
    if (error.code === 'insufficient_quota' || shouldRetry === 'false') {
      return {
        kind: 'fatal',
        error: new ModelRateLimitError(`The model endpoint ${where} refused the request: ${message}. Check your plan and billing.`, { cause: error }),
      };
    }
    return {
      kind: 'retryable',
      reason: `rate limited (429: ${message})`,
      headers: error.headers,
      giveUp: (retries, tooLongMs) =>
        new ModelRateLimitError(
          tooLongMs !== undefined
            ? `The model endpoint ${where} is rate limiting requests and asks to wait ${formatWait(tooLongMs)} (429: ${message}). Try again later.`
            : `The model endpoint ${where} is rate limiting requests (429: ${message})${afterRetries(retries)}. Wait a moment and try again.`,
          { cause: error },
        ),
    };
  }
  if (shouldRetry !== 'false' && (status >= 500 || status === 408 || status === 409 || shouldRetry === 'true')) {
    return {
      kind: 'retryable',
      reason: `server error (${status}: ${message})`,
      headers: error.headers,
      giveUp: (retries) => serverError(where, `${status}: ${message}`, retries, error),
    };
  }

  if (status === 400 && isMalformedToolCall(error, message)) {
    const generation = (error.error as { failed_generation?: unknown } | undefined)?.failed_generation;
    return { kind: 'malformed_tool_call', message, ...(typeof generation === 'string' ? { generation } : {}) };
  }
  if ((status === 400 || status === 404 || status === 422) && context.sentTools && isToolsRefusal(message)) {
    return { kind: 'tools_unsupported', message };
  }
  if (status === 400 || status === 422) {
    const param = rejectedParam(message, context.sentParams);
    if (param) return { kind: 'param_unsupported', param, message };
  }
  if (status === 404) {
    return {
      kind: 'fatal',
      error: new ModelBadRequestError(
        `The model endpoint ${where} answered 404 (${message}). Check the base URL (it usually ends in /v1) and the model name "${context.model}".`,
        { cause: error },
      ),
    };
  }
  return { kind: 'fatal', error: new ModelBadRequestError(`The model endpoint ${where} rejected the request (${status}: ${message}).`, { cause: error }) };
}

/** True when a rejection says the endpoint or model does not do native tool calling. */
export function isToolsRefusal(message: string): boolean {
  return TOOLS.test(message) && REFUSED.test(message) && !OUR_TOOL_MISTAKE.test(message);
}

/** Groq (and servers copying it) answer 400 `tool_use_failed` when the model's own tool call did not parse. */
function isMalformedToolCall(error: APIError, message: string): boolean {
  return error.code === 'tool_use_failed' || /failed to (?:call a function|parse tool call)/i.test(message);
}

function isConnectionFailure(error: unknown): boolean {
  if (error instanceof loadOpenAI().APIConnectionError || error instanceof StreamStalledError) return true;
  if (error instanceof SyntaxError) return true; // a garbled SSE chunk: the stream cannot be trusted
  if (!(error instanceof Error)) return false;
  // undici reports a socket closed mid-body as `TypeError: terminated`, with the socket error as cause.
  if (error instanceof TypeError && (error.message === 'terminated' || error.message === 'fetch failed')) return true;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

function rejectedParam(message: string, sent: readonly AdaptableParam[]): AdaptableParam | undefined {
  const lower = message.toLowerCase();
  if (sent.includes('max_tokens') && lower.includes('max_tokens') && (lower.includes('max_completion_tokens') || UNSUPPORTED.test(message))) {
    return 'max_tokens';
  }
  if (sent.includes('stream_options') && lower.includes('stream_options')) return 'stream_options';
  if (sent.includes('temperature') && lower.includes('temperature') && UNSUPPORTED.test(message)) return 'temperature';
  if (sent.includes('reasoning_content') && lower.includes('reasoning_content')) return 'reasoning_content';
  return undefined;
}

/** The connection dropped after output had streamed: not retried. */
export function interrupted(reason: string, cause: unknown): StreamInterruptedError {
  return new StreamInterruptedError(
    `The connection dropped after part of the answer had streamed (${reason}). The partial answer is shown but incomplete; try again.`,
    { cause },
  );
}

/** The prompt does not fit: the context layer elides and retries. */
export function contextLength(message: string, cause: unknown): ContextLengthError {
  return new ContextLengthError(`The conversation does not fit the model's context window (${message}).`, { cause });
}

/** The server answered, with an error: said as such, never as "did not answer". */
export function serverError(where: string, detail: string, retries: number, cause: unknown): ModelServerError {
  return new ModelServerError(`The model endpoint ${where} answered with an error (${detail})${afterRetries(retries)}. Try again later.`, { cause });
}

/** "; gave up after N retries", or nothing before the first retry. */
export function afterRetries(retries: number): string {
  return retries === 0 ? '' : `; gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}`;
}

/** A wait in words: seconds, minutes or hours. */
export function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.ceil(minutes / 60)} h`;
}
