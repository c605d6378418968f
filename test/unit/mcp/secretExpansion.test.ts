import assert from 'node:assert/strict';
import { formatConfigError, loadMcpConfig, type McpServerConfig } from '../../../src/mcp';
import { parseServerEntries, type ConfigContext } from '../../../src/mcp/mcpConfig';
import { Redactor } from '../../../src/agent/secrets/redactor';

// A known key: registered with the redactor, as both shells do with the model key.
const KEY = 'sk-test-0123456789abcdefghijklmnop';
const env = { OPENAI_API_KEY: KEY, GITHUB_TOKEN: 'ghp_not-registered-but-secret-named', INNOCENT: KEY, PLAIN: 'plain-value' };
const redactor = new Redactor();
redactor.add(KEY);
const isSecretValue = (value: string): boolean => redactor.contains(value);

type Field = 'env' | 'header' | 'url' | 'arg' | 'command' | 'cwd';
type Variable = 'secret name, known value' | 'secret name, unknown value' | 'innocent name, known value' | 'plain variable' | 'literal known value';
type Source = 'user' | 'workspace' | 'workspace, names passed through';

const written: Record<Variable, string> = {
  'secret name, known value': '${env:OPENAI_API_KEY}',
  'secret name, unknown value': '${env:GITHUB_TOKEN}',
  'innocent name, known value': '${env:INNOCENT}',
  'plain variable': '${env:PLAIN}',
  'literal known value': KEY,
};

/** The field name a refusal must name, and an entry that puts `value` there. */
const fields: Record<Field, { field: string; entry: (value: string) => Record<string, unknown> }> = {
  env: { field: 'env.TOKEN', entry: (value) => ({ command: 'node', env: { TOKEN: value } }) },
  header: { field: 'headers.Authorization', entry: (value) => ({ url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${value}` } }) },
  url: { field: 'url', entry: (value) => ({ url: `http://127.0.0.1:9/mcp?key=${value}` }) },
  arg: { field: 'args[1]', entry: (value) => ({ command: 'node', args: ['server.js', `--key=${value}`] }) },
  command: { field: 'command', entry: (value) => ({ command: `/opt/${value}/server` }) },
  cwd: { field: 'cwd', entry: (value) => ({ command: 'node', cwd: `/tmp/${value}` }) },
};

const context: Record<Source, ConfigContext> = {
  user: { env, userSource: true, secrets: { isSecretValue } },
  workspace: { env, secrets: { isSecretValue } },
  'workspace, names passed through': { env, secrets: { isSecretValue, passThrough: ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'INNOCENT'] } },
};

/**
 * The expected outcome: only `env` may carry a secret, from the user's config or through a
 * passed-through variable; any other field is refused (no server), any other env entry withheld.
 */
function expected(field: Field, variable: Variable, source: Source): 'expanded' | 'refused' | 'withheld' {
  if (variable === 'plain variable') return 'expanded';
  if (field !== 'env') return 'refused';
  if (source === 'user') return 'expanded';
  if (source === 'workspace, names passed through' && variable !== 'literal known value') return 'expanded';
  return 'withheld';
}

/** Every string a server would receive from its config (what must not hold the key when refused). */
function received(server: McpServerConfig): string {
  return server.kind === 'stdio' ? JSON.stringify([server.command, server.args, server.env, server.cwd]) : JSON.stringify([server.url, server.headers]);
}

describe('MCP configuration: secrets expand only into env entries the user passes', () => {
  for (const field of Object.keys(fields) as Field[]) {
    for (const variable of Object.keys(written) as Variable[]) {
      for (const source of Object.keys(context) as Source[]) {
        const want = expected(field, variable, source);
        it(`${field} × ${variable} × ${source} → ${want}`, () => {
          const { servers, errors } = parseServerEntries({ srv: fields[field].entry(written[variable]) }, 'a source', context[source]);
          if (want === 'refused') {
            assert.equal(servers.length, 0, 'a refused server does not start');
            assert.equal(errors.length, 1);
            const message = formatConfigError(errors[0]!);
            assert.ok(message.includes('server "srv"'), message);
            assert.ok(message.includes(`refused "${fields[field].field}"`), message);
            assert.ok(message.includes('was not started'), message);
            assert.ok(!message.includes(KEY), 'the message never holds the value');
            return;
          }
          assert.deepEqual(errors, []);
          const server = servers[0]!;
          if (want === 'withheld') {
            assert.ok(server.kind === 'stdio');
            assert.equal(server.env.TOKEN, undefined, 'left out of the environment, as for commands');
            assert.match(server.withheldEnv?.TOKEN ?? '', /^"env\.TOKEN" left out: a workspace's MCP configuration may not pass/);
            assert.ok(!received(server).includes(KEY) && !received(server).includes(env.GITHUB_TOKEN));
            return;
          }
          const value = variable === 'plain variable' ? env.PLAIN : variable === 'secret name, unknown value' ? env.GITHUB_TOKEN : KEY;
          assert.ok(received(server).includes(value), `expanded: ${received(server)}`);
          const passed = server.kind === 'stdio' ? server.secretEnv : [];
          assert.deepEqual(passed, field === 'env' && variable !== 'plain variable' ? ['TOKEN'] : [], 'env entries allowed to carry a secret');
        });
      }
    }
  }

  it('without secret rules a secret-looking variable is still refused outside env (deny by default)', () => {
    const { servers, errors } = parseServerEntries({ s: { url: 'http://127.0.0.1:9/${env:OPENAI_API_KEY}' } }, 'x', { env });
    assert.equal(servers.length, 0);
    assert.match(errors[0]!.message, /refused "url"/);
  });

  it('loadMcpConfig: only the user setting may pass a secret by env; the same entry in workspace sources is withheld', async () => {
    const entry = { command: 'node', env: { OPENAI_API_KEY: '${env:OPENAI_API_KEY}' } };
    const files: Record<string, string> = {
      '/ws/.vscode/mcp.json': JSON.stringify({ servers: { fromFile: entry } }),
      '/ws/.stepwise/mcp.json': JSON.stringify({ mcpServers: { fromStepwise: entry } }),
    };
    const { servers, errors } = await loadMcpConfig({
      workspaceFolder: '/ws',
      settings: { mine: entry },
      workspaceSettings: { fromWorkspaceSettings: entry },
      readFile: async (path) => files[path],
      env,
      secrets: { isSecretValue },
    });
    assert.deepEqual(errors, []);
    const passed = Object.fromEntries(servers.map((s) => [s.name, s.kind === 'stdio' ? s.env.OPENAI_API_KEY : 'http']));
    assert.deepEqual(passed, { mine: KEY, fromWorkspaceSettings: undefined, fromFile: undefined, fromStepwise: undefined });
  });
});
