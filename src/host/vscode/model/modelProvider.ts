import type { ModelTiers } from '../../../agent/flow/modelTiers';
import { ANTHROPIC_BASE_URL, AnthropicModel } from '../../../agent/model/anthropicModel';
import { OpenAICompatibleModel } from '../../../agent/model/openaiModel';
import { promptGuarded, type PromptRedact } from '../../../agent/model/promptBoundary';
import type { Model } from '../../../agent/model/types';
import type { Clock, Logger } from '../../../agent/ports';
import type { StepwiseConfig } from '../../common/config/stepwiseConfig';
import { endpointOrigin } from '../../common/model/endpointOrigin';
import type { ApiKeyStore } from '../secrets/apiKeyStore';
import { LmChatModel, selectLmModel } from './lmChatModel';

/** Default endpoint when neither `stepwise.baseUrl` nor `OPENAI_BASE_URL` is set. */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Why no model could be built; the host shows `message` with a way to fix it. */
export class ModelNotConfiguredError extends Error {
  constructor(
    message: string,
    readonly fix: 'setApiKey' | 'openSettings',
    /** The endpoint origin that has no key (when that is the problem). */
    readonly origin?: string,
  ) {
    super(message);
    this.name = 'ModelNotConfiguredError';
  }
}

/** The endpoint a run uses: the setting, else (Anthropic) api.anthropic.com, else the OPENAI_BASE_URL environment variable, else OpenAI. */
export function resolveBaseUrl(config: StepwiseConfig, env: NodeJS.ProcessEnv): string {
  if (config.provider === 'anthropic') return config.baseUrl || ANTHROPIC_BASE_URL;
  return config.baseUrl || env.OPENAI_BASE_URL?.trim() || DEFAULT_BASE_URL;
}

/** A model for each tier, plus the name shown in the UI. */
export interface ResolvedModels {
  tiers: ModelTiers;
  displayName: string;
  /** The window the provider reports for the default model (VS Code's `maxInputTokens`); used when `stepwise.contextWindow` is 0. */
  contextWindow?: number;
}

/**
 * Builds the run's models from the settings: `vscode-lm` uses a VS Code language model when one is
 * available (falling back to the OpenAI-compatible endpoint otherwise); `openai-compatible` needs
 * the API key stored for the endpoint's origin (or OPENAI_API_KEY for OPENAI_BASE_URL's origin), unless a
 * custom base URL is set (local servers run without one; a key of another origin is never used).
 */
export class ModelProvider {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The window's redactor: every model built here sends only redacted requests (MCP sampling included). */
    private readonly redact: PromptRedact,
  ) {}

  /** Whether a run could start now (for the sidebar's empty state). */
  async isConfigured(config: StepwiseConfig): Promise<boolean> {
    if (config.provider === 'vscode-lm' && (await selectLmModel(config.model).then(Boolean, () => false))) return true;
    const key = await this.keys.get(resolveBaseUrl(config, this.env));
    if (config.provider === 'azure-openai') return Boolean(key && config.baseUrl);
    if (config.provider === 'anthropic') return Boolean(key);
    return Boolean(key || config.baseUrl || this.env.OPENAI_BASE_URL?.trim());
  }

  /** Throws `ModelNotConfiguredError` when no model can be used. */
  async resolve(config: StepwiseConfig): Promise<ResolvedModels> {
    if (config.provider === 'vscode-lm') {
      const chat = await selectLmModel(config.model).catch(() => undefined);
      if (chat) {
        const model = promptGuarded(new LmChatModel(chat, { toolProtocol: config.toolProtocol }), this.redact);
        return { tiers: { default: model }, displayName: chat.name || model.id, ...(chat.maxInputTokens > 0 ? { contextWindow: chat.maxInputTokens } : {}) };
      }
      this.logger.warn('stepwise.provider is vscode-lm but VS Code offers no language model; using the OpenAI-compatible endpoint');
    }
    const baseURL = resolveBaseUrl(config, this.env);
    // Only the key stored for this endpoint's origin: a key given for another endpoint never goes here.
    const key = await this.keys.get(baseURL);
    const azure = config.provider === 'azure-openai';
    const anthropic = config.provider === 'anthropic';
    // Azure and Anthropic always need a key; another custom endpoint (a local server) may run without one.
    const custom = !azure && !anthropic && Boolean(config.baseUrl || this.env.OPENAI_BASE_URL?.trim());
    const origin = endpointOrigin(baseURL);
    if (azure && !config.baseUrl) throw new ModelNotConfiguredError('No Azure OpenAI resource endpoint is set.', 'openSettings');
    if (!key && !custom) throw new ModelNotConfiguredError(`No API key is set for ${origin}.`, 'setApiKey', origin);
    const make = (name: string, vision: boolean): Model =>
      anthropic
        ? promptGuarded(new AnthropicModel({ baseURL, apiKey: key?.key ?? '', model: name, vision, toolProtocol: config.toolProtocol, clock: this.clock, logger: this.logger }), this.redact)
        : promptGuarded(new OpenAICompatibleModel({
        vision,
        baseURL,
        apiKey: key?.key ?? '',
        model: name,
        ...(azure ? { azureApiVersion: config.azureApiVersion } : {}),
        toolProtocol: config.toolProtocol,
        clock: this.clock,
        logger: this.logger,
      }), this.redact);
    const byName = new Map<string, Model>();
    // A model is built once per name and vision flag: the vision tier always reads images, the main
    // model only when `stepwise.models.visionCapable` says so.
    const get = (name: string, vision = config.modelVisionCapable && name === config.model): Model => {
      const key = `${vision}:${name}`;
      let model = byName.get(key);
      if (!model) byName.set(key, (model = make(name, vision)));
      return model;
    };
    const tiers: ModelTiers = { default: get(config.model) };
    if (config.modelBasic) tiers.basic = get(config.modelBasic);
    if (config.modelReasoning) tiers.reasoning = get(config.modelReasoning);
    if (config.modelVision) tiers.vision = get(config.modelVision, true);
    return { tiers, displayName: config.model };
  }
}
