// Bundles the extension (CJS, vscode external), the CLI and the webview UI with esbuild.
import { build } from 'esbuild';
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

const watch = process.argv.includes('--watch');
// jsonc-parser's `main` is a UMD build whose inner requires esbuild cannot follow: bundle its ESM build.
const alias = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };
// ESM dependencies (web-tree-sitter's loader) read `import.meta.url`, which a CJS bundle lacks: give it the bundle's own URL.
const importMetaUrl = "var __importMetaUrl = require('url').pathToFileURL(__filename).href;";
const common = {
  bundle: true, sourcemap: true, logLevel: 'warning', target: 'node20', platform: 'node', format: 'cjs', alias, keepNames: true,
  define: { 'import.meta.url': '__importMetaUrl' }, banner: { js: importMetaUrl },
};

// playwright-core (the browser tool) cannot be bundled (it reads its own files at run time) and is
// needed only when a task opens a browser: the bundles require it, and a copy without its trace
// viewer and typings sits in dist/node_modules, where Node finds it from dist/*.js.
const playwrightExternal = {
  name: 'playwright-external',
  setup(b) {
    b.onResolve({ filter: /^playwright-core$/ }, () => ({ path: 'playwright-core', external: true }));
  },
};
common.plugins = [playwrightExternal];
const playwrightSource = 'node_modules/playwright-core';
if (existsSync(playwrightSource)) {
  rmSync('dist/node_modules/playwright-core', { recursive: true, force: true });
  cpSync(playwrightSource, 'dist/node_modules/playwright-core', {
    recursive: true,
    filter: (src) => !/[\\/]playwright-core[\\/](types|lib[\\/]vite)([\\/]|$)/.test(src),
  });
}

