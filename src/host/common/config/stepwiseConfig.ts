import { ModelPrice } from '../../../agent/model/modelCatalog';
import { DEFAULT_HISTORY_PRUNE } from '../../../node/historyRules';
import { DEFAULT_MAX_FILE_BYTES } from '../../../node/checkpoints/gitSnapshot';
import { DEFAULT_PRUNE } from '../../../node/checkpoints/pruneCheckpoints';
import { DEFAULT_LIMITS } from '../../../agent/loop/runTypes';
import { z } from 'zod';
import { ApprovalCategory } from '../../../shared/events';
import { DEFAULT_TASK_TOKEN_BUDGET } from '../../../agent/flow/taskTypes';
import { DEFAULT_AUTO_APPROVE, DEFAULT_COMMAND_ALLOW, DEFAULT_COMMAND_DENY, DEFAULT_ENV_PASS_THROUGH } from '../../../agent/policy/defaults';
import { PlanMode, ReviewMode, ToolProtocol } from '../../../shared/vocabulary';
import { PermissionMode } from '../../../shared/sandboxModes';
import type { SettingKey } from './settingTrust';
import { HooksConfig } from '../../../agent/hooks/hookConfig';
import { SHELL_PREFERENCES } from '../../../agent/shellInfo';

/** Which model backend a run uses. */
export const ProviderKind = z.enum(['openai-compatible', 'azure-openai', 'anthropic', 'vscode-lm']);
export type ProviderKind = z.infer<typeof ProviderKind>;


const optionalName = z.string().trim().default('');

/**
 * The `stepwise.*` settings after validation. Each field falls back to its default when the user's
 * value is invalid (the problem is reported, never thrown), so a typo cannot stop the extension.
 * The API key is never a setting: it lives in SecretStorage.
 */
export const StepwiseConfig = z.object({
  provider: ProviderKind.default('openai-compatible'),
  baseUrl: z.string().trim().default(''),
  model: z.string().trim().min(1).default('gpt-4o-mini'),
  /** Azure OpenAI's `api-version` (provider `azure-openai`: `baseUrl` is the resource endpoint, `model` the deployment). */
  azureApiVersion: z.string().trim().min(1).default('2024-10-21'),
  // The limits' and checkpoints' defaults are the core's (package.json repeats them; a test checks).
  maxTurns: z.number().int().min(1).max(500).default(DEFAULT_LIMITS.maxTurns),
  maxInputTokens: z.number().int().min(2_000).max(2_000_000).default(DEFAULT_LIMITS.maxInputTokens),
  // The approval defaults are the core's, shared with the CLI (package.json repeats them; a test checks).
  autoApprove: z.array(ApprovalCategory).default([...DEFAULT_AUTO_APPROVE]),
  commandsAllow: z.array(z.string()).default([...DEFAULT_COMMAND_ALLOW]),
  commandsDeny: z.array(z.string()).default([...DEFAULT_COMMAND_DENY]),
  /** The shell commands run through (`auto`: pwsh, Windows PowerShell, cmd.exe on Windows; bash or sh elsewhere). */
  commandsShell: z.enum(SHELL_PREFERENCES).default('auto'),
  envPassThrough: z.array(z.string()).default([...DEFAULT_ENV_PASS_THROUGH]),
  toolProtocol: ToolProtocol.default('auto'),
  planMode: PlanMode.default('auto'),
  planReview: ReviewMode.default('auto'),
  lookFirst: z.boolean().default(false),
  modelBasic: optionalName,
  modelReasoning: optionalName,
  modelVision: optionalName,
  /** The main model reads images (screenshots and MCP images are sent to it). */
  modelVisionCapable: z.boolean().default(false),
  webAllowHosts: z.array(z.string().trim().min(1)).default([]),
  webDenyHosts: z.array(z.string().trim().min(1)).default([]),
  webBrowserPath: optionalName,
  webSearxngUrl: optionalName,
  reportsFolder: z.string().trim().min(1).default('.stepwise/reports'),
  mcpServers: z.record(z.string(), z.unknown()).default({}),
  rulesAgentsMd: z.boolean().default(true),
  rulesStepwise: z.boolean().default(true),
  rulesCopilot: z.boolean().default(true),
  rulesClaude: z.boolean().default(true),
  rulesMaxChars: z.number().int().min(0).max(200_000).default(24_000),
  /** 0: from the model catalog (unknown models: no compaction before the prompt budget). */
  contextWindow: z.number().int().min(0).max(10_000_000).default(0),
  /** Effective tokens (cached prompt tokens count 0.1); 0: no limit. */
  taskTokenBudget: z.number().int().min(0).default(DEFAULT_TASK_TOKEN_BUDGET),
  /** US dollars; 0: no limit. */
  taskCostBudgetUsd: z.number().min(0).default(0),
  prices: z.record(z.string(), ModelPrice).default({}),
  verifyMode: z.enum(['auto', 'off']).default('auto'),
  verifyCommands: z.array(z.string().trim().min(1)).default([]),
  checkpointsEnabled: z.boolean().default(true),
  checkpointsMaxAgeDays: z.number().min(1).max(3650).default(DEFAULT_PRUNE.maxAgeDays),
  checkpointsMaxSizeMB: z.number().min(50).max(1_000_000).default(DEFAULT_PRUNE.maxSizeMB),
  checkpointsMaxFileSizeMB: z.number().min(0.01).max(10_000).default(DEFAULT_MAX_FILE_BYTES / (1024 * 1024)),
  /** Task history older than this is removed at start-up and after each run; 0 = keep. */
  historyMaxAgeDays: z.number().min(0).max(36_500).default(DEFAULT_HISTORY_PRUNE.maxAgeDays),
  /** Above this total size the oldest task history is removed; 0 = no limit. */
  historyMaxSizeMb: z.number().min(0).max(1_000_000).default(DEFAULT_HISTORY_PRUNE.maxSizeMb),
  /** Ask before acting, auto inside the sandbox, read-only, or full access (`PERMISSION_RULES`). */
  permissionMode: PermissionMode.default('ask'),
  /** Hosts sandboxed commands may reach through the sandbox's proxy. */
  sandboxAllowHosts: z.array(z.string().trim().min(1)).default([]),
  /** The user's hooks (Claude Code's format); a workspace's own come from `.stepwise/settings.json` after trust. */
  hooks: HooksConfig.default({}),
});
export type StepwiseConfig = z.infer<typeof StepwiseConfig>;

