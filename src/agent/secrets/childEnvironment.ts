import { z } from 'zod';
import { GIT_ENV_NAMES, gitConfigVariables, NEUTRAL_GIT_CONFIG, NEUTRAL_GIT_ENV } from './gitNeutral';
import { looksSecret, type EnvironmentRules } from './secretEnv';

/**
 * What kind of process is started, which decides what of the parent's environment it starts from:
 * `command` (run_command, verify checks), `browser` and `tool` (ripgrep, the watchdog) keep the
 * parent's variables minus secrets; `server` (an MCP stdio server) keeps only the few names the
 * MCP SDK passes anyway; `git` keeps only what git needs and adds the neutral git settings.
 */
export const ChildKind = z.enum(['command', 'browser', 'tool', 'server', 'git']);
export type ChildKind = z.infer<typeof ChildKind>;

/** The MCP SDK's inherited names (POSIX and Windows), which it merges under a server's own env anyway. */
export const SERVER_ENV_NAMES: readonly string[] = [
  'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER',
  'APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PROCESSOR_ARCHITECTURE', 'PROGRAMFILES', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'USERNAME', 'USERPROFILE',
];

/** Everything the one builder needs to know about a child. */
export interface ChildEnvironmentRequest {
  kind: ChildKind;
  /** The parent's environment (`process.env`, passed by the Node side: the core reads no globals). */
  parent: Readonly<Record<string, string | undefined>>;
  /** The user's pass-through names and the known secret values (the redactor's). */
  rules?: EnvironmentRules;
  /** Variables the caller sets on purpose (a process tag, `GIT_DIR`, an MCP entry's `env`). */
  explicit?: Readonly<Record<string, string>>;
  /** Parent names this child must not inherit although they are not secret (a process tag it would sweep). */
  omit?: readonly string[];
  /** `git` only: more settings at command scope after the neutral ones (the repository's drivers made inert). */
  gitConfig?: readonly (readonly [string, string])[];
}

const BASE_NAMES: Partial<Record<ChildKind, ReadonlySet<string>>> = {
  server: new Set(SERVER_ENV_NAMES),
  git: new Set(GIT_ENV_NAMES),
};

/**
 * The environment of every process Stepwise starts (the one chokepoint; lint refuses a spawn whose
 * `env` is not built here). From the parent it keeps the kind's names, minus any whose name looks
 * secret or whose value holds a known secret, unless the user passed that name through; the
 * caller's explicit variables are kept unless one holds a known secret (same exception). For `git`
 * the neutral variables and settings come last, so no caller and no parent variable can undo them.
 */
export function childEnvironment(request: ChildEnvironmentRequest): Record<string, string> {
  const pass = new Set(request.rules?.passThrough ?? []);
  const isSecretValue = request.rules?.isSecretValue ?? (() => false);
  const names = BASE_NAMES[request.kind];
  const omit = new Set(request.omit ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.parent)) {
    if (value === undefined || omit.has(name) || (names && !names.has(name))) continue;
    if (!pass.has(name) && (looksSecret(name) || isSecretValue(value))) continue;
    out[name] = value;
  }
  for (const [name, value] of Object.entries(request.explicit ?? {})) {
    if (!pass.has(name) && isSecretValue(value)) continue;
    out[name] = value;
  }
  if (request.kind !== 'git') return out;
  return { ...out, ...NEUTRAL_GIT_ENV, ...gitConfigVariables([...NEUTRAL_GIT_CONFIG, ...(request.gitConfig ?? [])]) };
}
