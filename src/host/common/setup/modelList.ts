import { z } from 'zod';
import type { ModelListKind, SetupErrorCode, SetupModel } from '../../../shared/setupProtocol';

/** OpenAI's `GET /models` (OpenRouter and others add `context_length`). */
export const OpenAIModelList = z.object({
  data: z.array(z.looseObject({ id: z.string().min(1), context_length: z.number().int().positive().optional() })),
});
export type OpenAIModelList = z.infer<typeof OpenAIModelList>;

/** Anthropic's `GET /v1/models`: `data` with `id` and `display_name`, newest first. */
export const AnthropicModelList = z.object({
  data: z.array(z.looseObject({ id: z.string().min(1), display_name: z.string().optional() })),
});

/** The API version header Anthropic requires on every request (the SDK sends the same). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Ollama's `GET /api/tags`: the models pulled locally. */
export const OllamaTags = z.object({
  models: z.array(z.looseObject({ name: z.string().min(1), model: z.string().optional() })),
});
export type OllamaTags = z.infer<typeof OllamaTags>;

/** Ollama's `POST /api/show`: `parameters` is Modelfile text (`num_ctx 8192` lines), `model_info` the GGUF metadata. */
export const OllamaShow = z.looseObject({
  parameters: z.string().optional(),
  model_info: z.record(z.string(), z.unknown()).optional(),
});
export type OllamaShow = z.infer<typeof OllamaShow>;

/** Ollama's `GET /api/ps`: the loaded models, each with the context window it was loaded with (newer servers). */
export const OllamaPs = z.object({
  models: z.array(z.looseObject({ name: z.string(), model: z.string().optional(), context_length: z.number().int().positive().optional() })),
});
export type OllamaPs = z.infer<typeof OllamaPs>;

/** The window `model` is loaded with according to an `/api/ps` answer (`undefined`: not loaded, or an older server). */
export function loadedContextLength(json: unknown, model: string): number | undefined {
  const loaded = OllamaPs.parse(json).models.find((m) => m.name === model || m.model === model);
  return loaded?.context_length;
}

/**
 * The models Ollama has loaded now (`/api/ps`), by name, each with the window it was loaded with
 * (`undefined` when an older server does not say). `undefined` when the endpoint does not answer
 * `/api/ps` (not Ollama, or unreachable); never throws.
 */
export async function ollamaLoadedModels(request: EndpointRequest): Promise<Map<string, number | undefined> | undefined> {
  try {
    const loaded = new Map<string, number | undefined>();
    for (const m of OllamaPs.parse(await getJson(`${ollamaRoot(request.baseUrl)}/api/ps`, request)).models) {
      loaded.set(m.name, m.context_length);
      if (m.model) loaded.set(m.model, m.context_length);
    }
    return loaded;
  } catch {
    return undefined;
  }
}

/**
 * The window Ollama serves `model` with now (after a request loaded it): `/api/ps`'s
 * `context_length`, which is smaller than the trained length when the server runs with a smaller
 * `OLLAMA_CONTEXT_LENGTH`. `undefined` when the server does not say; never throws.
 */
export async function ollamaLoadedWindow(request: EndpointRequest, model: string): Promise<number | undefined> {
  try {
    return loadedContextLength(await getJson(`${ollamaRoot(request.baseUrl)}/api/ps`, request), model);
  } catch {
    return undefined;
  }
}