// The command policy's shell parser (web-tree-sitter + tree-sitter-bash) loads two WebAssembly files
// at run time; they ship beside the bundles (src/node/shellWasm.ts looks there first).
mkdirSync('dist', { recursive: true });
for (const wasm of ['web-tree-sitter/tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  copyFileSync(require.resolve(wasm), `dist/${wasm.split('/').pop()}`);
}
// zod re-exports all of its ~50 message locales (a quarter megabyte the webview would parse on every
// load); the webview and the extension need English messages only, for their logs.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) => {
      if (!args.importer.includes(`${sep}zod${sep}`)) return undefined;
      return { path: resolve(dirname(args.importer), args.path.replace(/index\.js$/, 'en.js')), namespace: 'zod-locales' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: dirname(args.path), loader: 'js',
    }));
  },
};
// Libraries a closed sidebar never needs live in bundles of their own beside dist/extension.js: one
// loader requires each on first use (never at activation), and the bundles keep that require as a
// require of the file beside them. `from` limits a relative specifier to the folder that loads it.
const LAZY = [
  // The o200k tokenizer tables (two thirds of the bundle once): tokenCounter.ts, on the first count.
  { specifier: 'gpt-tokenizer/encoding/o200k_base', file: 'tokenizer.js', entry: require.resolve('gpt-tokenizer/encoding/o200k_base') },
  // Page parsers and charset tables (linkedom, Readability, turndown, iconv-lite; half of the rest):
  // loadWebParsers.ts, on the first page fetch.
  { specifier: './webParsers', from: 'src/node/web', file: 'web.js', entry: 'src/node/web/webParsers.ts' },
  // The openai SDK: loadOpenAI.ts, on the first model call.
  { specifier: 'openai', file: 'openai.js', entry: require.resolve('openai') },
  // The Anthropic SDK: loadAnthropic.ts, on the first call to a Claude model over the Anthropic API.
  { specifier: '@anthropic-ai/sdk', file: 'anthropic.js', entry: require.resolve('@anthropic-ai/sdk') },
  // The shell parser's runtime: shellSyntax.ts, when the first command is checked.
  { specifier: 'web-tree-sitter', file: 'shell-parser.js', entry: fileURLToPath(import.meta.resolve('web-tree-sitter')) },
  // execa: the command runner, git and ripgrep adapters (`await import('execa')`), on the first process they start.
  { specifier: 'execa', file: 'execa.js', entry: fileURLToPath(import.meta.resolve('execa')) },
  // The MCP SDK with its ajv (a fifth of the rest): src/mcp, whose hub McpHost requires once a server is configured.
  { specifier: './mcpSdk', from: 'src/mcp', file: 'mcp-sdk.js', entry: 'src/mcp/mcpSdk.ts' },
  // The MCP server side and the ACP SDK: src/cli/servers/loadServerSdks.ts, when `stepwise mcp | acp` starts.
  { specifier: './serverSdks', from: 'src/cli/servers', file: 'server-sdks.js', entry: 'src/cli/servers/serverSdks.ts' },
  // The CLI's task commands (the agent, tools, models) and the servers that run tasks: cliEntry.ts,
  // for every command but `history` and `--help`.
  { specifier: './taskCommand', from: 'src/cli', file: 'cli-run.js', entry: 'src/cli/taskCommand.ts' },
];
const lazyBundles = {
  name: 'lazy-bundles',
  setup(b) {
    for (const lazy of LAZY) {
      const filter = new RegExp(`^${lazy.specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
      b.onResolve({ filter }, (args) =>
        !lazy.from || args.resolveDir === resolve(lazy.from) ? { path: `./${lazy.file}`, external: true } : undefined);
    }
  },
};
// The MCP SDK and ajv-formats each install their own ajv 8: bundle the SDK's copy once.
const sdkDir = dirname(require.resolve('@modelcontextprotocol/sdk/package.json'));
const oneAjv = {
  name: 'one-ajv',
  setup(b) {
    b.onResolve({ filter: /^ajv(\/.*)?$/ }, (args) => ({ path: require.resolve(args.path, { paths: [sdkDir] }) }));
  },
};
const nodePlugins = () => [playwrightExternal, lazyBundles, oneAjv, zodEnglishOnly];

const jobs = [];
// Each entry point is built only when it exists, so one half-written part does not block the others.
// The small CLI bundle keeps the event schema (zod: most of its size, and most of its start) in a
// bundle of its own: `history list` never loads it; a history search loads it once a stored run
// holds the words (src/node/historyStore.ts requires it lazily). The other bundles inline it.
const cliEventSchema = {
  name: 'cli-event-schema',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/shared\/events$/ }, (args) =>
      args.importer.endsWith(`${sep}historyStore.ts`) ? { path: './cli-events.js', external: true } : undefined);
  },
};
if (existsSync('src/cli/main.ts')) {
  jobs.push(build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', minify: true, banner: { js: `#!/usr/bin/env node\n${importMetaUrl}` }, plugins: [cliEventSchema, ...nodePlugins()] }));
  jobs.push(build({ ...common, entryPoints: ['src/shared/events.ts'], outfile: 'dist/cli-events.js', minify: true, sourcemap: false, plugins: nodePlugins() }));
}
for (const lazy of LAZY) {
  jobs.push(build({ ...common, entryPoints: [lazy.entry], outfile: `dist/${lazy.file}`, minify: true, sourcemap: false, plugins: nodePlugins() }));
}
// The HTML conversion's worker thread (src/node/web/boundedHtml.ts starts it from beside the bundle
// that loads it): Readability, linkedom and Turndown under the worker's own time and memory limits.
jobs.push(build({ ...common, entryPoints: ['src/node/web/htmlWorker.ts'], outfile: 'dist/html-worker.js', minify: true, sourcemap: false, plugins: nodePlugins() }));
// The JS search's worker threads (src/node/search/searchPool.ts starts them from beside the bundle
// that loads it): read and match batches of files when `rg` is not on PATH.
jobs.push(build({ ...common, entryPoints: ['src/node/search/searchWorker.ts'], outfile: 'dist/search-worker.js', minify: true, sourcemap: false, plugins: nodePlugins() }));
if (existsSync('src/extension.ts')) {
  // `--metafile` writes what each package adds to the bundle (see `npm run bench`'s start-up figures).
  const metafile = process.argv.includes('--metafile');
  const extension = build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], minify: true, keepNames: true, metafile, plugins: nodePlugins() });
  if (metafile) void extension.then((r) => writeFileSync('dist/extension.meta.json', JSON.stringify(r.metafile)));
  jobs.push(extension);
}
if (existsSync('webview-ui/src/main.ts')) {
  // One bundle for both webviews (sidebar and panel pick their view from <body data-view>); marked,
  // DOMPurify and zod are bundled in: a webview loads nothing from outside its own folder.
  jobs.push(build({ bundle: true, sourcemap: true, minify: !process.argv.includes('--dev'), logLevel: 'warning',
    entryPoints: ['webview-ui/src/main.ts'], outfile: 'webview-ui/dist/main.js', platform: 'browser', format: 'iife', target: 'es2022',
    legalComments: 'linked', plugins: [zodEnglishOnly] }));
}
// Promise.allSettled: report every failing bundle, not only the first.
const results = await Promise.allSettled(jobs);
const failed = results.filter((r) => r.status === 'rejected');
for (const f of failed) console.error(f.reason?.message ?? f.reason);
if (failed.length > 0) process.exit(1);
if (watch) console.log('watch mode is not supported; rerun npm run build');
