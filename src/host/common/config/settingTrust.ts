/**
 * The one settings trust table: every contributed `stepwise.*` setting (package.json
 * `contributes.configuration`) has exactly one trust class, and every reader, Restricted Mode,
 * `restrictedConfigurations`, the confirmation prompt and the README's table derive from it
 * (unit tests hold package.json and README to it; a setting missing here fails them).
 *
 * A repository's `.vscode/settings.json` is input from whoever wrote the repository. A setting that
 * names a program or command, allows a host or address, decides where requests and keys go, what
 * runs without asking or what a task may spend, or touches data shared by all the user's projects is
 * never `workspace-safe`. A key that is not in the table is treated as `user-only` (deny by default).
 */
import { z } from 'zod';

/**
 * `user-only`: a workspace value is never used. `workspace-confirm`: a workspace value is used in a
 * trusted workspace only after the user confirmed the workspace's values of this class (a change asks
 * again); ignored in Restricted Mode. `workspace-safe`: a workspace value is used, even in Restricted Mode.
 */
export const SettingTrustClass = z.enum(['user-only', 'workspace-confirm', 'workspace-safe']);
export type SettingTrustClass = z.infer<typeof SettingTrustClass>;

/** What a setting decides, in the words the confirmation prompt shows (one l10n string per concern). */
export const SettingConcern = z.enum(['endpoint', 'runs', 'program', 'hosts', 'sharedData', 'spending', 'approvals', 'secrets', 'servers', 'project']);
export type SettingConcern = z.infer<typeof SettingConcern>;

/** One row of the table: the class, what the setting decides, and why it has that class (shown in the README). */
export const SettingTrustEntry = z.object({ trust: SettingTrustClass, concern: SettingConcern, why: z.string().min(1) });
export type SettingTrustEntry = z.infer<typeof SettingTrustEntry>;

// Generic in the concern so the table's type keeps each row's concern (the prompt's words are checked against them).
const confirm = <C extends SettingConcern>(concern: C, why: string) => ({ trust: 'workspace-confirm', concern, why }) as const;
const userOnly = <C extends SettingConcern>(concern: C, why: string) => ({ trust: 'user-only', concern, why }) as const;
const safe = (why: string) => ({ trust: 'workspace-safe', concern: 'project', why }) as const;

const ENDPOINT_WHY = 'where the code and the key are sent';
const SHARED_WHY = 'the checkpoint store is shared by all projects: a workspace value would prune or fill other projects\' checkpoints';

