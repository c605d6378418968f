import { isCancellation } from '../errors';
import {
  afterRetries,
  contextLength,
  type FailureClass,
  formatWait,
  interrupted,
  isContextLengthMessage,
  serverError,
  StreamStalledError,
} from './classifyModelError';
import { loadAnthropic } from './loadAnthropic';
import { ModelAuthError, ModelBadRequestError, ModelRateLimitError, ModelUnavailableError } from './modelErrors';
import type { HeaderLookup } from './retryPolicy';

/** What the failed Anthropic attempt was. */
export interface AnthropicFailureContext {
  baseURL: string;
  model: string;
  /** Text, thinking or a tool call had already arrived when it failed. */
  outputStarted: boolean;
}

/** Anthropic's error types that mean "try again": overloaded (529), its 5xx and rate limits. */
const RETRYABLE_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const MAX_MESSAGE_CHARS = 400;

/** Anthropic's error body `{type: 'error', error: {type, message}}` as the SDK keeps it. */
interface ErrorBody {
  error?: { type?: unknown; message?: unknown };
  message?: unknown;
}

/** The error's type and the server's own words (cut to a readable length). */
export function anthropicErrorWords(error: unknown): { type?: string; message: string } {
  const { APIError } = loadAnthropic();
  let type: string | undefined;
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof APIError) {
    const body = error.error as ErrorBody | undefined;
    if (typeof body?.error?.type === 'string') type = body.error.type;
    if (typeof body?.error?.message === 'string') message = body.error.message;
    else if (typeof body?.message === 'string') message = body.message;
    else message = message.replace(/^\d{3}\s+/, '');
  }
  message = message.replace(/\s+/g, ' ').trim();
  if (message.length > MAX_MESSAGE_CHARS) message = `${message.slice(0, MAX_MESSAGE_CHARS)}…`;
  return type ? { type, message } : { message };
}

/** `anthropic-ratelimit-*` headers in one line for the log ("requests-remaining=0, tokens-reset=…"), or empty. */
export function rateLimitSummary(headers: HeaderLookup & { forEach?: (cb: (value: string, key: string) => void) => void } | undefined): string {
  if (!headers?.forEach) return '';
  const parts: string[] = [];
  headers.forEach((value, key) => {
    if (key.toLowerCase().startsWith('anthropic-ratelimit-')) parts.push(`${key.toLowerCase().slice('anthropic-ratelimit-'.length)}=${value}`);
  });
  return parts.sort().join(', ');
}

/**
 * Sorts a failed Anthropic call into what to do next, in the same classes (and with the same
 * errors) as `classifyModelError`, so the one retry rule applies: cancellation; broken connections
 * (never retried once output streamed); an `error` event inside the stream (`overloaded_error`
 * retried before output); 401/403; context length (`prompt is too long`, 413); 429 (its
 * `retry-after` honoured by the retry rule); 529 and other 5xx, 408, 409; else the request is wrong.
 */
export function classifyAnthropicError(error: unknown, context: AnthropicFailureContext): FailureClass {
  const { APIError, APIUserAbortError, APIConnectionError } = loadAnthropic();
  if (error instanceof APIUserAbortError || isCancellation(error)) return { kind: 'cancelled' };
  const where = context.baseURL;
  if (error instanceof APIConnectionError || error instanceof StreamStalledError || isNetworkFailure(error)) {
    const reason = error instanceof StreamStalledError ? `the stream stalled (${error.message})` : `connection failed (${anthropicErrorWords(error).message})`;
    if (context.outputStarted) return { kind: 'fatal', error: interrupted(reason, error) };
    return {
      kind: 'retryable',
      reason,
      giveUp: (retries) =>
        new ModelUnavailableError(`Could not get an answer from the model endpoint ${where}: ${reason}${afterRetries(retries)}. Check the base URL and your network.`, { cause: error }),
    };
  }
  if (!(error instanceof APIError)) return { kind: 'unknown', error };
  const { type, message } = anthropicErrorWords(error);
  const detail = type ? `${type}: ${message}` : message;
  const status = error.status;
  if (status === undefined) {
    // An `error` event inside the stream (`overloaded_error` under load).
    if (context.outputStarted) return { kind: 'fatal', error: interrupted(detail, error) };
    if (isContextLengthMessage(message)) return { kind: 'fatal', error: contextLength(message, error) };
    if (type !== undefined && !RETRYABLE_TYPES.has(type)) return { kind: 'fatal', error: new ModelBadRequestError(`The model endpoint ${where} ended the answer with an error (${detail}).`, { cause: error }) };
    return { kind: 'retryable', reason: `the server sent an error event (${detail})`, giveUp: (retries) => serverError(where, detail, retries, error) };
  }
  if (status === 401 || status === 403) {
    return { kind: 'fatal', error: new ModelAuthError(`The model endpoint ${where} refused the request (${status}: ${detail}). Check your Anthropic API key (ANTHROPIC_API_KEY) and base URL.`, { cause: error }) };
  }
  if (status === 413 || (status !== 429 && isContextLengthMessage(message))) return { kind: 'fatal', error: contextLength(message, error) };
  if (status === 429) {
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
  if (status >= 500 || status === 408 || status === 409) {
    const what = status === 529 ? 'overloaded' : 'server error';
    return { kind: 'retryable', reason: `${what} (${status}: ${detail})`, headers: error.headers, giveUp: (retries) => serverError(where, `${status}: ${detail}`, retries, error) };
  }
  if (status === 404) {
    return { kind: 'fatal', error: new ModelBadRequestError(`The model endpoint ${where} answered 404 (${detail}). Check the base URL and the model name "${context.model}".`, { cause: error }) };
  }
  return { kind: 'fatal', error: new ModelBadRequestError(`The model endpoint ${where} rejected the request (${status}: ${detail}).`, { cause: error }) };
}

function isNetworkFailure(error: unknown): boolean {
  if (error instanceof SyntaxError) return true; // a garbled SSE event: the stream cannot be trusted
  if (!(error instanceof Error)) return false;
  if (error instanceof TypeError && (error.message === 'terminated' || error.message === 'fetch failed')) return true;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}
