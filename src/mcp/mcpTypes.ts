/** Lifecycle of one configured server. */
export type McpServerStatus = 'connecting' | 'connected' | 'error' | 'disabled' | 'restarting';

/** What the hub reports about one server (a snapshot; a new object on every change). */
export interface McpServerState {
  name: string;
  status: McpServerStatus;
  /** Model-facing names of the server's tools now in the registry. */
  tools: string[];
  /** The last failure (spawn error, exit with the tail of stderr, connection refused...). */
  lastError?: string;
  /** Transport in use once connected. */
  transport?: 'stdio' | 'streamable-http' | 'sse';
  /** Process id of a stdio server while it runs. */
  pid?: number;
  /** Automatic restarts tried since the server last ran stably. */
  restartAttempts: number;
  /** Where the configuration came from. */
  source: string;
}

/** One message of a sampling request, flattened to text. */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  text: string;
}

/** A server asks the host's model for a completion (`sampling/createMessage`). */
export interface SamplingRequest {
  server: string;
  messages: SamplingMessage[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  /** Model names the server prefers, most preferred first (hints only). */
  modelHints: string[];
}

/** The host's answer: the completion, or a refusal (the user declined, no model...). */
export type SamplingResponse =
  | { approved: true; text: string; model: string; stopReason?: 'endTurn' | 'maxTokens' | 'stopSequence' }
  | { approved: false; reason?: string };

/** Implemented by the host: ask the user first, then call the model. */
export type SamplingHandler = (request: SamplingRequest, signal: AbortSignal) => Promise<SamplingResponse>;

/** A server asks the user for structured input (`elicitation/create`, form mode). */
export interface ElicitationRequest {
  server: string;
  message: string;
  /** A flat JSON schema object: `properties` of primitive types, `required`. */
  requestedSchema: Record<string, unknown>;
}

/** The user's answer: values for the schema, a refusal, or a dismissal. */
export type ElicitationResponse =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** Implemented by the host: turn the request into a question to the user. */
export type ElicitationHandler = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationResponse>;

/** How crashed servers are restarted: delays double from `initialDelayMs` up to `maxDelayMs`. */
export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** Automatic restarts before the server stays in `error` (until `hub.restart`). */
  maxAttempts: number;
  /** A server that ran this long counts as stable again: its attempt counter resets. */
  stableAfterMs: number;
}

/** 1 s, 2 s, 4 s... capped at 30 s, five attempts. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: 5, stableAfterMs: 60_000 };

/** A prompt template a server offers. */
export interface McpPromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

/** A prompt rendered by its server, flattened to text messages. */
export interface McpPromptResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
}

/** A resource (or resource template) a server offers. */
export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  /** True for a URI template such as `demo://resource/{id}`. */
  template: boolean;
}
