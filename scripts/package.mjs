// Builds the extension with esbuild and packages it with vsce into stepwise-<version>.vsix (dependencies are
// bundled, hence --no-dependencies), prints its size and checks its contents (scripts/checkVsix.mjs).
//   usage: npm run package            (STEPWISE_VSIX=path to choose the output file)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vsixProblems, zipEntries } from './checkVsix.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const out = path.resolve(process.env.STEPWISE_VSIX ?? path.join(root, `${pkg.name}-${pkg.version}.vsix`));

execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
// The README's relative links (docs/...) stay relative: the repository is not on GitHub for vsce to rewrite them.
// The manifest names no repository until it has a public home (a placeholder would link the marketplace page
// nowhere), so vsce is told that is intended instead of asking on stdin.
const args = ['package', '--no-dependencies', '--no-rewrite-relative-links', '--allow-missing-repository', '--out', out];
if (!existsSync(path.join(root, 'LICENSE')) && !existsSync(path.join(root, 'LICENSE.md'))) args.push('--skip-license');
execFileSync(process.execPath, [vsce, ...args], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });

const names = zipEntries(readFileSync(out));
const problems = vsixProblems(names);
const size = statSync(out).size;
console.log(`${path.relative(process.cwd(), out) || out}: ${(size / 1024 / 1024).toFixed(2)} MB (${size} bytes), ${names.length} files`);
if (problems.length) {
  console.error(`VSIX check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('VSIX check passed: no src/, test/, node_modules/ or .map files.');
