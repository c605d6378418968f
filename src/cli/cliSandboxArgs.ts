import { z } from 'zod';
import { PermissionMode, SandboxMode, sandboxFor } from '../shared/sandboxModes';

/** The CLI's sandbox and permission options. */
export const CliSandboxOptions = z.object({
  permissionMode: PermissionMode,
  /** The sandbox commands run in (from --sandbox, else the permission mode's). */
  sandbox: SandboxMode,
  /** Hosts sandboxed commands may reach through the sandbox's proxy. */
  allowHosts: z.array(z.string()),
});
export type CliSandboxOptions = z.infer<typeof CliSandboxOptions>;

/** `parseArgs` options of the sandbox flags. */
export const sandboxArgOptions = {
  sandbox: { type: 'string' },
  'sandbox-allow-host': { type: 'string', multiple: true },
  'permission-mode': { type: 'string' },
} as const;

/** The sandbox options from parsed flags, or the usage problem (a sentence). */
export function sandboxOptionsFrom(values: Record<string, unknown>): CliSandboxOptions | string {
  const mode = PermissionMode.safeParse(values['permission-mode'] ?? 'ask');
  if (!mode.success) return (`--permission-mode must be ${PermissionMode.options.join(', ')}`);
  const explicit = values.sandbox === undefined ? undefined : SandboxMode.safeParse(values.sandbox);
  if (explicit && !explicit.success) return (`--sandbox must be ${SandboxMode.options.join(', ')}`);
  const hosts = Array.isArray(values['sandbox-allow-host']) ? values['sandbox-allow-host'].flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean) : [];
  return { permissionMode: mode.data, sandbox: sandboxFor(mode.data, explicit?.data), allowHosts: hosts };
}
