// Bundles the extension (CJS, vscode external), the CLI and the webview UI with esbuild.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: true, logLevel: 'warning', target: 'node20', platform: 'node', format: 'cjs' };

const jobs = [
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
];
if (existsSync('src/extension.ts')) {
  jobs.push(build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }));
}
if (existsSync('webview-ui/src/main.ts')) {
  jobs.push(build({ bundle: true, sourcemap: true, logLevel: 'warning', entryPoints: ['webview-ui/src/main.ts'],
    outfile: 'webview-ui/dist/main.js', platform: 'browser', format: 'iife', target: 'es2022' }));
}
await Promise.all(jobs);
if (watch) console.log('watch mode is not supported; rerun npm run build');
