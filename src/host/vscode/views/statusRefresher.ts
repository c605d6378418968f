import { PERMISSION_RULES, type PermissionMode } from '../../../shared/sandboxModes';
import { probeBwrap } from '../../../node/sandbox/bwrapProbe';
import * as vscode from 'vscode';
import type { Logger } from '../../../agent/ports';
import type { StepwiseConfig } from '../../common/config/stepwiseConfig';
import type { HistoryStore } from '../../../node/historyStore';
import { selectLmModel } from '../model/lmChatModel';
import { resolveBaseUrl, type ModelProvider } from '../model/modelProvider';
import { presetForSettings } from '../../common/setup/providerPresets';
import type { TaskController } from '../task/taskController';
import type { TaskViews } from './taskViews';
import { readsImages } from './readsImages';

/** What the webview status is made of. */
export interface StatusSources {
  views: TaskViews;
  controller: TaskController;
  models: ModelProvider;
  history: HistoryStore;
  readConfig: () => StepwiseConfig;
  logger: Logger;
  /** Whether a web search provider is configured (keys in SecretStorage or a SearXNG URL). */
  webSearchReady?: (config: StepwiseConfig) => Promise<boolean>;
  /** The provider's name for the model switcher (default: the preset the base URL points at). */
  providerLabel?: (config: StepwiseConfig) => string;
}

/**
 * Returns a function that recomputes the webviews' status (configured, trusted, running, model,
 * recent history) and the `stepwise.running` context key; failures are logged, never thrown.
 */
export function statusRefresher(sources: StatusSources): () => void {
  const { views, controller, models, history, readConfig, logger } = sources;
  const refresh = async (): Promise<void> => {
    const current = readConfig();
    void vscode.commands.executeCommand('setContext', 'stepwise.running', controller.isRunning);
    views.setStatus({
      configured: await models.isConfigured(current),
      trusted: vscode.workspace.isTrusted,
      running: controller.isRunning,
      ...(controller.runningRunId ? { runId: controller.runningRunId } : {}),
      model: current.provider === 'vscode-lm' ? await lmModelName(current.model) : current.model,
      planMode: current.planMode,
      provider: sources.providerLabel?.(current) ?? presetForSettings(current.provider, current.baseUrl).label,
      ...(current.provider === 'vscode-lm' ? {} : { endpoint: resolveBaseUrl(current, process.env) }),
      history: await history.list(30, { threads: true }),
      ...(sources.webSearchReady ? { webSearch: await sources.webSearchReady(current) } : {}),
      permissionMode: current.permissionMode,
      ...(await sandboxProblem(current.permissionMode)),
      readsImages: readsImages(current, current.provider === 'vscode-lm' && (await selectLmModel(current.model).catch(() => undefined)) !== undefined),
    });
  };
  return () => void refresh().catch((error) => logger.error('status refresh failed', error));
}

/** The name of the VS Code language model a run would use (`Claude Sonnet 4`, not `claude-sonnet-4`); the setting when VS Code offers none. */
async function lmModelName(preferred: string): Promise<string> {
  const chat = await selectLmModel(preferred).catch(() => undefined);
  return chat?.name || chat?.id || preferred;
}


/** Why the permission mode's sandbox cannot run here, for the chat box (nothing when the mode needs none or it runs). */
async function sandboxProblem(mode: PermissionMode): Promise<{ sandboxUnavailable?: string }> {
  if (PERMISSION_RULES[mode].sandbox === 'off') return {};
  const probe = await probeBwrap();
  return probe.ok ? {} : { sandboxUnavailable: probe.reason };
}
