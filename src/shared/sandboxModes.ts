import { z } from 'zod';

// The sandbox and permission vocabulary, declared once: the core's policy, the settings, the CLI's
// flags and the webview's switch all derive from these tables.

/** What a sandboxed command may do: nothing confined (`off`), read only, or write inside the workspace. */
export const SandboxMode = z.enum(['off', 'read-only', 'workspace-write']);
export type SandboxMode = z.infer<typeof SandboxMode>;

/** The permission mode the user picks per task: ask before acting, auto inside the sandbox, read-only, full access. */
export const PermissionMode = z.enum(['ask', 'auto', 'read-only', 'full']);
export type PermissionMode = z.infer<typeof PermissionMode>;

/** What a permission mode means for the policy. */
export interface PermissionRule {
  /** The sandbox commands run in. */
  sandbox: SandboxMode;
  /** Commands that run inside the sandbox are approved without asking (the sandbox confines them). */
  autoApproveSandboxed: boolean;
  /** Edits of workspace files are refused (read-only mode). */
  refuseEdits: boolean;
  /** Every category is approved without asking (full access; protected paths and the deny list still hold). */
  approveAll: boolean;
}

/** The one table of permission modes (exhaustive, so a new mode must say what it allows). */
export const PERMISSION_RULES: Record<PermissionMode, PermissionRule> = {
  ask: { sandbox: 'off', autoApproveSandboxed: false, refuseEdits: false, approveAll: false },
  auto: { sandbox: 'workspace-write', autoApproveSandboxed: true, refuseEdits: false, approveAll: false },
  'read-only': { sandbox: 'read-only', autoApproveSandboxed: true, refuseEdits: true, approveAll: false },
  full: { sandbox: 'off', autoApproveSandboxed: false, refuseEdits: false, approveAll: true },
};

/** The sandbox a task's commands run in: an explicit sandbox setting wins over the mode's own. */
export function sandboxFor(mode: PermissionMode, explicit: SandboxMode | undefined): SandboxMode {
  return explicit ?? PERMISSION_RULES[mode].sandbox;
}

/** The words a command result starts its sandbox note with; the model and tests look for them. */
export const SANDBOX_BLOCKED = 'blocked by the sandbox';
