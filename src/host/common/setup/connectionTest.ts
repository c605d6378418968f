import { CancelledError } from '../../../agent/errors';
import { ModelError } from '../../../agent/model/modelErrors';
import type { Model } from '../../../agent/model/types';
import type { SetupErrorCode } from '../../../shared/setupProtocol';

/** What a connection test found: a reply (with the round trip) or the classified failure in plain words. */
export type ConnectionTestResult =
  | { ok: true; latencyMs: number; model: string; reply: string; contextWindow?: number }
  | { ok: false; model: string; code: SetupErrorCode; message: string };

/** The longest a test waits for the tiny answer. */
const TEST_TIMEOUT_MS = 60_000;

/**
 * Sends one tiny real chat request (no tools, a few output tokens) through `model` — the same
 * adapter a run uses, so its error classification (`classifyModelError`) names what is wrong: a
 * refused key, a wrong URL or model (404), an unreachable server, rate limits. `now` measures the
 * latency. Cancellation (`signal`) is rethrown as `CancelledError`.
 */
export async function testConnection(model: Model, signal: AbortSignal, now: () => number): Promise<ConnectionTestResult> {
  const started = now();
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(TEST_TIMEOUT_MS)]);
  try {
    const response = await model.complete({
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      tools: [],
      toolChoice: 'none',
      maxOutputTokens: 16,
      signal: timeout,
    });
    return { ok: true, latencyMs: Math.max(0, now() - started), model: model.id, reply: response.text.trim().slice(0, 200) };
  } catch (error) {
    if (signal.aborted) throw new CancelledError();
    if (error instanceof CancelledError) return { ok: false, model: model.id, code: 'unreachable', message: `No answer within ${TEST_TIMEOUT_MS / 1000} s.` };
    if (error instanceof ModelError) return { ok: false, model: model.id, code: codeOfModelError(error), message: error.message };
    return { ok: false, model: model.id, code: 'other', message: error instanceof Error ? error.message : String(error) };
  }
}

/** The set-up code of a model failure (`ModelError.code` plus the 404 that `bad_request` covers). */
export function codeOfModelError(error: ModelError): SetupErrorCode {
  switch (error.code) {
    case 'auth':
      return 'auth';
    case 'rate_limit':
      return 'rate_limit';
    case 'unavailable':
    case 'server_error':
    case 'interrupted':
      return 'unreachable';
    case 'bad_request':
      return /\b404\b/.test(error.message) ? 'not_found' : /not a valid URL/.test(error.message) ? 'bad_url' : 'bad_request';
    default:
      return 'other';
  }
}
