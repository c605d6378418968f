// Lint enforces the layers of docs/architecture.md: a crossed layer is an error, not advice.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layerImportsRule } from './scripts/lint/layerImports.mjs';
import { childEnvironmentRule } from './scripts/lint/childEnvironment.mjs';

// ---------------------------------------------------------------------------------------------
// What each layer may import: an ALLOW-list. To let a layer use a new package, add its name here
// (a package allows its subpaths, e.g. 'openai' allows 'openai/resources/...'). `builtins` are
// Node built-ins (write them with `node:`; the bare form is treated the same); 'ALL' allows every one.
// `layers` are the source folders it may import from (its own always included).
// ---------------------------------------------------------------------------------------------
const NODE_SIDE = ['ALL'];
export const LAYERS = {
  shared: { folder: 'src/shared', layers: [], packages: ['zod'], builtins: [] },
  agent: { folder: 'src/agent', layers: ['shared'], packages: ['zod', 'openai', '@anthropic-ai/sdk', 'gpt-tokenizer', 'jsonrepair', 'web-tree-sitter', 'yaml'], builtins: [] },
  // The web adapters: HTTP pages to markdown (readability, linkedom, turndown), charsets, the browser.
  node: { folder: 'src/node', layers: ['shared', 'agent'], packages: ['zod', 'execa', 'ignore', '@mozilla/readability', 'linkedom', 'turndown',
    'turndown-plugin-gfm', 'iconv-lite', 'playwright-core'], builtins: NODE_SIDE },
  // MCP over HTTP sends through the egress client (src/node/web/egress*.ts).
  mcp: { folder: 'src/mcp', layers: ['shared', 'agent', 'node'], packages: ['zod', '@modelcontextprotocol/sdk', 'jsonc-parser'], builtins: NODE_SIDE },
  // Model set-up (presets, model lists, connection test): host code both hosts use, so the CLI may import it too.
  hostSetup: { folder: 'src/host/common/setup', layers: ['shared', 'agent', 'node', 'mcp'], packages: ['zod'], builtins: NODE_SIDE },
  hostCommon: { folder: 'src/host/common', layers: ['shared', 'agent', 'node', 'mcp', 'hostSetup'], packages: ['zod'], builtins: NODE_SIDE },
  hostVscode: { folder: 'src/host/vscode', layers: ['shared', 'agent', 'node', 'mcp', 'hostCommon', 'hostSetup'], packages: ['zod', 'vscode'], builtins: NODE_SIDE },
  extension: { folder: 'src/extension.ts', layers: ['shared', 'agent', 'node', 'mcp', 'hostCommon', 'hostSetup', 'hostVscode'], packages: ['vscode'], builtins: NODE_SIDE },
  cli: { folder: 'src/cli', layers: ['shared', 'agent', 'node', 'mcp', 'hostSetup', 'cliServers'], packages: ['zod'], builtins: NODE_SIDE },
  // The server shells (`stepwise mcp | serve | acp`): thin protocol adapters that run each task through the CLI's runCli.
  cliServers: { folder: 'src/cli/servers', layers: ['shared', 'agent', 'node', 'mcp', 'hostSetup', 'cli'], packages: ['zod', '@modelcontextprotocol/sdk', '@agentclientprotocol/sdk'], builtins: NODE_SIDE },
  webview: { folder: 'webview-ui/src', layers: ['shared'], packages: ['marked', 'dompurify'], builtins: [] },
};

// Size limits of docs/architecture.md. A justified exception is marked inline with
// `// eslint-disable-next-line max-lines-per-function -- <reason>` (or `max-params`, `max-lines`).
const SIZE_RULES = {
  'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
  'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
  'max-params': ['error', 5],
};

// The only files that may load a module that starts processes; each builds `env` with the one
// builder (src/agent/secrets/childEnvironment.ts). scripts/lint/childEnvironment.mjs checks both.
export const SPAWN_SITES = [
  'src/node/groupSpawn.ts', // run_command, verify checks (through the CommandRunner port), the python_execute session
  'src/node/git/neutralGit.ts', // git on the user's repository (@changes)
  'src/node/checkpoints/gitRunner.ts', // git on the checkpoint store
  'src/node/search/ripgrepSearch.ts', // ripgrep
  'src/node/watchdogProcess.ts', // the watchdogs that end commands if we die (watchdog.ts, windowsWatchdog.ts)
  'src/node/shell/pickShell.ts', // the PowerShell probe before PowerShell is picked
  'src/node/shell/windowsProcesses.ts', // wmic / CIM process list and taskkill (Windows process trees)
  'src/node/web/browser/playwrightBrowser.ts', // the browser
  'src/mcp/mcpSdk.ts', // re-exports the SDK's stdio transport, started in src/mcp/mcpConnect.ts
  'src/node/sandbox/bwrapProbe.ts', // the one-time check that bubblewrap can build a sandbox here
];

const stepwisePlugin = { rules: { 'layer-imports': layerImportsRule, 'child-environment': childEnvironmentRule } };
// A folder inside another layer's folder (src/host/common/setup) matches both globs: its own config comes
// last (longer folders later) so its rule options win, as the rule itself picks the longest folder.
const layerConfigs = Object.entries(LAYERS).sort(([, a], [, b]) => a.folder.length - b.folder.length).map(([name, layer]) => ({
  files: [layer.folder.endsWith('.ts') ? layer.folder : `${layer.folder}/**/*.ts`],
  ...(name === 'webview' ? { languageOptions: { globals: { ...globals.browser } } } : {}),
  plugins: { stepwise: stepwisePlugin },
  rules: { 'stepwise/layer-imports': ['error', { layer: name, layers: LAYERS }], ...SIZE_RULES },
}));

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'webview-ui/dist/**', 'node_modules/**', '.vscode-test/**', 'test-artifacts/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  ...layerConfigs,
  {
    files: ['src/**/*.ts'],
    plugins: { stepwise: stepwisePlugin },
    rules: { 'stepwise/child-environment': ['error', { sites: SPAWN_SITES }] },
  },
);
