import { z } from 'zod';

/** How an endpoint lists its models: OpenAI's `GET /models`, Ollama's `/api/tags` (+ `/api/show`), Anthropic's `GET /v1/models`, or not at all. */
export const ModelListKind = z.enum(['openai', 'ollama', 'anthropic', 'none']);
export type ModelListKind = z.infer<typeof ModelListKind>;

/** One provider the set-up view offers (OpenAI, Azure, Ollama...), as the webview shows it. */
export const ProviderPresetInfo = z.object({
  id: z.string().min(1).max(50),
  label: z.string().min(1).max(100),
  /** The `stepwise.provider` value the preset writes. */
  provider: z.enum(['openai-compatible', 'azure-openai', 'anthropic', 'vscode-lm']),
  /** Default base URL ('' = the user must type one). */
  baseUrl: z.string().max(2_000),
  /** A key is required (local servers need none). */
  needsKey: z.boolean(),
  /** The user may change the base URL. */
  editableUrl: z.boolean(),
  modelList: ModelListKind,
  /** A model to preselect when the list cannot be fetched ('' = none). */
  suggestedModel: z.string().max(200),
});
export type ProviderPresetInfo = z.infer<typeof ProviderPresetInfo>;

/** What the user filled in the set-up view. The key is only in flight: never stored in webview state or settings. */
export const SetupDraft = z.object({
  presetId: z.string().min(1).max(50),
  baseUrl: z.string().trim().max(2_000),
  model: z.string().trim().max(500),
  /** Empty: use the key already stored for the endpoint's origin (if any). */
  apiKey: z.string().max(4_096).optional(),
  /** Azure OpenAI only. */
  apiVersion: z.string().trim().max(50).optional(),
  /** The context window learned from the endpoint for `model` (0/absent: unknown). */
  contextWindow: z.number().int().min(0).max(10_000_000).optional(),
});
export type SetupDraft = z.infer<typeof SetupDraft>;

/** Where a learned context window came from. */
export const ContextSource = z.enum(['num_ctx', 'model_info', 'listing', 'loaded', 'vscode']);
export type ContextSource = z.infer<typeof ContextSource>;

/** One model an endpoint offers, with its context window when the endpoint says it. */
export const SetupModel = z.object({
  id: z.string().min(1).max(500),
  contextWindow: z.number().int().positive().optional(),
  /** Where the window came from: Ollama's `num_ctx` parameter, the model's own `context_length`, the listing, the window Ollama loaded it with (`/api/ps`), or VS Code's `maxInputTokens`. */
  contextSource: ContextSource.optional(),
});
export type SetupModel = z.infer<typeof SetupModel>;

/** The current set-up, for the set-up view and the model switcher. */
export const SetupState = z.object({
  presets: z.array(ProviderPresetInfo).max(50),
  presetId: z.string().max(50),
  baseUrl: z.string().max(2_000),
  model: z.string().max(500),
  apiVersion: z.string().max(50),
  contextWindow: z.number().int().min(0),
  /** A key is stored (or given by the environment) for the current endpoint's origin. */
  keyStored: z.boolean(),
  /** VS Code's language models (empty when VS Code offers none), with the input window VS Code reports (`maxInputTokens`). */
  lmModels: z.array(z.object({ id: z.string().max(500), name: z.string().max(500), contextWindow: z.number().int().positive().optional() })).max(200),
  /** Saves done from the set-up view in this window; the view closes when the count grows. */
  saves: z.number().int().min(0),
});
export type SetupState = z.infer<typeof SetupState>;

/** Outcome codes of a connection test or a model listing, in plain words in the webview's string table. */
export const SetupErrorCode = z.enum(['auth', 'not_found', 'unreachable', 'rate_limit', 'bad_request', 'bad_url', 'no_key', 'other']);
export type SetupErrorCode = z.infer<typeof SetupErrorCode>;

/** Host -> webview: the model list of an endpoint, answering `setupListModels`. */
export const SetupModelsMessage = z.object({
  type: z.literal('setupModels'),
  requestId: z.number().int(),
  models: z.array(SetupModel).max(5_000),
  error: z.object({ code: SetupErrorCode, message: z.string().max(2_000) }).optional(),
});

/** Host -> webview: the result of a connection test. */
export const SetupTestMessage = z.object({
  type: z.literal('setupTestResult'),
  requestId: z.number().int(),
  ok: z.boolean(),
  latencyMs: z.number().min(0).optional(),
  model: z.string().max(500),
  endpoint: z.string().max(2_000),
  code: SetupErrorCode.optional(),
  message: z.string().max(2_000),
  /** The window the server actually loaded the model with (Ollama's `/api/ps` after the test), when it says. */
  contextWindow: z.number().int().positive().optional(),
  contextSource: ContextSource.optional(),
});
export type SetupTestMessage = z.infer<typeof SetupTestMessage>;
