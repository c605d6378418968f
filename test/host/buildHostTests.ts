// Bundles the in-host mocha suite (test/host/suite) to CommonJS under out/ with esbuild; `vscode` and `mocha` stay
// external (the extension host provides the first, node_modules the second).
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './codeServer';

/** Folder of the compiled suite; its index.js is the `extensionTestsPath`. */
export const HOST_TESTS_OUT = path.join(REPO_ROOT, 'out', 'test', 'host', 'suite');

/** Compiles test/host/suite/index.ts and every *.test.ts beside it; returns the path of index.js. */
export async function buildHostTests(): Promise<string> {
  const suiteDir = path.join(REPO_ROOT, 'test', 'host', 'suite');
  const entries = readdirSync(suiteDir)
    .filter((name) => name === 'index.ts' || name.endsWith('.test.ts'))
    .map((name) => path.join(suiteDir, name));
  // A test deleted from the sources must not keep running from a stale bundle.
  rmSync(HOST_TESTS_OUT, { recursive: true, force: true });
  await build({
    entryPoints: entries,
    outdir: HOST_TESTS_OUT,
    outbase: suiteDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    // As in scripts/build.mjs: jsonc-parser's `main` is a UMD build esbuild cannot follow; bundle its ESM build.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    logLevel: 'warning',
  });
  return path.join(HOST_TESTS_OUT, 'index.js');
}
