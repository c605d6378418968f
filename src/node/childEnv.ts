import { childEnvironment, type ChildEnvironmentRequest } from '../agent/secrets/childEnvironment';
import type { EnvironmentRules } from '../agent/secrets/secretEnv';

let shellRules: () => EnvironmentRules = () => ({});

/**
 * The shell (CLI or VS Code) tells once, at start, the rules every child of this process follows:
 * the redactor's known secret values and the user's pass-through names. Read at each spawn, so a
 * setting changed later applies to the next process. Until set, secrets are dropped by name only.
 */
export function setChildEnvironmentRules(rules: () => EnvironmentRules): void {
  shellRules = rules;
}

/** The rules set by the shell (for adapters that pass them on, such as the MCP hub). */
export function childEnvironmentRules(): EnvironmentRules {
  return shellRules();
}

/**
 * The environment of a process the Node side starts: the core's one builder over `process.env`
 * with the shell's rules (or `rules`, when a caller was given its own).
 */
export function nodeChildEnvironment(request: Omit<ChildEnvironmentRequest, 'parent' | 'rules'> & { rules?: EnvironmentRules }): Record<string, string> {
  return childEnvironment({ ...request, parent: process.env, rules: request.rules ?? shellRules() });
}
