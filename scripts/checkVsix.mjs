// Checks a packaged VSIX: it must hold the bundle, the webview, the manifest and its translations, and nothing
// from the sources: no src/, test/, node_modules/ or source maps. Exits 1 with the offending entries otherwise.
//   usage: node scripts/checkVsix.mjs stepwise-0.1.0.vsix
import { readFileSync } from 'node:fs';

/** File names in a zip archive, read from its central directory (no dependency needed). */
export function zipEntries(buffer) {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = buffer.length - 22; i >= Math.max(0, buffer.length - 22 - 0xffff); i--) {
    if (buffer.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = buffer.readUInt16LE(eocd + 10);
  let offset = buffer.readUInt32LE(eocd + 16);
  const names = [];
  for (let n = 0; n < count; n++) {
    if (buffer.readUInt32LE(offset) !== 0x02014b50) throw new Error(`bad central directory entry at ${offset}`);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    names.push(buffer.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

const REQUIRED = [
  'extension/package.json',
  'extension/dist/extension.js',
  'extension/dist/tree-sitter.wasm',
  'extension/dist/tree-sitter-bash.wasm',
  // The lazily loaded bundles, each required on first use (see LAZY in scripts/build.mjs).
  'extension/dist/tokenizer.js',
  'extension/dist/web.js',
  // The HTML conversion's worker thread, started from beside the bundle (src/node/web/boundedHtml.ts).
  'extension/dist/html-worker.js',
  'extension/dist/search-worker.js',
  'extension/dist/openai.js',
  'extension/dist/anthropic.js',
  'extension/dist/mcp-sdk.js',
  'extension/dist/shell-parser.js',
  'extension/dist/execa.js',
  'extension/webview-ui/dist/main.js',
  'extension/package.nls.json',
  'extension/package.nls.zh-cn.json',
  'extension/l10n/bundle.l10n.zh-cn.json',
  'extension/media/stepwise-activity.svg',
  // The browser tool's playwright-core, copied beside the bundle (it cannot be bundled).
  'extension/dist/node_modules/playwright-core/index.js',
];
const FORBIDDEN = [/^extension\/src\//, /^extension\/test\//, /^extension\/node_modules\//, /\.map$/, /^extension\/\.vscode-test\//, /^extension\/out\//];

/** Problems found in the entry list (empty when the VSIX is fine). */
export function vsixProblems(names) {
  const problems = [];
  for (const required of REQUIRED) if (!names.includes(required)) problems.push(`missing ${required}`);
  for (const name of names) if (FORBIDDEN.some((pattern) => pattern.test(name))) problems.push(`must not ship ${name}`);
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node scripts/checkVsix.mjs <file.vsix>');
    process.exit(2);
  }
  const names = zipEntries(readFileSync(file));
  const problems = vsixProblems(names);
  if (problems.length) {
    console.error(`VSIX check failed for ${file}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`VSIX check passed: ${names.length} files, no sources, tests or source maps.`);
}
