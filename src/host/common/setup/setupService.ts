import { CancelledError } from '../../../agent/errors';
import { AnthropicModel } from '../../../agent/model/anthropicModel';
import { OpenAICompatibleModel } from '../../../agent/model/openaiModel';
import { ModelError } from '../../../agent/model/modelErrors';
import type { Model } from '../../../agent/model/types';
import type { Clock, Logger } from '../../../agent/ports';
import type { ProviderPresetInfo, SetupDraft, SetupErrorCode, SetupModel } from '../../../shared/setupProtocol';
import { codeOfModelError, testConnection, type ConnectionTestResult } from './connectionTest';
import { listModels, ollamaLoadedModels, ollamaLoadedWindow, SetupRequestError } from './modelList';
import { DEFAULT_AZURE_API_VERSION, presetById } from './providerPresets';

/** What the set-up needs from its host: stored keys and (in VS Code) its language models. */
export interface SetupServiceDeps {
  /** The key stored for `baseUrl`'s origin (or given by the environment for it). */
  storedKey: (baseUrl: string) => Promise<string | undefined>;
  /** A VS Code language model by id (`undefined` outside VS Code or when there is none). */
  lmModel?: (id: string) => Promise<Model | undefined>;
  clock: Clock;
  logger: Logger;
}

/** The settings a saved set-up writes (below `stepwise.`); the key never is one. */
export interface SetupSettings {
  provider: ProviderPresetInfo['provider'];
  /** '' for OpenAI (the default endpoint, where `OPENAI_API_KEY` applies). */
  baseUrl: string;
  model: string;
  'azure.apiVersion'?: string;
  /** The learned window, 0 when the endpoint did not say (the model catalog then decides). */
  contextWindow: number;
}

