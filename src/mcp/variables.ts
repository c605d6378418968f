/** Values `${...}` placeholders in server entries may refer to. */
export interface VariableContext {
  env: Record<string, string | undefined>;
  workspaceFolder?: string;
  userHome?: string;
}

/**
 * Expands `${env:VAR}`, `${workspaceFolder}` and `${userHome}` in `value`. Throws an `Error` naming
 * `field` for an unset environment variable, a variable without a value here, and `${input:...}`
 * (VS Code prompts for those; Stepwise does not). Other `${...}` text is left as written.
 */
export function expandVariables(value: string, vars: VariableContext, field: string): string {
  return value.replace(/\$\{([^}]+)\}/g, (whole, inner: string) => {
    const name = inner.trim();
    if (name.startsWith('env:')) {
      const key = name.slice(4);
      const found = vars.env[key];
      if (found === undefined) throw new Error(`environment variable "${key}" is not set (used in "${field}")`);
      return found;
    }
    if (name === 'workspaceFolder') {
      if (vars.workspaceFolder === undefined) throw new Error(`\${workspaceFolder} has no value here: no workspace folder is open (used in "${field}")`);
      return vars.workspaceFolder;
    }
    if (name === 'userHome') {
      if (vars.userHome === undefined) throw new Error(`\${userHome} has no value here (used in "${field}")`);
      return vars.userHome;
    }
    if (name.startsWith('input:')) {
      throw new Error(`"${whole}" refers to a VS Code input, which Stepwise does not prompt for; use \${env:VAR} instead (in "${field}")`);
    }
    return whole;
  });
}