/** Setting key (below `stepwise.`) of each config field; each is a row of the trust table (the type says so). */
export const SETTING_KEYS: Record<keyof StepwiseConfig, SettingKey> = {
  provider: 'provider',
  baseUrl: 'baseUrl',
  model: 'model',
  azureApiVersion: 'azure.apiVersion',
  maxTurns: 'maxTurns',
  maxInputTokens: 'maxInputTokens',
  autoApprove: 'approvals.autoApprove',
  commandsAllow: 'commands.allow',
  commandsDeny: 'commands.deny',
  commandsShell: 'commands.shell',
  envPassThrough: 'env.passThrough',
  toolProtocol: 'toolProtocol',
  planMode: 'plan.mode',
  planReview: 'plan.review',
  lookFirst: 'plan.lookFirst',
  modelBasic: 'models.basic',
  modelReasoning: 'models.reasoning',
  modelVision: 'models.vision',
  modelVisionCapable: 'models.visionCapable',
  webAllowHosts: 'web.allowHosts',
  webDenyHosts: 'web.denyHosts',
  webBrowserPath: 'web.browserPath',
  webSearxngUrl: 'web.searxngUrl',
  reportsFolder: 'reports.folder',
  mcpServers: 'mcpServers',
  rulesAgentsMd: 'rules.agentsMd',
  rulesStepwise: 'rules.stepwiseRules',
  rulesCopilot: 'rules.copilotInstructions',
  rulesClaude: 'rules.claudeMd',
  rulesMaxChars: 'rules.maxChars',
  contextWindow: 'contextWindow',
  taskTokenBudget: 'budget.taskTokens',
  taskCostBudgetUsd: 'budget.taskCostUsd',
  prices: 'prices',
  verifyMode: 'verify.mode',
  verifyCommands: 'verify.commands',
  checkpointsEnabled: 'checkpoints.enabled',
  checkpointsMaxAgeDays: 'checkpoints.maxAgeDays',
  checkpointsMaxSizeMB: 'checkpoints.maxSizeMB',
  checkpointsMaxFileSizeMB: 'checkpoints.maxFileSizeMB',
  historyMaxAgeDays: 'history.maxAgeDays',
  historyMaxSizeMb: 'history.maxSizeMb',
  permissionMode: 'permissionMode',
  sandboxAllowHosts: 'sandbox.allowHosts',
  hooks: 'hooks',
};

/** Config plus the settings that were ignored because their values were invalid. */
export interface ConfigReadResult {
  config: StepwiseConfig;
  problems: string[];
}

/**
 * Builds the config from a getter of raw setting values (`vscode.WorkspaceConfiguration.get` in the
 * host, a plain object in tests). Invalid values are replaced by defaults and listed in `problems`.
 */
export function parseStepwiseConfig(get: (key: string) => unknown): ConfigReadResult {
  const problems: string[] = [];
  const raw: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(SETTING_KEYS) as Array<[keyof StepwiseConfig, string]>) {
    const value = get(key);
    if (value === undefined || value === null) continue;
    const fieldSchema = StepwiseConfig.shape[field];
    const checked = fieldSchema.safeParse(value);
    if (checked.success) raw[field] = checked.data;
    else problems.push(`stepwise.${key}: ${z.prettifyError(checked.error).replace(/\n/g, ' ')}`);
  }
  return { config: StepwiseConfig.parse(raw), problems };
}