/** A draft the set-up cannot use, in plain words. */
export class SetupDraftError extends Error {
  constructor(
    readonly code: SetupErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The IDE-free half of the set-up view: resolves a draft (preset + URL + model + key) to an
 * endpoint, lists its models, tests it with one tiny real request, and says which settings a
 * save writes. Keys typed in the draft are used for the request only; storing them is the host's.
 */
export class SetupService {
  constructor(private readonly deps: SetupServiceDeps) {}

  /** The preset and base URL a draft points at; throws `SetupDraftError` for an unknown preset or a missing URL. */
  endpointOf(draft: SetupDraft): { preset: ProviderPresetInfo; baseUrl: string } {
    const preset = presetById(draft.presetId);
    if (!preset) throw new SetupDraftError('bad_request', `Unknown provider "${draft.presetId}".`);
    const baseUrl = (preset.editableUrl ? draft.baseUrl || preset.baseUrl : preset.baseUrl).trim();
    if (preset.provider !== 'vscode-lm' && !baseUrl) throw new SetupDraftError('bad_url', preset.provider === 'azure-openai' ? 'Enter the resource endpoint, e.g. https://NAME.openai.azure.com.' : 'Enter the server\'s base URL, e.g. http://127.0.0.1:8000/v1.');
    if (preset.provider !== 'vscode-lm' && !isHttpUrl(baseUrl)) throw new SetupDraftError('bad_url', `"${baseUrl}" is not a valid URL (expected e.g. http://127.0.0.1:11434/v1).`);
    return { preset, baseUrl };
  }

  /** The key a request for `draft` uses: the typed one, else the one stored for the endpoint's origin. */
  async keyOf(draft: SetupDraft, baseUrl: string): Promise<string | undefined> {
    return draft.apiKey?.trim() || (await this.deps.storedKey(baseUrl));
  }

  /** The endpoint's models (with context windows where it says them); failures come back as `error`. */
  async models(draft: SetupDraft, signal: AbortSignal): Promise<{ models: SetupModel[]; error?: { code: SetupErrorCode; message: string } }> {
    try {
      const { preset, baseUrl } = this.endpointOf(draft);
      if (preset.modelList === 'none') return { models: [] };
      const apiKey = await this.keyOf(draft, baseUrl);
      return { models: await listModels(preset.modelList, { baseUrl, signal, ...(apiKey ? { apiKey } : {}) }) };
    } catch (error) {
      if (signal.aborted) throw new CancelledError();
      if (error instanceof SetupRequestError || error instanceof SetupDraftError) return { models: [], error: { code: error.code, message: error.message } };
      throw error;
    }
  }

  /**
   * For an Ollama endpoint: the models loaded now, with the window each was loaded with; `undefined`
   * for other endpoints or when the server does not say. Never throws for an endpoint's failure.
   */
  async loadedModels(draft: SetupDraft, signal: AbortSignal): Promise<Map<string, number | undefined> | undefined> {
    let endpoint;
    try {
      endpoint = this.endpointOf(draft);
    } catch {
      return undefined;
    }
    if (endpoint.preset.modelList !== 'ollama') return undefined;
    const apiKey = await this.keyOf(draft, endpoint.baseUrl);
    return ollamaLoadedModels({ baseUrl: endpoint.baseUrl, signal, ...(apiKey ? { apiKey } : {}) });
  }

  /** Sends one tiny real request with the draft's endpoint, key and model; never throws for an endpoint's failure. */
  async test(draft: SetupDraft, signal: AbortSignal): Promise<ConnectionTestResult & { endpoint: string }> {
    let endpoint = '';
    try {
      const resolved = this.endpointOf(draft);
      endpoint = resolved.baseUrl;
      const model = await this.modelFor(draft, resolved.preset, resolved.baseUrl);
      const result = await testConnection(model, signal, () => this.deps.clock.now());
      // The test loaded the model: Ollama now says the window it really serves (its default may be far below the trained length).
      const loaded = result.ok && resolved.preset.modelList === 'ollama' ? await ollamaLoadedWindow({ baseUrl: resolved.baseUrl, signal }, draft.model) : undefined;
      return { ...result, endpoint, ...(loaded ? { contextWindow: loaded } : {}) };
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      if (error instanceof SetupDraftError) return { ok: false, model: draft.model, code: error.code, message: error.message, endpoint };
      if (error instanceof ModelError) return { ok: false, model: draft.model, code: codeOfModelError(error), message: error.message, endpoint };
      throw error;
    }
  }

  /** The settings saving `draft` writes; throws `SetupDraftError` when a needed model, URL or key is missing. */
  async settingsFor(draft: SetupDraft): Promise<SetupSettings> {
    const { preset, baseUrl } = this.endpointOf(draft);
    if (preset.provider !== 'vscode-lm' && !draft.model) throw new SetupDraftError('bad_request', preset.provider === 'azure-openai' ? 'Enter the deployment name.' : 'Pick or enter a model.');
    if (preset.needsKey && !(await this.keyOf(draft, baseUrl))) throw new SetupDraftError('no_key', 'Enter the API key for this provider.');
    return {
      provider: preset.provider,
      baseUrl: preset.id === 'openai' || preset.provider === 'vscode-lm' ? '' : baseUrl,
      model: draft.model,
      ...(preset.provider === 'azure-openai' ? { 'azure.apiVersion': draft.apiVersion || DEFAULT_AZURE_API_VERSION } : {}),
      contextWindow: draft.contextWindow ?? 0,
    };
  }

  private async modelFor(draft: SetupDraft, preset: ProviderPresetInfo, baseUrl: string): Promise<Model> {
    if (preset.provider === 'vscode-lm') {
      const model = await this.deps.lmModel?.(draft.model);
      if (!model) throw new SetupDraftError('not_found', 'VS Code offers no language model here.');
      return model;
    }
    if (!draft.model) throw new SetupDraftError('bad_request', preset.provider === 'azure-openai' ? 'Enter the deployment name.' : 'Pick or enter a model.');
    const apiKey = await this.keyOf(draft, baseUrl);
    if (preset.needsKey && !apiKey) throw new SetupDraftError('no_key', 'Enter the API key for this provider.');
    if (preset.provider === 'anthropic') {
      return new AnthropicModel({ baseURL: baseUrl, apiKey: apiKey ?? '', model: draft.model, maxRetries: 0, toolProtocol: 'native', clock: this.deps.clock, logger: this.deps.logger });
    }
    return new OpenAICompatibleModel({
      baseURL: baseUrl,
      apiKey: apiKey ?? '',
      model: draft.model,
      ...(preset.provider === 'azure-openai' ? { azureApiVersion: draft.apiVersion || DEFAULT_AZURE_API_VERSION } : {}),
      maxRetries: 0,
      toolProtocol: 'native',
      clock: this.deps.clock,
      logger: this.deps.logger,
    });
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
