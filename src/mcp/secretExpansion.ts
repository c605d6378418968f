import { looksSecret, type EnvironmentRules } from '../agent/secrets/secretEnv';
import { expandVariables, type VariableContext } from './variables';

/**
 * Where an expanded value goes. Only `env` (a stdio server's own environment) may ever carry a
 * secret; a header, the URL, the command, an argument or the working folder never may: those end
 * up in request logs, proxies, `ps` output and the trust prompt.
 */
export type McpFieldKind = 'env' | 'header' | 'url' | 'command' | 'arg' | 'cwd';

/** One field of one server entry, as the expansion policy sees it. */
export interface McpFieldRef {
  server: string;
  /** As users write it: `headers.Authorization`, `args[2]`, `env.TOKEN`, `url`. */
  field: string;
  kind: McpFieldKind;
  /** True only for the user's own configuration (VS Code's user `stepwise.mcpServers`, the CLI's `--mcp-config`). */
  userSource: boolean;
}

/**
 * A value the policy let through (`secret`: an `env` entry allowed to carry a secret, which the child
 * environment must keep), or an `env` entry left out, as for commands: the server starts without it.
 */
export type ExpandedField = { value: string; secret: boolean } | { withheld: string };

/** Thrown (and turned into the entry's configuration error) when a field would carry a secret; the server does not start. */
export class SecretExpansionRefused extends Error {}

const ENV_REFERENCE = /\$\{\s*env:([^}]+?)\s*\}/g;

/** The `${env:NAME}` names a value refers to, in order. */
export function envReferences(value: string): string[] {
  return [...value.matchAll(ENV_REFERENCE)].map((match) => match[1]!.trim());
}

/** Names of referenced variables that count as secrets: a secret-looking name, or a value that holds a known secret. */
function secretReferences(value: string, vars: VariableContext, rules: EnvironmentRules): string[] {
  return envReferences(value).filter((name) => {
    const found = vars.env[name];
    return looksSecret(name) || (found !== undefined && rules.isSecretValue?.(found) === true);
  });
}

function refusal(ref: McpFieldRef, what: string): SecretExpansionRefused {
  const why = `it would carry ${what}; a secret may reach an MCP server only through an "env" entry of your own configuration (a stdio server), never through a header, URL, command or argument`;
  return new SecretExpansionRefused(`refused "${ref.field}": ${why}. The server was not started.`);
}

function withheld(ref: McpFieldRef, what: string): { withheld: string } {
  return {
    withheld: `"${ref.field}" left out: a workspace's MCP configuration may not pass ${what}; name the variable in your own stepwise.env.passThrough setting (--pass-env in the CLI), or configure "${ref.server}" in your own configuration`,
  };
}

/**
 * The one place MCP configuration values are expanded (both shells). `${env:…}`, `${workspaceFolder}`
 * and `${userHome}` are expanded as in `expandVariables`, then, deny by default: a value that refers
 * to a secret-looking variable or ends up holding a known secret is refused unless it is an `env`
 * entry of the user's own configuration, or an `env` entry whose every secret variable the user
 * passes through (`EnvironmentRules.passThrough`). Any other field throws `SecretExpansionRefused`
 * naming it (the server does not start); any other `env` entry is withheld (left out, as for commands).
 */
export function expandField(raw: string, vars: VariableContext, rules: EnvironmentRules, ref: McpFieldRef): ExpandedField {
  const secretVars = secretReferences(raw, vars, rules);
  const value = expandVariables(raw, vars, ref.field);
  const carriesKnown = rules.isSecretValue?.(value) === true;
  if (secretVars.length === 0 && !carriesKnown) return { value, secret: false };
  const what = secretVars.length ? `the secret variable ${secretVars.map((name) => `\${env:${name}}`).join(', ')}` : 'a known secret value';
  if (ref.kind !== 'env') throw refusal(ref, what);
  if (ref.userSource) return { value, secret: true };
  const pass = new Set(rules.passThrough ?? []);
  // A workspace may name a variable the user chose to pass through, but never write a secret itself.
  if (secretVars.length > 0 && secretVars.every((name) => pass.has(name)) && (!carriesKnown || literalIsClean(raw, rules))) return { value, secret: true };
  return withheld(ref, what);
}

/** True when the text written around the `${env:…}` references holds no known secret of its own. */
function literalIsClean(raw: string, rules: EnvironmentRules): boolean {
  return rules.isSecretValue?.(raw.replace(ENV_REFERENCE, '')) !== true;
}
