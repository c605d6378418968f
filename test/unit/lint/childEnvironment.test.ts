import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

// The child-environment rule is only worth something if a new spawn site that bypasses the builder
// fails lint: lint fixture sources as if they lived in src/ and check the verdict.
const root = path.resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: root });
const RULE = 'stepwise/child-environment';

async function errors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, filePath) });
  assert.ok(result, 'eslint returned a result');
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const SITE = 'src/node/watchdogProcess.ts'; // a listed spawn site: it may load child_process
const NEW_FILE = 'src/node/__fixture__.ts'; // not listed

describe('lint: every child process gets its environment from childEnvironment', function () {
  this.timeout(60_000);

  const refused: Array<[string, string, string]> = [
    ['a new file loading child_process', NEW_FILE, "import { spawn } from 'node:child_process';\nexport const s = spawn;\n"],
    ['a new file loading execa dynamically', NEW_FILE, "export async function f() { return import('execa'); }\n"],
    ['a new file requiring child_process', 'src/mcp/__fixture__.ts', "export const cp = require('child_process');\n"],
    ['a new file re-exporting the MCP stdio transport', 'src/mcp/__fixture__.ts', "export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';\n"],
    ['a new file loading playwright-core values', 'src/node/web/__fixture__.ts', "export async function f() { return import('playwright-core'); }\n"],
    ['a site spawning without env (inherits everything)', SITE, "import { spawn } from 'node:child_process';\nexport const c = spawn('git', ['status'], { cwd: '/' });\n"],
    ['a site passing process.env', SITE, "import { spawn } from 'node:child_process';\nexport const c = spawn('git', [], { env: process.env });\n"],
    ['a site passing a hand-made env', SITE, "import { spawn } from 'node:child_process';\nexport const c = spawn('git', [], { env: { ...process.env, A: '1' } });\n"],
    ['execa without extendEnv: false', 'src/node/git/neutralGit.ts', "import { nodeChildEnvironment } from '../childEnv';\nexport async function f() { const { execa } = await import('execa'); return execa('git', [], { env: nodeChildEnvironment({ kind: 'git' }) }); }\n"],
    ['a stdio MCP transport without the builder', 'src/mcp/__fixture__.ts', "import { StdioClientTransport } from './mcpSdk';\nexport const t = new StdioClientTransport({ command: 'x', env: { A: '1' } });\n"],
    ['a browser launched without the builder', 'src/node/web/browser/playwrightBrowser.ts', "export async function f() { const { chromium } = await import('playwright-core'); return chromium.launch({ headless: true }); }\n"],
    ['exec (a shell string) even in a site', SITE, "import { exec } from 'node:child_process';\nexport const e = exec;\n"],
  ];
  for (const [name, file, source] of refused) {
    it(`refuses ${name}`, async () => assert.ok((await errors(file, source)).length >= 1, `${file}: ${source}`));
  }

  const allowed: Array<[string, string, string]> = [
    ['a site spawning with the builder', SITE, "import { spawn } from 'node:child_process';\nimport { nodeChildEnvironment } from './childEnv';\nexport const c = spawn('x', [], { env: nodeChildEnvironment({ kind: 'tool' }) });\n"],
    ['execa with the builder and extendEnv: false', 'src/node/git/neutralGit.ts', "import { nodeChildEnvironment } from '../childEnv';\nexport async function f() { const { execa } = await import('execa'); return execa('git', [], { env: nodeChildEnvironment({ kind: 'git' }), extendEnv: false }); }\n"],
    ['a wrapped builder call (MCP masking)', 'src/mcp/__fixture__.ts', "import { childEnvironment } from '../agent/secrets/childEnvironment';\nimport { StdioClientTransport } from './mcpSdk';\nconst m = (e: Record<string, string>) => e;\nexport const t = new StdioClientTransport({ command: 'x', env: m(childEnvironment({ kind: 'server', parent: {} })) });\n"],
    ['a type-only import anywhere', NEW_FILE, "import type { ChildProcess } from 'node:child_process';\nexport type C = ChildProcess;\n"],
  ];
  for (const [name, file, source] of allowed) {
    it(`allows ${name}`, async () => assert.deepEqual(await errors(file, source), []));
  }

  it('every listed spawn site exists and really loads a process module (the list cannot rot)', async () => {
    const { SPAWN_SITES } = (await import(path.join(root, 'eslint.config.mjs'))) as { SPAWN_SITES: string[] };
    const { PROCESS_MODULES } = (await import(path.join(root, 'scripts/lint/childEnvironment.mjs'))) as { PROCESS_MODULES: string[] };
    assert.ok(SPAWN_SITES.length >= 7);
    for (const site of SPAWN_SITES) {
      assert.ok(existsSync(path.join(root, site)), site);
      const text = readFileSync(path.join(root, site), 'utf8');
      assert.ok(PROCESS_MODULES.some((m) => text.includes(`'${m}'`)), `${site} loads no process module: remove it from SPAWN_SITES`);
      // mcpSdk.ts only re-exports the stdio transport; the rule checks its `new` in mcpConnect.ts.
      const reExportOnly = /^export \{ StdioClientTransport \} from '@modelcontextprotocol\/sdk\/client\/stdio\.js';$/m.test(text);
      if (!reExportOnly) assert.match(text, /childEnvironment|nodeChildEnvironment/, `${site} must build env with the builder`);
    }
  });

  it('the spawn sites and the MCP connector pass the rule (`npm run lint` checks the whole tree)', async () => {
    const { SPAWN_SITES } = (await import(path.join(root, 'eslint.config.mjs'))) as { SPAWN_SITES: string[] };
    const results = await eslint.lintFiles([...SPAWN_SITES, 'src/mcp/mcpConnect.ts']);
    assert.deepEqual(results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}: ${m.message}`)), []);
  });
});
