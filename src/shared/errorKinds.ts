import { z } from 'zod';

/**
 * Every `code` the core puts on an `error` event: the model errors (`src/agent/model/modelErrors.ts`,
 * `model` for one without a kind of its own), an answer cut off (`length`) or filtered
 * (`content_filter`), a plan the user's edit broke (`invalid_plan`), a report that could not be
 * saved, and a bug (`internal`). Each shell gives each of them plain words and a next action (a unit
 * test checks both tables and that the core emits no other code).
 */
export const ErrorCode = z.enum([
  'auth',
  'rate_limit',
  'context_length',
  'interrupted',
  'bad_request',
  'unavailable',
  'server_error',
  'model',
  'length',
  'content_filter',
  'invalid_plan',
  'report_not_saved',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** True for a code in `ErrorCode` (the event's `code` is a plain string, so stored histories of any age parse). */
export function isErrorCode(code: string | undefined): code is ErrorCode {
  return ErrorCode.safeParse(code).success;
}
