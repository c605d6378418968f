/**
 * Which layer of VS Code's settings a `stepwise.*` value may come from, decided by the one trust
 * table (`settingTrust.ts`) and nothing else. Pure: the host passes the layers it read with
 * `WorkspaceConfiguration.inspect`.
 */
import { CONFIRM_SETTINGS, settingTrust, type ConfirmSettingKey } from './settingTrust';

/** The layers of one setting, as `inspect()` returns them (language overrides are not used). */
export interface SettingLayers {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** What the reader may take from the workspace layers right now. */
export interface ScopePolicy {
  /** The workspace is trusted (not Restricted Mode). */
  trusted: boolean;
  /** The user confirmed the workspace's current `workspace-confirm` values for this workspace. */
  confirmed: boolean;
}

/** The workspace's own value of a setting (a folder value wins over the workspace file), if any. */
export function workspaceLayerValue(layers: SettingLayers | undefined): unknown {
  return layers?.workspaceFolderValue ?? layers?.workspaceValue;
}

/** Whether the workspace's value of `key` may be used under `policy` (by the key's class in the table). */
export function workspaceValueAllowed(key: string, policy: ScopePolicy): boolean {
  const { trust } = settingTrust(key);
  if (trust === 'workspace-safe') return true;
  if (trust === 'workspace-confirm') return policy.trusted && policy.confirmed;
  return false;
}

/**
 * The value of `key` the extension uses: the workspace's value when `policy` allows it, else the
 * user's; `undefined` (the schema default applies) when neither is set.
 */
export function scopedValue(key: string, layers: SettingLayers | undefined, policy: ScopePolicy): unknown {
  const fromWorkspace = workspaceLayerValue(layers);
  if (fromWorkspace !== undefined && workspaceValueAllowed(key, policy)) return fromWorkspace;
  return layers?.globalValue;
}

/** The `workspace-confirm` settings the workspace sets, with its values, sorted by key. */
export function workspaceConfirmValues(inspect: (key: string) => SettingLayers | undefined): Array<[ConfirmSettingKey, unknown]> {
  const values: Array<[ConfirmSettingKey, unknown]> = [];
  for (const key of CONFIRM_SETTINGS) {
    const value = workspaceLayerValue(inspect(key));
    if (value !== undefined) values.push([key, value]);
  }
  return values;
}

/**
 * All of the workspace's `workspace-confirm` values as one stable string (so any change asks
 * again); `undefined` when it sets none. For a workspace that sets only endpoint settings it is the
 * same string the earlier endpoint-only confirmation stored, so those confirmations still hold.
 */
export function workspaceConfirmFingerprint(inspect: (key: string) => SettingLayers | undefined): string | undefined {
  const values = workspaceConfirmValues(inspect);
  return values.length ? JSON.stringify(values) : undefined;
}
