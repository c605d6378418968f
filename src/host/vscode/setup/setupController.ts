import * as vscode from 'vscode';
import { CancelledError } from '../../../agent/errors';
import type { Clock, Logger } from '../../../agent/ports';
import type { SetupState } from '../../../shared/setupProtocol';
import type { WebviewIntentOf } from '../../../shared/webviewProtocol';
import type { StepwiseConfig } from '../../common/config/stepwiseConfig';
import { endpointOrigin } from '../../common/model/endpointOrigin';
import { PROVIDER_PRESETS } from '../../common/setup/providerPresets';
import { SetupDraftError, SetupService } from '../../common/setup/setupService';
import { LmChatModel, selectLmModel } from '../model/lmChatModel';
import { DEFAULT_BASE_URL, resolveBaseUrl } from '../model/modelProvider';
import type { ApiKeyStore } from '../secrets/apiKeyStore';
import type { TaskViews } from '../views/taskViews';
import type { PresetMemory } from './presetMemory';

/** The set-up view's intents. */
export type SetupIntent = WebviewIntentOf<'setupListModels' | 'setupTest' | 'setupSave'>;

/** What the controller works with. */
export interface SetupControllerDeps {
  views: Pick<TaskViews, 'setSetup' | 'sendSetup'>;
  keys: ApiKeyStore;
  /** The user-level settings (the set-up writes there). */
  readConfig: () => StepwiseConfig;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
  /** After a save: refresh the webviews' status. */
  onSaved: () => void;
  presets: PresetMemory;
  /** Makes a typed key known to the log's redactor before any request carries it. */
  knowSecret: (secret: string) => void;
  /** Redacts known secrets (a server may echo the key in its error). */
  redact: (text: string) => string;
}

/**
 * The VS Code half of the sidebar's set-up view: answers its intents with the IDE-free
 * `SetupService`, writes the user settings and the key (SecretStorage, per endpoint origin) on
 * save, and keeps the view's `SetupState` current.
 */
export class SetupController {
  private readonly service: SetupService;
  private readonly inFlight = new Map<string, AbortController>();
  /** Saves done in this window: the view closes the set-up when the count grows. */
  private saves = 0;
  /** While a save writes settings one by one, their change events must not redraw the form half-way. */
  private saving = false;

  constructor(private readonly deps: SetupControllerDeps) {
    this.service = new SetupService({
      storedKey: async (baseUrl) => (await deps.keys.get(baseUrl))?.key,
      lmModel: async (id) => {
        const chat = await selectLmModel(id).catch(() => undefined);
        return chat ? new LmChatModel(chat) : undefined;
      },
      clock: deps.clock,
      logger: deps.logger,
    });
  }

  /** Whether `intent` is one of the set-up view's. */
  static handles(intent: { type: string }): intent is SetupIntent {
    return intent.type === 'setupListModels' || intent.type === 'setupTest' || intent.type === 'setupSave';
  }

  /** Answers one set-up intent; failures of the endpoint come back to the view, never as exceptions. */
  async handle(intent: SetupIntent): Promise<void> {
    const { views } = this.deps;
    const typedKey = intent.draft.apiKey?.trim();
    if (typedKey) this.deps.knowSecret(typedKey);
    if (intent.type === 'setupListModels') {
      const result = await this.service.models(intent.draft, this.signal('list')).catch(cancelled);
      if (!result) return;
      views.sendSetup({ type: 'setupModels', requestId: intent.requestId, ...result });
      return;
    }
    if (intent.type === 'setupTest') {
      const result = await this.service.test(intent.draft, this.signal('test')).catch(cancelled);
      if (!result) return;
      this.deps.logger.info(`set-up test of ${result.endpoint || 'VS Code language model'} (${result.model}): ${result.ok ? `ok in ${result.latencyMs} ms` : result.message}`);
      views.sendSetup({
        type: 'setupTestResult',
        requestId: intent.requestId,
        ok: result.ok,
        model: result.model,
        endpoint: result.endpoint,
        ...(result.ok ? { latencyMs: result.latencyMs, message: this.deps.redact(result.reply) } : { code: result.code, message: this.deps.redact(result.message) }),
        ...(result.ok && result.contextWindow ? { contextWindow: result.contextWindow, contextSource: 'loaded' as const } : {}),
      });
      return;
    }
    await this.save(intent.draft);
  }

