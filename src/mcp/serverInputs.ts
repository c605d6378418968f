import { looksSecret } from '../agent/secrets/secretEnv';
import { formatConfigError, type McpServerConfig } from './mcpConfig';
import { envReferences } from './secretExpansion';

/**
 * One thing a server receives besides its command line or URL, as the user is shown it before it
 * starts: never an expanded `${env:…}` value (shown as written) nor a literal that looks secret (masked).
 */
export type ServerInput =
  | { kind: 'env'; name: string; from: 'variable' | 'literal'; shown: string; withheld?: boolean }
  | { kind: 'header'; name: string; masked: boolean; shown: string }
  | { kind: 'cwd'; shown: string }
  | { kind: 'autoApprove'; tools: string[] | 'all' };

const quoteArg = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** What the server runs: `command arg…` (quoted as a shell would need) or its URL. */
export function describeServer(server: McpServerConfig): string {
  return server.kind === 'stdio' ? [server.command, ...server.args].map(quoteArg).join(' ') : server.url;
}

/** What a literal that must not be shown becomes. */
export const MASK = '••••';
const MAX_SHOWN = 120;

const cut = (text: string): string => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text);

/** Header names whose literal values are credentials whatever their text (`Authorization: Bearer …`, cookies). */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie)$|key|token|secret|auth/i;

/**
 * Everything `server` receives besides `describeServer`'s command line or URL: each env entry and
 * where its value comes from, each header (values from `${env:…}` shown as written, credential-like
 * literals masked), the working folder, and the tools it may call without asking.
 */
export function serverInputs(server: McpServerConfig): ServerInput[] {
  const inputs: ServerInput[] = [];
  if (server.kind === 'stdio') {
    for (const [name, value] of Object.entries(server.envFrom ?? server.env)) {
      const fromVariable = envReferences(value).length > 0;
      const secretLiteral = !fromVariable && looksSecret(name);
      const withheld = server.withheldEnv?.[name] !== undefined ? { withheld: true } : {};
      inputs.push({ kind: 'env', name, from: fromVariable ? 'variable' : 'literal', shown: secretLiteral ? MASK : cut(value), ...withheld });
    }
    if (server.cwd !== undefined) inputs.push({ kind: 'cwd', shown: server.cwd });
  } else {
    for (const [name, value] of Object.entries(server.headersFrom ?? server.headers)) {
      const fromVariable = envReferences(value).length > 0;
      // Text written around a reference (`Bearer ${env:X}`) is shown; a credential written literally is not.
      const masked = !fromVariable && CREDENTIAL_HEADER.test(name);
      inputs.push({ kind: 'header', name, masked: masked || fromVariable, shown: masked ? MASK : cut(value) });
    }
  }
  if (server.autoApprove === true) inputs.push({ kind: 'autoApprove', tools: 'all' });
  else if (server.autoApprove.length) inputs.push({ kind: 'autoApprove', tools: [...server.autoApprove] });
  return inputs;
}

/** The words of `formatServerInputs`, translated by the shell (VS Code passes `vscode.l10n.t` results). */
export interface ServerInputLabels {
  /** `env {0} = {1}` with a literal value. */
  envLiteral: (name: string, value: string) => string;
  /** `env {0} from {1}` with a `${env:…}` reference as written. */
  envVariable: (name: string, written: string) => string;
  /** An entry left out because a workspace may not pass that secret. */
  envWithheld: (name: string, written: string) => string;
  header: (name: string, value: string) => string;
  cwd: (path: string) => string;
  autoApprove: (tools: string) => string;
  autoApproveAll: string;
}

/** English labels (the CLI's, and the key of VS Code's translations). */
export const ENGLISH_SERVER_INPUT_LABELS: ServerInputLabels = {
  envLiteral: (name, value) => `env ${name} = ${JSON.stringify(value)}`,
  envVariable: (name, written) => `env ${name} from ${written}`,
  envWithheld: (name, written) => `env ${name} from ${written} is withheld (a secret)`,
  header: (name, value) => `header ${name}: ${value}`,
  cwd: (path) => `working folder ${path}`,
  autoApprove: (tools) => `calls without asking: ${tools}`,
  autoApproveAll: 'calls every tool without asking',
};

/** `source: server "x": "env.LEAK" left out: …` for each env entry the expansion policy withheld. */
export function withheldNotes(server: McpServerConfig): string[] {
  if (server.kind !== 'stdio') return [];
  return Object.values(server.withheldEnv ?? {}).map((message) => formatConfigError({ source: server.source, server: server.name, message }));
}

/** One line per input, in the order `serverInputs` gives them. */
export function formatServerInputs(inputs: readonly ServerInput[], labels: ServerInputLabels = ENGLISH_SERVER_INPUT_LABELS): string[] {
  return inputs.map((input) => {
    switch (input.kind) {
      case 'env':
        if (input.withheld) return labels.envWithheld(input.name, input.shown);
        return input.from === 'variable' ? labels.envVariable(input.name, input.shown) : labels.envLiteral(input.name, input.shown);
      case 'header':
        return labels.header(input.name, input.shown);
      case 'cwd':
        return labels.cwd(input.shown);
      case 'autoApprove':
        return input.tools === 'all' ? labels.autoApproveAll : labels.autoApprove(input.tools.join(', '));
    }
  });
}