/** A listing or test request that failed, with a code the UI turns into plain words. */
export class SetupRequestError extends Error {
  constructor(
    readonly code: SetupErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The models of an OpenAI-style listing, sorted by id; `context_length` when the listing gives it. */
export function parseOpenAIModels(json: unknown): SetupModel[] {
  const list = OpenAIModelList.parse(json);
  return list.data
    .map((m): SetupModel => (m.context_length ? { id: m.id, contextWindow: m.context_length, contextSource: 'listing' } : { id: m.id }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The models of an Anthropic `/v1/models` answer, in the server's order (newest first). */
export function parseAnthropicModels(json: unknown): SetupModel[] {
  return AnthropicModelList.parse(json).data.map((m) => ({ id: m.id }));
}

/** The model names of an Ollama `/api/tags` answer, in the server's order. */
export function parseOllamaTags(json: unknown): string[] {
  return OllamaTags.parse(json).models.map((m) => m.name);
}

/** The `num_ctx` of Ollama's `parameters` text, if set (the window the server actually uses). */
export function parseNumCtx(parameters: string | undefined): number | undefined {
  const match = /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters ?? '');
  const value = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** `<architecture>.context_length` of Ollama's `model_info` (any `*.context_length` when the architecture is not named). */
export function contextLengthOf(modelInfo: Record<string, unknown> | undefined): number | undefined {
  if (!modelInfo) return undefined;
  const arch = modelInfo['general.architecture'];
  const candidates = typeof arch === 'string' ? [modelInfo[`${arch}.context_length`]] : Object.entries(modelInfo).filter(([k]) => k.endsWith('.context_length')).map(([, v]) => v);
  const value = candidates.find((v): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0);
  return value;
}

/**
 * The context window of an Ollama `/api/show` answer: `num_ctx` when the model sets it (what the
 * server uses), else the model's trained `context_length`; `undefined` when neither is there.
 */
export function ollamaContextWindow(json: unknown): Pick<SetupModel, 'contextWindow' | 'contextSource'> {
  const show = OllamaShow.parse(json);
  const numCtx = parseNumCtx(show.parameters);
  if (numCtx) return { contextWindow: numCtx, contextSource: 'num_ctx' };
  const trained = contextLengthOf(show.model_info);
  return trained ? { contextWindow: trained, contextSource: 'model_info' } : {};
}

/** Ollama's API root for an OpenAI-compatible base URL (`http://host:11434/v1` -> `http://host:11434`). */
export function ollamaRoot(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** How to reach an endpoint for a listing. */
export interface EndpointRequest {
  baseUrl: string;
  apiKey?: string;
  /** Extra headers (Azure's `api-key`). */
  headers?: Record<string, string>;
  signal: AbortSignal;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
}

const LIST_TIMEOUT_MS = 15_000;
/** Ollama `/api/show` calls per listing (each is a local request; a big library need not be read whole). */
const MAX_SHOW_CALLS = 40;

/**
 * The models an endpoint offers. `ollama`: `/api/tags` with each model's context window from
 * `/api/show` (falling back to `/models` when the server is not Ollama); `openai`: `GET /models`.
 * Throws `SetupRequestError` with a code for the UI.
 */
export async function listModels(kind: ModelListKind, request: EndpointRequest): Promise<SetupModel[]> {
  if (kind === 'none') return [];
  if (kind === 'anthropic') return anthropicModels(request);
  if (kind === 'ollama') {
    const root = ollamaRoot(request.baseUrl);
    const tags = await getJson(`${root}/api/tags`, request).then(parseOllamaTags, () => undefined);
    if (tags) {
      const windows = await Promise.all(tags.slice(0, MAX_SHOW_CALLS).map((name) => showWindow(root, name, request)));
      return tags.map((id, i) => ({ id, ...(windows[i] ?? {}) }));
    }
  }
  const json = await getJson(`${request.baseUrl.replace(/\/+$/, '')}/models`, request);
  try {
    return parseOpenAIModels(json);
  } catch {
    throw new SetupRequestError('other', `${request.baseUrl}/models did not answer with a model list.`);
  }
}

/** Anthropic's listing: the key in `x-api-key` (never as a bearer token), the version header, one page of up to 1000. */
async function anthropicModels(request: EndpointRequest): Promise<SetupModel[]> {
  const root = request.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, ...request.headers };
  if (request.apiKey) headers['x-api-key'] = request.apiKey;
  const json = await getJson(`${root}/v1/models?limit=1000`, { ...request, apiKey: undefined, headers });
  try {
    return parseAnthropicModels(json);
  } catch {
    throw new SetupRequestError('other', `${root}/v1/models did not answer with a model list.`);
  }
}

async function showWindow(root: string, model: string, request: EndpointRequest): Promise<Pick<SetupModel, 'contextWindow' | 'contextSource'> | undefined> {
  try {
    return ollamaContextWindow(await getJson(`${root}/api/show`, request, { model }));
  } catch {
    return undefined; // a model without metadata still appears in the list
  }
}

/** GET (or POST `body`) `url` as JSON; failures become `SetupRequestError`s. */
async function getJson(url: string, request: EndpointRequest, body?: unknown): Promise<unknown> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SetupRequestError('bad_url', `"${request.baseUrl}" is not a valid URL (expected e.g. http://127.0.0.1:11434/v1).`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new SetupRequestError('bad_url', `"${request.baseUrl}" is not an http(s) URL.`);
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await (request.fetch ?? fetch)(parsed, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.any([request.signal, AbortSignal.timeout(LIST_TIMEOUT_MS)]),
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    // The facts only: each shell adds its own advice for `unreachable` (the webview's words, the CLI's hint).
    throw new SetupRequestError('unreachable', `${parsed.origin}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}.`);
  }
  if (!response.ok) throw new SetupRequestError(codeForStatus(response.status), `${parsed.origin}${parsed.pathname} answered ${response.status} ${response.statusText}`.trim() + '.');
  try {
    return await response.json();
  } catch {
    throw new SetupRequestError('other', `${parsed.origin}${parsed.pathname} did not answer with JSON.`);
  }
}

/** The UI code of an HTTP error status. */
export function codeForStatus(status: number): SetupErrorCode {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limit';
  if (status >= 400 && status < 500) return 'bad_request';
  return 'unreachable';
}