  /** Opens the sidebar on the set-up view ("Stepwise: Set Up Model", the walkthrough). */
  async show(): Promise<void> {
    await this.refresh();
    this.deps.views.sendSetup({ type: 'showSetup' });
    await vscode.commands.executeCommand('stepwise.chat.focus');
  }

  /** Recomputes what the set-up view shows (call on settings and key changes). */
  async refresh(): Promise<void> {
    if (this.saving) return;
    const config = this.deps.readConfig();
    const preset = this.deps.presets.presetFor(config);
    const lmModels = await vscode.lm.selectChatModels().then(
      (models) => models.map((m) => ({ id: m.id, name: m.name || m.id, ...(m.maxInputTokens > 0 ? { contextWindow: m.maxInputTokens } : {}) })),
      () => [],
    );
    const keyStored = Boolean(await this.deps.keys.get(resolveBaseUrl(config, this.deps.env)));
    // Nothing set up yet and VS Code has language models (Copilot's, say): suggest those first.
    const untouched = config.provider === 'openai-compatible' && !config.baseUrl && !keyStored && !this.deps.env.OPENAI_BASE_URL?.trim();
    const state: SetupState = {
      presets: PROVIDER_PRESETS.filter((p) => p.provider !== 'vscode-lm' || lmModels.length > 0 || config.provider === 'vscode-lm'),
      presetId: untouched && lmModels.length > 0 ? 'vscode-lm' : preset.id,
      baseUrl: config.baseUrl || (preset.id === 'openai' ? DEFAULT_BASE_URL : ''),
      model: config.model,
      apiVersion: config.azureApiVersion,
      contextWindow: config.contextWindow,
      keyStored,
      lmModels,
      saves: this.saves,
    };
    this.deps.views.setSetup(state);
  }

  private async save(draft: SetupIntent['draft']): Promise<void> {
    let settings;
    try {
      settings = await this.service.settingsFor(draft);
    } catch (error) {
      if (!(error instanceof SetupDraftError)) throw error;
      void vscode.window.showWarningMessage(vscode.l10n.t('Stepwise: {0}', error.message));
      return;
    }
    this.saving = true;
    try {
      await this.deps.presets.remember(draft.presetId, settings);
      const section = vscode.workspace.getConfiguration('stepwise');
      // The model first, the key and the endpoint last: a run started the moment the endpoint counts as
      // configured must already find the chosen model.
      const { baseUrl, ...rest } = settings;
      for (const [key, value] of Object.entries(rest)) await section.update(key, value, vscode.ConfigurationTarget.Global);
      const keyEndpoint = baseUrl || DEFAULT_BASE_URL;
      if (draft.apiKey?.trim()) {
        await this.deps.keys.set(draft.apiKey, keyEndpoint);
        this.deps.logger.info(`API key for ${endpointOrigin(keyEndpoint)} stored in secret storage`);
      }
      await section.update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
      this.saves++;
    } finally {
      this.saving = false;
    }
    this.deps.logger.info(`model set up: ${settings.provider} ${settings.baseUrl || DEFAULT_BASE_URL} ${settings.model}${settings.contextWindow ? ` (context window ${settings.contextWindow})` : ''}`);
    await this.refresh();
    this.deps.onSaved();
  }

  /** One listing and one test at a time: a newer request of the same kind cancels the older one. */
  private signal(kind: string): AbortSignal {
    this.inFlight.get(kind)?.abort();
    const controller = new AbortController();
    this.inFlight.set(kind, controller);
    return controller.signal;
  }
}

/** A request a newer one replaced: nothing to answer. */
function cancelled(error: unknown): undefined {
  if (error instanceof CancelledError) return undefined;
  throw error;
}
