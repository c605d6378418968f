import type { ProviderPresetInfo } from '../../../shared/setupProtocol';

/** The presets the set-up view offers, in the order shown. Base URLs are the providers' documented ones. */
export const PROVIDER_PRESETS: readonly ProviderPresetInfo[] = [
  { id: 'openai', label: 'OpenAI', provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', needsKey: true, editableUrl: false, modelList: 'openai', suggestedModel: 'gpt-4o-mini' },
  { id: 'azure', label: 'Azure OpenAI', provider: 'azure-openai', baseUrl: '', needsKey: true, editableUrl: true, modelList: 'none', suggestedModel: '' },
  { id: 'anthropic', label: 'Anthropic', provider: 'anthropic', baseUrl: 'https://api.anthropic.com', needsKey: true, editableUrl: true, modelList: 'anthropic', suggestedModel: 'claude-sonnet-4-6' },
  { id: 'deepseek', label: 'DeepSeek', provider: 'openai-compatible', baseUrl: 'https://api.deepseek.com/v1', needsKey: true, editableUrl: false, modelList: 'openai', suggestedModel: 'deepseek-chat' },
  { id: 'openrouter', label: 'OpenRouter', provider: 'openai-compatible', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true, editableUrl: false, modelList: 'openai', suggestedModel: '' },
  { id: 'ollama', label: 'Ollama', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', needsKey: false, editableUrl: true, modelList: 'ollama', suggestedModel: '' },
  { id: 'lmstudio', label: 'LM Studio', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', needsKey: false, editableUrl: true, modelList: 'openai', suggestedModel: '' },
  { id: 'custom', label: 'vLLM / OpenAI-compatible', provider: 'openai-compatible', baseUrl: '', needsKey: false, editableUrl: true, modelList: 'openai', suggestedModel: '' },
  { id: 'vscode-lm', label: 'VS Code language models', provider: 'vscode-lm', baseUrl: '', needsKey: false, editableUrl: false, modelList: 'none', suggestedModel: '' },
];

/** The Azure OpenAI REST API version used when the user gives none (a GA version). */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/** The preset with `id`, or `undefined`. */
export function presetById(id: string): ProviderPresetInfo | undefined {
  return PROVIDER_PRESETS.find((preset) => preset.id === id);
}

/**
 * The preset the current settings correspond to: the provider kind first, then the endpoint's
 * origin and path (`localhost` and `127.0.0.1` count as the same host). An unknown endpoint is
 * `custom`; no endpoint at all is OpenAI (the default endpoint).
 */
export function presetForSettings(provider: string, baseUrl: string): ProviderPresetInfo {
  if (provider === 'vscode-lm') return presetById('vscode-lm')!;
  if (provider === 'azure-openai') return presetById('azure')!;
  if (provider === 'anthropic') return presetById('anthropic')!;
  if (!baseUrl.trim()) return presetById('openai')!;
  const wanted = normalizedEndpoint(baseUrl);
  const match = PROVIDER_PRESETS.find((preset) => preset.baseUrl && normalizedEndpoint(preset.baseUrl) === wanted);
  if (match) return match;
  // A local server on Ollama's or LM Studio's port with another host name is still that server.
  const port = portOf(baseUrl);
  if (port === '11434') return presetById('ollama')!;
  if (port === '1234') return presetById('lmstudio')!;
  return presetById('custom')!;
}

function normalizedEndpoint(url: string): string {
  try {
    const parsed = new URL(url.trim());
    const host = parsed.hostname === 'localhost' ? '127.0.0.1' : parsed.hostname;
    return `${parsed.protocol}//${host}:${parsed.port}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.trim();
  }
}

function portOf(url: string): string {
  try {
    return new URL(url.trim()).port;
  } catch {
    return '';
  }
}
