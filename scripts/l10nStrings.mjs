// Collects the strings passed to vscode.l10n.t in the extension sources and writes l10n/bundle.l10n.json (the
// English bundle: key = message). With --check it writes nothing and fails when a string has no Simplified
// Chinese translation in l10n/bundle.l10n.zh-cn.json, or that bundle keeps a string no longer used.
//   usage: node scripts/l10nStrings.mjs [--check]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CALL = /l10n\.t\(\s*(['"])((?:\\.|(?!\1)[^\\])*)\1/g;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every message passed to `vscode.l10n.t` under src/host and in src/extension.ts, sorted. */
export function collectMessages() {
  const files = [...sourceFiles(path.join(root, 'src', 'host')), path.join(root, 'src', 'extension.ts')];
  const messages = new Set();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(CALL)) messages.add(JSON.parse(`"${match[2].replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"')}"`));
  }
  return [...messages].sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const messages = collectMessages();
  const zhFile = path.join(root, 'l10n', 'bundle.l10n.zh-cn.json');
  const zh = JSON.parse(readFileSync(zhFile, 'utf8'));
  const missing = messages.filter((m) => typeof zh[m] !== 'string' || !zh[m].trim());
  const unused = Object.keys(zh).filter((k) => !messages.includes(k));
  if (process.argv.includes('--check')) {
    if (missing.length || unused.length) {
      if (missing.length) console.error(`no zh-cn translation for:\n  ${missing.join('\n  ')}`);
      if (unused.length) console.error(`zh-cn bundle has unused strings:\n  ${unused.join('\n  ')}`);
      process.exit(1);
    }
    console.log(`l10n: ${messages.length} strings, all translated to zh-cn.`);
  } else {
    writeFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), JSON.stringify(Object.fromEntries(messages.map((m) => [m, m])), null, 2) + '\n');
    console.log(`wrote l10n/bundle.l10n.json (${messages.length} strings); missing zh-cn: ${missing.length}`);
    for (const m of missing) console.log(`  ${JSON.stringify(m)}`);
  }
}
