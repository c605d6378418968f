import * as vscode from 'vscode';
import { parseStepwiseConfig, type ConfigReadResult, type StepwiseConfig } from '../../common/config/stepwiseConfig';
import { scopedValue, workspaceConfirmFingerprint, workspaceConfirmValues, type ScopePolicy, type SettingLayers } from '../../common/config/settingScope';
import type { ConfirmSettingKey } from '../../common/config/settingTrust';

/** One setting's layers (user, workspace, folder) as VS Code has them. */
function inspectSetting(key: string): SettingLayers | undefined {
  return vscode.workspace.getConfiguration('stepwise').inspect(key);
}

/** The workspace's `workspace-confirm` values as a stable string, `undefined` when the workspace sets none. */
export function currentWorkspaceFingerprint(): string | undefined {
  return workspaceConfirmFingerprint(inspectSetting);
}

/** The `workspace-confirm` settings the workspace sets, with its values (what the confirmation lists). */
export function currentWorkspaceConfirmValues(): Array<[ConfirmSettingKey, unknown]> {
  return workspaceConfirmValues(inspectSetting);
}

/**
 * Reads and validates the `stepwise.*` settings of the current window. Each value comes from the
 * layer the trust table allows (`settingScope`): `user-only` settings from the user alone;
 * `workspace-confirm` ones from a trusted workspace only once `confirmed` says the user confirmed
 * the workspace's current values; `workspace-safe` ones from the workspace too. `userOnly` ignores
 * the workspace entirely (the user's own settings).
 */
export function readConfig(confirmed: (fingerprint: string) => boolean = () => false, userOnly = false): ConfigReadResult {
  const section = vscode.workspace.getConfiguration('stepwise');
  const fingerprint = currentWorkspaceFingerprint();
  const policy: ScopePolicy = {
    trusted: vscode.workspace.isTrusted && !userOnly,
    confirmed: !userOnly && fingerprint !== undefined && confirmed(fingerprint),
  };
  return parseStepwiseConfig((key) => (userOnly ? section.inspect(key)?.globalValue : scopedValue(key, section.inspect(key), policy)));
}

/** The workspace's own `stepwise.mcpServers` (a source whose servers need the user's trust), in a trusted workspace only. */
export function workspaceMcpServers(): unknown {
  if (!vscode.workspace.isTrusted) return undefined;
  const layers = inspectSetting('mcpServers');
  return layers?.workspaceFolderValue ?? layers?.workspaceValue;
}

/** Fires `listener` when any `stepwise.*` setting changes. */
export function onConfigChange(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('stepwise')) listener();
  });
}

/** A reader of the settings (scoped as `readConfig` does) that logs each invalid setting it ignores. */
export function configReader(logger: { warn(message: string): void }, confirmed?: (fingerprint: string) => boolean): () => StepwiseConfig {
  return () => {
    const { config, problems } = readConfig(confirmed);
    for (const problem of problems) logger.warn(`ignored invalid setting ${problem}`);
    return config;
  };
}
