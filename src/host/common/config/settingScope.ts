/**
 * Which layer of VS Code's settings a `stepwise.*` value may come from. A repository's
 * `.vscode/settings.json` is input from whoever wrote the repository: it must not decide where the
 * code and the key are sent, what runs without asking, or which servers start, unless the user
 * trusts the workspace (and, for the endpoint, confirmed it once). Pure: the host passes the layers
 * it read with `WorkspaceConfiguration.inspect`.
 */

/** The layers of one setting, as `inspect()` returns them (language overrides are not used). */
export interface SettingLayers {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** Settings a workspace may never set: auto-approval and command lists belong to the user. */
export const USER_ONLY_SETTINGS: ReadonlySet<string> = new Set(['approvals.autoApprove', 'commands.allow', 'commands.deny']);

/** Settings that choose where requests go; from a trusted workspace only after the user confirmed them. */
export const ENDPOINT_SETTINGS: ReadonlySet<string> = new Set(['provider', 'baseUrl', 'models.basic', 'models.reasoning', 'models.vision']);

/**
 * Settings ignored from an untrusted workspace (also listed in package.json's
 * `restrictedConfigurations`): where requests go, what runs without asking, which servers start,
 * how much history is kept.
 * The workspace's `mcpServers` is never a plain setting: it is a workspace server source that
 * needs the user's trust server by server.
 */
export const RESTRICTED_SETTINGS: ReadonlySet<string> = new Set([
  ...ENDPOINT_SETTINGS,
  ...USER_ONLY_SETTINGS,
  'model',
  'toolProtocol',
  'mcpServers',
  // An untrusted folder must not make Stepwise delete the task history.
  'history.maxAgeDays',
  'history.maxSizeMb',
]);

/** What the reader may take from the workspace layers right now. */
export interface ScopePolicy {
  /** The workspace is trusted (not Restricted Mode). */
  trusted: boolean;
  /** The user confirmed the workspace's endpoint settings for this workspace. */
  endpointConfirmed: boolean;
}

/** The workspace's own value of a setting (a folder value wins over the workspace file), if any. */
export function workspaceLayerValue(layers: SettingLayers | undefined): unknown {
  return layers?.workspaceFolderValue ?? layers?.workspaceValue;
}

/** Whether the workspace's value of `key` may be used under `policy`. */
export function workspaceValueAllowed(key: string, policy: ScopePolicy): boolean {
  if (USER_ONLY_SETTINGS.has(key) || key === 'mcpServers') return false;
  if (!policy.trusted && RESTRICTED_SETTINGS.has(key)) return false;
  if (ENDPOINT_SETTINGS.has(key) && !policy.endpointConfirmed) return false;
  return true;
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

/**
 * The workspace's endpoint settings (`provider`, `baseUrl`, `models.*`) that a trusted workspace
 * sets, as a stable string (so a change asks again); `undefined` when it sets none of them.
 */
export function workspaceEndpointFingerprint(inspect: (key: string) => SettingLayers | undefined): string | undefined {
  const values: Array<[string, unknown]> = [];
  for (const key of [...ENDPOINT_SETTINGS].sort()) {
    const value = workspaceLayerValue(inspect(key));
    if (value !== undefined) values.push([key, value]);
  }
  return values.length ? JSON.stringify(values) : undefined;
}
