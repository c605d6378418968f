import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatConfigError, loadMcpConfig, nodeConfigReader, type ConfigFileReader } from '../../../src/mcp';
import { parseMcpConfigText } from '../../../src/mcp/mcpConfig';

const WS = '/home/dev/project';
const env = { BEARER: 's3cret', API_HOST: 'api.example.test', HOME: '/home/dev' };

/** Files of a fake workspace; a reader that throws for paths listed in `unreadable`. */
function reader(files: Record<string, string>, unreadable: string[] = []): ConfigFileReader {
  return async (path) => {
    if (unreadable.includes(path)) throw new Error('EACCES: permission denied');
    return files[path];
  };
}

describe('MCP configuration', () => {
  it('loads all three sources: the setting, .vscode/mcp.json (with comments, inputs) and .stepwise/mcp.json', async () => {
    const vscode = `{
      // VS Code format
      "inputs": [{ "type": "promptString", "id": "key", "description": "API key" }],
      "servers": {
        "remote": { "type": "http", "url": "https://\${env:API_HOST}/mcp", "headers": { "Authorization": "Bearer \${env:BEARER}" }, },
        "legacy": { "type": "sse", "url": "http://127.0.0.1:3001/sse" },
      },
    }`;
    const stepwise = JSON.stringify({
      mcpServers: {
        files: { command: 'node', args: ['server.js', '${workspaceFolder}/data'], env: { KEY: '${env:BEARER}', LEVEL: 3, DROP: null }, cwd: '${workspaceFolder}' },
      },
    });
    const { servers, errors } = await loadMcpConfig({
      workspaceFolder: WS,
      settings: { memory: { command: 'npx', args: ['-y', 'server-memory'], autoApprove: ['read_graph'], timeout: 30 } },
      readFile: reader({ [`${WS}/.vscode/mcp.json`]: vscode, [`${WS}/.stepwise/mcp.json`]: stepwise }),
      env,
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(servers, [
      {
        name: 'memory',
        source: 'settings (stepwise.mcpServers)',
        enabled: true,
        autoApprove: ['read_graph'],
        timeoutMs: 30_000,
        kind: 'stdio',
        command: 'npx',
        args: ['-y', 'server-memory'],
        env: {},
        envFrom: {},
        secretEnv: [],
      },
      {
        name: 'remote',
        source: '.vscode/mcp.json',
        enabled: true,
        autoApprove: [],
        kind: 'http',
        url: 'https://api.example.test/mcp',
        headers: { Authorization: 'Bearer s3cret' },
        headersFrom: { Authorization: 'Bearer ${env:BEARER}' },
        transport: 'auto',
      },
      { name: 'legacy', source: '.vscode/mcp.json', enabled: true, autoApprove: [], kind: 'http', url: 'http://127.0.0.1:3001/sse', headers: {}, headersFrom: {}, transport: 'sse' },
      {
        name: 'files',
        source: '.stepwise/mcp.json',
        enabled: true,
        autoApprove: [],
        kind: 'stdio',
        command: 'node',
        args: ['server.js', `${WS}/data`],
        env: { KEY: 's3cret', LEVEL: '3' },
        cwd: WS,
        envFrom: { KEY: '${env:BEARER}', LEVEL: '3' },
        secretEnv: [],
      },
    ]);
  });

  it('reports a broken entry with its file and name and still loads the others', async () => {
    const text = `{"servers": {
      "x": { "args": ["a"] },
      "ok": { "command": "node" },
      "bad-url": { "url": "not a url" },
      "ftp": { "url": "ftp://host/x" },
      "both": { "command": "node", "url": "http://h/" },
      "typed": { "type": "stdio" },
      "wrong": { "command": 42 },
      "no-env": { "command": "node", "env": { "K": "\${env:MISSING_VAR}" } },
      "input": { "command": "node", "args": ["\${input:key}"] },
      "approve": { "command": "node", "autoApprove": "all" }
    }}`;
    const { servers, errors } = await loadMcpConfig({ workspaceFolder: WS, readFile: reader({ [`${WS}/.vscode/mcp.json`]: text }), env });
    assert.deepEqual(servers.map((s) => s.name), ['ok']);
    assert.deepEqual(errors.map(formatConfigError), [
      '.vscode/mcp.json: server "x": "command" or "url" is required',
      '.vscode/mcp.json: server "bad-url": "url" is not a valid URL: not a url',
      '.vscode/mcp.json: server "ftp": "url" must use http or https: ftp://host/x',
      '.vscode/mcp.json: server "both": give either "command" (stdio) or "url" (HTTP), not both',
      '.vscode/mcp.json: server "typed": "command" is required for a stdio server',
      '.vscode/mcp.json: server "wrong": "command": Invalid input: expected string, received number',
      '.vscode/mcp.json: server "no-env": environment variable "MISSING_VAR" is not set (used in "env.K")',
      '.vscode/mcp.json: server "input": "${input:key}" refers to a VS Code input, which Stepwise does not prompt for; use ${env:VAR} instead (in "args[0]")',
      '.vscode/mcp.json: server "approve": "autoApprove": Invalid input',
    ]);
  });

  it('reports a file that is not valid JSON, or not a config, and keeps the other sources', async () => {
    const { servers, errors } = await loadMcpConfig({
      workspaceFolder: WS,
      settings: { fromSettings: { command: 'node' } },
      readFile: reader({ [`${WS}/.vscode/mcp.json`]: '{ "servers": { "a": { "command": "node" } ', [`${WS}/.stepwise/mcp.json`]: '[1, 2]' }),
      env,
    });
    assert.deepEqual(servers.map((s) => s.name), ['fromSettings']);
    assert.equal(errors.length, 2);
    assert.match(formatConfigError(errors[0]!), /^\.vscode\/mcp\.json: invalid JSON: .+/);
    assert.equal(formatConfigError(errors[1]!), '.stepwise/mcp.json: expected a JSON object with a "servers" or "mcpServers" object');
  });

  it('reports an unreadable file and a setting of the wrong shape', async () => {
    const { errors } = await loadMcpConfig({
      workspaceFolder: WS,
      settings: ['not', 'a', 'map'],
      readFile: reader({}, [`${WS}/.stepwise/mcp.json`]),
      env,
    });
    assert.deepEqual(errors.map(formatConfigError), [
      'settings (stepwise.mcpServers): expected an object mapping server names to server entries',
      '.stepwise/mcp.json: cannot read: EACCES: permission denied',
    ]);
  });

  it('lets .stepwise/mcp.json override .vscode/mcp.json, which overrides the setting, by server name', async () => {
    const { servers } = await loadMcpConfig({
      workspaceFolder: WS,
      settings: { shared: { command: 'from-settings' } },
      readFile: reader({
        [`${WS}/.vscode/mcp.json`]: '{"servers": {"shared": {"command": "from-vscode"}}}',
        [`${WS}/.stepwise/mcp.json`]: '{"mcpServers": {"shared": {"command": "from-stepwise"}}}',
      }),
      env,
    });
    assert.deepEqual(servers.map((s) => [s.name, s.kind === 'stdio' ? s.command : '', s.source]), [['shared', 'from-stepwise', '.stepwise/mcp.json']]);
  });

  it('reads enabled/disabled flags and autoApprove: true', () => {
    const { servers } = parseMcpConfigText(
      '{"mcpServers": {"a": {"command": "n", "disabled": true}, "b": {"command": "n", "enabled": false}, "c": {"command": "n", "autoApprove": true, "transport": "sse"}}}',
      'test',
      { env },
    );
    assert.deepEqual(servers.map((s) => [s.name, s.enabled, s.autoApprove]), [
      ['a', false, []],
      ['b', false, []],
      ['c', true, true],
    ]);
  });

  it('needs a workspace folder for ${workspaceFolder} and skips workspace files without one', async () => {
    const { servers, errors } = await loadMcpConfig({
      settings: { a: { command: 'node', args: ['${workspaceFolder}/x'] }, b: { url: 'http://localhost:1/${userHome}' } },
      readFile: async () => assert.fail('no workspace file may be read'),
      env,
      userHome: '/home/dev',
    });
    assert.deepEqual(servers.map((s) => (s.kind === 'http' ? s.url : '')), ['http://localhost:1//home/dev']);
    assert.deepEqual(errors.map(formatConfigError), [
      'settings (stepwise.mcpServers): server "a": ${workspaceFolder} has no value here: no workspace folder is open (used in "args[0]")',
    ]);
  });

  it('reads real files through nodeConfigReader; a missing file is not an error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stepwise-mcp-config-'));
    try {
      await mkdir(join(dir, '.vscode'));
      await writeFile(join(dir, '.vscode/mcp.json'), '{"servers": {"disk": {"command": "node", "args": ["${workspaceFolder}"]}}}');
      const { servers, errors } = await loadMcpConfig({ workspaceFolder: dir, readFile: nodeConfigReader, env });
      assert.deepEqual(errors, []);
      assert.deepEqual(servers.map((s) => (s.kind === 'stdio' ? s.args : [])), [[dir]]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
