import type * as vscode from 'vscode';
import type { ProviderPresetInfo } from '../../../shared/setupProtocol';
import type { StepwiseConfig } from '../../common/config/stepwiseConfig';
import { presetById, presetForSettings } from '../../common/setup/providerPresets';
import type { SetupSettings } from '../../common/setup/setupService';

const KEY = 'stepwise.setup.preset';

interface Remembered {
  presetId: string;
  provider: string;
  baseUrl: string;
}

/**
 * Which preset the user picked, remembered (in the extension's global state) for the endpoint it
 * wrote: Ollama on another port is still "Ollama". Settings changed by hand since then fall back
 * to what the URL says (`presetForSettings`).
 */
export class PresetMemory {
  constructor(private readonly memento: vscode.Memento) {}

  /** The preset of the current settings. */
  presetFor(config: Pick<StepwiseConfig, 'provider' | 'baseUrl'>): ProviderPresetInfo {
    const saved = this.memento.get<Remembered>(KEY);
    if (saved && saved.provider === config.provider && saved.baseUrl === config.baseUrl) return presetById(saved.presetId) ?? presetForSettings(config.provider, config.baseUrl);
    return presetForSettings(config.provider, config.baseUrl);
  }

  /** Remembers that `presetId` wrote `settings`. */
  remember(presetId: string, settings: SetupSettings): Thenable<void> {
    return this.memento.update(KEY, { presetId, provider: settings.provider, baseUrl: settings.baseUrl } satisfies Remembered);
  }
}