/** The table, keyed by the setting's name below `stepwise.`. */
export const SETTING_TRUST = {
  provider: confirm('endpoint', ENDPOINT_WHY),
  baseUrl: confirm('endpoint', ENDPOINT_WHY),
  model: confirm('endpoint', 'which model gets the code (on a router, a model name picks the company that receives it)'),
  'models.basic': confirm('endpoint', 'which model gets the code'),
  'models.reasoning': confirm('endpoint', 'which model gets the code'),
  'models.vision': confirm('endpoint', 'which model gets the code and the images'),
  toolProtocol: confirm('endpoint', 'how tool calls travel to and from the endpoint (`text` reads calls out of free text)'),
  'azure.apiVersion': safe('a query parameter of the endpoint the user chose; it cannot change where requests go'),
  maxTurns: safe('a limit within a task; the budget still bounds spending'),
  maxInputTokens: safe('a prompt size within a task; the budget still bounds spending'),
  contextWindow: safe('when older turns are summarized; the budget still bounds spending'),
  'budget.taskTokens': confirm('spending', 'the user\'s spending limit: a workspace could lift it (0 = none)'),
  'budget.taskCostUsd': confirm('spending', 'the user\'s spending limit: a workspace could lift it (0 = none)'),
  prices: confirm('spending', 'prices decide when the cost budget is reached: a price of 0 lifts it'),
  'rules.agentsMd': safe('which of the workspace\'s own rules files are read'),
  'rules.stepwiseRules': safe('which of the workspace\'s own rules files are read'),
  'rules.copilotInstructions': safe('which of the workspace\'s own rules files are read'),
  'rules.claudeMd': safe('which of the workspace\'s own rules files are read'),
  'rules.maxChars': safe('how much of the rules files is read (capped at 200,000 characters)'),
  'approvals.autoApprove': userOnly('approvals', 'decides what runs without asking'),
  'commands.allow': userOnly('approvals', 'decides which commands run without asking'),
  'commands.deny': userOnly('approvals', 'the user\'s own safety list: a workspace could empty it'),
  'commands.shell': confirm('program', 'picks the program every command runs through (and the syntax the command policy reads)'),
  'env.passThrough': userOnly('secrets', 'decides which secrets commands and MCP servers receive'),
  'plan.mode': safe('whether a task is planned; every action still asks as the user\'s approvals say'),
  'plan.review': safe('whether the plan is shown for editing first; every action still asks as the user\'s approvals say'),
  'plan.lookFirst': safe('a read-only look before planning'),
  'models.visionCapable': safe('whether images go to the model the user already sends the code to'),
  'web.allowHosts': confirm('hosts', 'allows the web tools to reach loopback and private addresses'),
  'web.denyHosts': confirm('hosts', 'a workspace value replaces the user\'s deny list'),
  'web.browserPath': confirm('program', 'names a program Stepwise starts'),
  'web.searxngUrl': confirm('hosts', 'where searches (and what the agent searches for) are sent'),
  'reports.folder': safe('a folder inside the workspace: the Workspace port refuses a path outside it; in Restricted Mode reports go to the extension\'s storage'),
  'verify.mode': safe('`auto` is the default; `off` only turns the checks off'),
  'verify.commands': confirm('runs', 'commands run at finish without command approval'),
  'checkpoints.enabled': confirm('sharedData', 'copies the workspace\'s files into the store shared by all projects'),
  'checkpoints.maxAgeDays': confirm('sharedData', SHARED_WHY),
  'checkpoints.maxSizeMB': confirm('sharedData', SHARED_WHY),
  'checkpoints.maxFileSizeMB': confirm('sharedData', 'how much of each file is copied into the store shared by all projects'),
  'history.maxAgeDays': confirm('sharedData', 'the task history is shared by all projects: a workspace value would delete other projects\' history'),
  'history.maxSizeMb': confirm('sharedData', 'the task history is shared by all projects: a workspace value would delete other projects\' history'),
  permissionMode: userOnly('approvals', 'decides what runs without asking and whether commands are confined: a workspace could turn the sandbox off'),
  'sandbox.allowHosts': userOnly('hosts', 'lets sandboxed commands reach hosts (loopback and private addresses included)'),
  hooks: userOnly('program', 'runs commands around the agent\'s every tool call and turn; a workspace\'s own hooks (`.stepwise/settings.json`) are a separate source that runs only after the user trusts its fingerprint'),
  mcpServers: userOnly('servers', 'starts programs and connects to servers; a workspace\'s own `mcpServers` is a separate source whose servers each need the user\'s trust'),
} as const satisfies Record<string, SettingTrustEntry>;

/** A setting name below `stepwise.` that the table knows. */
export type SettingKey = keyof typeof SETTING_TRUST;

/** The settings whose workspace value waits for the user's confirmation. */
export type ConfirmSettingKey = { [K in SettingKey]: (typeof SETTING_TRUST)[K]['trust'] extends 'workspace-confirm' ? K : never }[SettingKey];

/** The concerns of `workspace-confirm` settings (the prompt has words for each). */
export type ConfirmConcern = (typeof SETTING_TRUST)[ConfirmSettingKey]['concern'];

/** Every setting in the table, sorted. */
export const SETTING_KEYS_SORTED: readonly SettingKey[] = (Object.keys(SETTING_TRUST) as SettingKey[]).sort();

/** The row of `key`; a key the table does not know is user-only (deny by default). */
export function settingTrust(key: string): SettingTrustEntry {
  return Object.hasOwn(SETTING_TRUST, key) ? SETTING_TRUST[key as SettingKey] : { trust: 'user-only', concern: 'project', why: 'not in the table' };
}

/** The settings of one class, sorted. */
export function settingsOfClass(trust: SettingTrustClass): SettingKey[] {
  return SETTING_KEYS_SORTED.filter((key) => SETTING_TRUST[key].trust === trust);
}

/** The `workspace-confirm` settings, sorted. */
export const CONFIRM_SETTINGS = settingsOfClass('workspace-confirm') as readonly ConfirmSettingKey[];

/**
 * The settings a workspace may not set in Restricted Mode (everything but `workspace-safe`), as
 * package.json's `restrictedConfigurations` lists them (`stepwise.` prefix), sorted.
 */
export function restrictedConfigurations(): string[] {
  return SETTING_KEYS_SORTED.filter((key) => SETTING_TRUST[key].trust !== 'workspace-safe').map((key) => `stepwise.${key}`);
}
