import { parseArgs } from 'node:util';
import { z } from 'zod';
import { PROVIDER_PRESETS, presetById, presetForSettings } from '../host/common/setup/providerPresets';
import type { ProviderPresetInfo, SetupDraft } from '../shared/setupProtocol';
import { UsageError } from './cliArgs';

/** The set-up commands: list an endpoint's models, list the presets, test an endpoint with one request. */
export const SetupCommand = z.enum(['models', 'presets', 'check']);
export type SetupCommand = z.infer<typeof SetupCommand>;

/** Parsed `stepwise models | presets | check` invocation. */
export const SetupOptions = z.object({
  command: SetupCommand,
  /** `--preset`: a provider preset id (see `stepwise presets`). */
  preset: z.string().min(1).optional(),
  /** `--base-url`; without `--preset` also `$OPENAI_BASE_URL`. */
  baseUrl: z.string().trim().min(1).optional(),
  /** `--api-key-env`: the variable holding the key (default STEPWISE_API_KEY, then OPENAI_API_KEY). */
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'is not a variable name').optional(),
  azureApiVersion: z.string().trim().min(1).optional(),
  /** `--model` or `$STEPWISE_MODEL` (`check` only). */
  model: z.string().trim().min(1).optional(),
  json: z.boolean(),
});
export type SetupOptions = z.infer<typeof SetupOptions>;

/** Help for the set-up commands (also part of the main USAGE). */
export const SETUP_USAGE = `Usage: stepwise presets [--json]
           the providers Stepwise knows, with their default base URLs
       stepwise models [endpoint options] [--json]
           the endpoint's models, with their context windows where known (Ollama: loaded or not)
       stepwise check [endpoint options] [--model M] [--json]
           one tiny real request: "Connected … N ms", or what is wrong and what to do

Endpoint options (default: $OPENAI_BASE_URL, else OpenAI):
  --preset NAME            openai, azure, deepseek, openrouter, ollama, lmstudio or custom (see stepwise presets)
  --base-url URL           the endpoint (with --preset: replaces its default URL where the provider allows)
  --api-key-env VAR        read the key from VAR (default: STEPWISE_API_KEY, else OPENAI_API_KEY); never printed
  --azure-api-version V    Azure OpenAI (implies --preset azure; --base-url is the resource endpoint, --model the deployment)
  --model M                the model to test (default: $STEPWISE_MODEL, else the preset's suggestion)

Exit codes: 0 listed / connected, 1 the endpoint failed (key refused, not found, unreachable, rate limit…),
2 usage error (unknown preset, bad URL, missing key or model), 130 cancelled.`;

const SETUP_ARG_OPTIONS = {
  preset: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  'azure-api-version': { type: 'string' },
  model: { type: 'string' },
  presets: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses `models | presets | check` argv (command first); `undefined` means help was asked for. Throws UsageError. */
export function parseSetupArgs(argv: string[], env: NodeJS.ProcessEnv): SetupOptions | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: SETUP_ARG_OPTIONS });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  const [name, ...rest] = positionals;
  const known = SetupCommand.safeParse(name);
  if (!known.success) throw new UsageError(`unknown set-up command "${name ?? ''}"`);
  const command = values.presets && name === 'models' ? 'presets' : known.data;
  if (rest.length) throw new UsageError(`stepwise ${name} takes no arguments besides its options (got "${rest.join(' ')}")`);
  if (values.presets && name !== 'models') throw new UsageError('--presets belongs to stepwise models');
  const endpointFlags = (['preset', 'base-url', 'api-key-env', 'azure-api-version', 'model'] as const).filter((flag) => values[flag] !== undefined);
  if (command === 'presets' && endpointFlags.length) throw new UsageError(`stepwise presets takes only --json (not --${endpointFlags[0]})`);
  if (command === 'models' && values.model !== undefined) throw new UsageError('stepwise models lists every model: leave out --model (stepwise check --model M tests one)');
  const options = SetupOptions.safeParse({
    command,
    preset: values.preset?.trim().toLowerCase() || undefined,
    // With a preset, its own URL is the default, not $OPENAI_BASE_URL (which belongs to the run's endpoint).
    baseUrl: values['base-url'] ?? (values.preset ? undefined : env.OPENAI_BASE_URL?.trim() || undefined),
    apiKeyEnv: values['api-key-env'],
    azureApiVersion: values['azure-api-version'],
    model: command === 'check' ? values.model ?? (env.STEPWISE_MODEL?.trim() || undefined) : undefined,
    json: values.json ?? false,
  });
  if (!options.success) {
    const issue = options.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${issue.message}`);
  }
  return options.data;
}

/** The presets a CLI can use (VS Code's language models exist only inside VS Code). */
export function cliPresets(): ProviderPresetInfo[] {
  return PROVIDER_PRESETS.filter((preset) => preset.provider !== 'vscode-lm');
}

/**
 * The set-up draft the options point at: `--preset` (checked against the provider's fixed URL and
 * `--azure-api-version`), else the preset the base URL corresponds to (Azure with an API version).
 * Throws UsageError for an unknown or VS Code-only preset and for contradicting flags.
 */
export function setupDraftOf(options: SetupOptions): { draft: SetupDraft; preset: ProviderPresetInfo } {
  const preset = options.preset
    ? presetById(options.preset)
    : presetForSettings(options.azureApiVersion ? 'azure-openai' : 'openai-compatible', options.baseUrl ?? '');
  if (!preset || preset.provider === 'vscode-lm') {
    const known = cliPresets().map((p) => p.id).join(', ');
    throw new UsageError(preset ? 'VS Code language models are available only inside VS Code' : `unknown --preset "${options.preset}" (use ${known})`);
  }
  if (options.preset && options.baseUrl && !preset.editableUrl) {
    throw new UsageError(`--preset ${preset.id} always uses ${preset.baseUrl}: leave out --base-url, or use --preset custom`);
  }
  if (options.azureApiVersion && preset.provider !== 'azure-openai') throw new UsageError(`--azure-api-version belongs to Azure OpenAI, not --preset ${preset.id}`);
  return {
    preset,
    draft: {
      presetId: preset.id,
      baseUrl: options.baseUrl ?? '',
      model: options.model ?? preset.suggestedModel,
      ...(options.azureApiVersion ? { apiVersion: options.azureApiVersion } : {}),
    },
  };
}

/** The key for set-up requests and where it came from: `--api-key-env VAR` (which must be set), else the run's variables. */
export function setupKeyOf(options: SetupOptions, env: NodeJS.ProcessEnv): { key?: string; source: string } {
  if (options.apiKeyEnv) {
    const key = env[options.apiKeyEnv]?.trim();
    if (!key) throw new UsageError(`--api-key-env ${options.apiKeyEnv}: that variable is not set`);
    return { key, source: options.apiKeyEnv };
  }
  if (options.preset === 'anthropic') {
    const anthropic = env.ANTHROPIC_API_KEY?.trim();
    return anthropic ? { key: anthropic, source: 'ANTHROPIC_API_KEY' } : { source: 'ANTHROPIC_API_KEY' };
  }
  const stepwise = env.STEPWISE_API_KEY?.trim();
  if (stepwise) return { key: stepwise, source: 'STEPWISE_API_KEY' };
  const openai = env.OPENAI_API_KEY?.trim();
  return openai ? { key: openai, source: 'OPENAI_API_KEY' } : { source: 'OPENAI_API_KEY (or STEPWISE_API_KEY)' };
}
