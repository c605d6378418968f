import { StepwiseError } from '../errors';

/** A model call that failed for a reason the user must see; ends the turn cleanly. */
export class ModelError extends StepwiseError {
  /** Stable code for events: `auth`, `rate_limit`, `context_length`, `interrupted`, `bad_request`, `unavailable`. */
  readonly code: string = 'model';
}

/** 401/403: not retried. */
export class ModelAuthError extends ModelError {
  override readonly code = 'auth';
}

/** 429 that outlived the retries. */
export class ModelRateLimitError extends ModelError {
  override readonly code = 'rate_limit';
}

/** The prompt does not fit the model's context window; the context layer elides and retries once. */
export class ContextLengthError extends ModelError {
  override readonly code = 'context_length';
}

/** The connection dropped after part of the answer had streamed; not retried (output was shown). */
export class StreamInterruptedError extends ModelError {
  override readonly code = 'interrupted';
  /** The visible text that had streamed before the drop (already delivered through `onText`). */
  partialText?: string;
}

/** 400 and similar: the request itself is wrong. */
export class ModelBadRequestError extends ModelError {
  override readonly code = 'bad_request';
}

/** No answer at all (connection refused, reset, timed out, DNS) that outlived the retries. */
export class ModelUnavailableError extends ModelError {
  override readonly code: string = 'unavailable';
}

/** The server answered, with an error status (5xx, 408, 409) or an error event, and kept doing so through the retries. */
export class ModelServerError extends ModelUnavailableError {
  override readonly code = 'server_error';
}
