import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { DEFAULT_AUTO_APPROVE, DEFAULT_COMMAND_ALLOW, DEFAULT_COMMAND_DENY, DEFAULT_ENV_PASS_THROUGH } from '../agent/policy/defaults';
import type { ApprovalRules } from '../agent/policy/policyApprover';
import { ApprovalCategory } from '../shared/events';
import { HooksConfig } from '../agent/hooks/hookConfig';
import { UsageError, type CliOptions } from './cliArgs';

const names = z.array(z.string().trim().min(1));

/**
 * The `--config` file: the same keys as VS Code's `stepwise.*` settings, nested or dotted. It is the
 * only settings file the CLI reads, and only when the user names it, so it is the user's own layer:
 * the settings trust table (host/common/config/settingTrust.ts) has nothing to hold back here, and
 * a unit test keeps every key a row of that table. The CLI never reads a workspace's settings.
 */
export const CliFileConfig = z
  .object({
    commands: z.object({ allow: names.optional(), deny: names.optional() }).strict().optional(),
    approvals: z.object({ autoApprove: z.array(ApprovalCategory).optional() }).strict().optional(),
    env: z.object({ passThrough: names.optional() }).strict().optional(),
    /** Claude Code's hooks format (`stepwise.hooks`): the user's own commands around the agent's steps. */
    hooks: HooksConfig.optional(),
  })
  .strict();
export type CliFileConfig = z.infer<typeof CliFileConfig>;

/** What the CLI's policy and command runner obey, after defaults, the file and the flags. */
export interface CliRules extends ApprovalRules {
  envPassThrough: readonly string[];
}

/** `{"commands.allow": […]}` → `{"commands": {"allow": […]}}`, so both spellings work. */
function nestDottedKeys(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const [head, ...rest] = key.replace(/^stepwise\./, '').split('.');
    // Hooks are keyed by event names, not dotted settings: kept as written.
    if (head === 'hooks') {
      out[head] = value;
      continue;
    }
    if (rest.length === 0) out[head!] = value;
    else out[head!] = { ...(out[head!] as Record<string, unknown> | undefined), [rest.join('.')]: value };
  }
  return out;
}

/** Reads and validates a `--config` file; a missing, malformed or unknown key is a usage error. */
export async function readCliConfig(file: string): Promise<CliFileConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--config: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config: ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = CliFileConfig.safeParse(nestDottedKeys(raw));
  if (!parsed.success) throw new UsageError(`--config: ${file}: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`);
  return parsed.data;
}

/**
 * The rules of a CLI run. The file replaces a default list (as a VS Code setting does); flags add
 * to the lists, and `--auto-approve` replaces the categories.
 */
export function cliRules(options: CliOptions, file: CliFileConfig = {}): CliRules {
  return {
    autoApprove: options.autoApprove ?? file.approvals?.autoApprove ?? DEFAULT_AUTO_APPROVE,
    commandsAllow: [...(file.commands?.allow ?? DEFAULT_COMMAND_ALLOW), ...options.allowCommands],
    commandsDeny: [...(file.commands?.deny ?? DEFAULT_COMMAND_DENY), ...options.denyCommands],
    envPassThrough: [...(file.env?.passThrough ?? DEFAULT_ENV_PASS_THROUGH), ...options.passEnv],
    permissionMode: options.sandbox.permissionMode,
  };
}
