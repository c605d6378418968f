import assert from 'node:assert/strict';
import { parseServerEntries } from '../../../src/mcp/mcpConfig';
import { describeServer, formatServerInputs, MASK, serverInputs } from '../../../src/mcp/serverInputs';

const KEY = 'sk-user-own-key-0123456789abcdef';
const env = { MY_API_KEY: KEY, HOST: 'api.example.test' };

/** Parses one entry of the user's own configuration (the only one that may pass a secret by env). */
function server(entry: Record<string, unknown>, workspace = false) {
  const { servers, errors } = parseServerEntries({ s: entry }, 'settings', { env, userSource: !workspace, workspaceFolder: '/ws' });
  assert.deepEqual(errors, []);
  return servers[0]!;
}

describe('what an MCP server receives, as the trust prompt shows it', () => {
  const rows: Array<{ name: string; entry: Record<string, unknown>; lines: string[]; workspace?: boolean }> = [
    {
      name: 'env from a variable is shown by its reference, never its value; literals as written; cwd',
      entry: { command: 'node', args: ['s.js'], env: { TOKEN: '${env:MY_API_KEY}', LEVEL: 3 }, cwd: '${workspaceFolder}/srv' },
      lines: ['env TOKEN from ${env:MY_API_KEY}', 'env LEVEL = "3"', 'working folder /ws/srv'],
    },
    {
      name: 'a secret-looking env literal is masked',
      entry: { command: 'node', env: { DB_PASSWORD: 'hunter2hunter2' } },
      lines: [`env DB_PASSWORD = "${MASK}"`],
    },
    {
      name: 'headers: plain ones as written, credential literals masked, references as written',
      entry: { url: 'https://${env:HOST}/mcp', headers: { 'X-Trace': 'on', Authorization: 'Bearer literal-token-value', 'X-Region': '${env:HOST}' } },
      lines: ['header X-Trace: on', `header Authorization: ${MASK}`, 'header X-Region: ${env:HOST}'],
    },
    { name: 'auto-approved tools are part of what the user trusts', entry: { command: 'node', autoApprove: ['echo', 'get-sum'] }, lines: ['calls without asking: echo, get-sum'] },
    { name: 'autoApprove: true', entry: { command: 'node', autoApprove: true }, lines: ['calls every tool without asking'] },
    {
      name: 'an env entry a workspace may not pass is shown as withheld',
      entry: { command: 'node', env: { TOKEN: '${env:MY_API_KEY}' } },
      lines: ['env TOKEN from ${env:MY_API_KEY} is withheld (a secret)'],
      workspace: true,
    },
    { name: 'nothing else', entry: { command: 'node', args: ['a b'] }, lines: [] },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const config = server(row.entry, row.workspace);
      const lines = formatServerInputs(serverInputs(config));
      assert.deepEqual(lines, row.lines);
      assert.ok(!lines.join('\n').includes(KEY), 'the expanded key is never shown');
    });
  }

  it('describes the command line quoted, or the expanded URL', () => {
    assert.equal(describeServer(server({ command: 'node', args: ['a b', "it's"] })), `node 'a b' 'it'\\''s'`);
    assert.equal(describeServer(server({ url: 'https://${env:HOST}/mcp' })), 'https://api.example.test/mcp');
  });
});
