import { PolicyApprover } from '../agent/policy/policyApprover';
import type { Approver } from '../agent/ports';
import { Redactor } from '../agent/secrets/redactor';
import type { EnvironmentRules } from '../agent/secrets/secretEnv';
import { nodeShellSyntax } from '../node/shellWasm';
import type { CliOptions } from './cliArgs';
import { CliApprover } from './cliApprover';
import { cliRules, type CliFileConfig, type CliRules } from './cliConfig';
import type { Prompter } from './prompter';

/** The trust boundary of a CLI run, built from the core's rules. */
export interface CliSecurity {
  rules: CliRules;
  redactor: Redactor;
  /** The core policy around the terminal prompt. */
  approver: Approver;
  /** Cleans the environment of commands and MCP servers. */
  environment: EnvironmentRules;
  /** Writes to stderr with known secrets redacted. */
  stderr: (text: string) => void;
}

/**
 * Builds the CLI's policy and redaction: the model key and the values of secret-looking variables
 * are known secrets (redacted everywhere, kept out of child environments); approvals go through the
 * core's `PolicyApprover` and reach the terminal only when a person must answer.
 */
export function cliSecurity(options: CliOptions, file: CliFileConfig, io: { env: NodeJS.ProcessEnv; stderr: (text: string) => void; prompter?: Prompter; approver?: Approver }, apiKey: string | undefined): CliSecurity {
  const rules = cliRules(options, file);
  const redactor = new Redactor();
  if (apiKey) redactor.add(apiKey);
  // The web search keys are known secrets even when short or named unusually (addFromEnvironment needs 8 characters).
  for (const key of [options.web.tavilyKey, options.web.braveKey]) if (key) redactor.add(key);
  redactor.addFromEnvironment(io.env);
  const environment: EnvironmentRules = { passThrough: rules.envPassThrough, isSecretValue: (value) => redactor.contains(value) };
  return {
    rules,
    redactor,
    approver: new PolicyApprover(() => rules, io.approver ?? new CliApprover(io.prompter), nodeShellSyntax),
    environment,
    stderr: (text) => io.stderr(redactor.redact(text)),
  };
}
