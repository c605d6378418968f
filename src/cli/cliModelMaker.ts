import { systemClock } from '../agent/clock';
import { AnthropicModel } from '../agent/model/anthropicModel';
import { OpenAICompatibleModel } from '../agent/model/openaiModel';
import { promptGuarded, type PromptRedact } from '../agent/model/promptBoundary';
import type { Logger } from '../agent/ports';
import type { Model } from '../agent/model/types';
import type { CliOptions } from './cliArgs';

/** The run's model key: only `ANTHROPIC_API_KEY` for `--provider anthropic` (a key given for another endpoint never goes there), else `STEPWISE_API_KEY` / `OPENAI_API_KEY`. */
export function cliApiKey(options: Pick<CliOptions, 'provider'>, env: NodeJS.ProcessEnv): string | undefined {
  if (options.provider === 'anthropic') return env.ANTHROPIC_API_KEY?.trim() || undefined;
  return env.STEPWISE_API_KEY ?? env.OPENAI_API_KEY;
}

/** What the endpoint options lack to make a request (a key, an endpoint), or `undefined` when they are enough. */
export function endpointProblem(options: CliOptions, apiKey: string | undefined): string | undefined {
  if (options.provider === 'anthropic') return apiKey ? undefined : '--provider anthropic needs the key in ANTHROPIC_API_KEY';
  if (options.azureApiVersion && (!apiKey || !options.baseUrl)) return '--azure-api-version needs the resource endpoint in --base-url and the key in OPENAI_API_KEY (or STEPWISE_API_KEY)';
  if (!apiKey && !options.baseUrl) return 'set OPENAI_API_KEY (or STEPWISE_API_KEY), or pass --base-url for an endpoint without keys';
  return undefined;
}

/**
 * Builds the run's models by name: the provider's adapter (Anthropic's Messages API, or an
 * OpenAI-compatible endpoint with Azure's client under `--azure-api-version`) with the options'
 * endpoint, key and tool protocol, each behind the prompt boundary (`promptGuarded`), so MCP
 * sampling, which is answered outside the task's flow, redacts its requests as the flow does.
 */
export function modelMaker(options: CliOptions, apiKey: string | undefined, logger: Logger, redact: PromptRedact): (name: string, vision?: boolean) => Model {
  if (options.provider === 'anthropic') {
    // Images reach a model only where the flags say so (--vision, --vision-model), as for every provider.
    return (name, vision = false) =>
      promptGuarded(new AnthropicModel({
        ...(options.baseUrl ? { baseURL: options.baseUrl } : {}), apiKey: apiKey ?? '', model: name, vision, toolProtocol: options.toolProtocol, clock: systemClock, logger,
        ...(options.thinkingBudget ? { thinkingBudgetTokens: options.thinkingBudget } : {}),
      }), redact);
  }
  const baseURL = options.baseUrl ?? 'https://api.openai.com/v1';
  return (name, vision = false) =>
    promptGuarded(new OpenAICompatibleModel({
      baseURL, apiKey: apiKey ?? 'not-needed', model: name, toolProtocol: options.toolProtocol, clock: systemClock, logger, vision,
      ...(options.azureApiVersion ? { azureApiVersion: options.azureApiVersion } : {}),
    }), redact);
}
