import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { o200kCounter } from '../src/agent/context/tokenCounter';
import { silentLogger } from '../src/agent/ports';
import { builtinTools } from '../src/agent/tools/builtins';
import { READ_FILE_MAX_LINES } from '../src/agent/tools/builtins/readFile';
import { numberLines } from '../src/agent/tools/edit/lineGutter';
import type { ToolContext } from '../src/agent/tools/tool';
import { ToolRegistry } from '../src/agent/tools/toolRegistry';
import { ExecaCommandRunner } from '../src/node/execaCommandRunner';
import { NodeWorkspace } from '../src/node/nodeWorkspace';

const root = path.resolve(__dirname, '..');

/**
 * Real files of several kinds: this repository's own sources and docs, and packages it installs.
 * A file that is missing (another install) is left out and named.
 */
const CORPUS: Array<[kind: string, file: string]> = [
  ['TypeScript', 'src/agent/tools/builtins/readFile.ts'],
  ['TypeScript', 'src/agent/tools/edit/applyEdits.ts'],
  ['TypeScript', 'webview-ui/src/reducer.ts'],
  ['TypeScript', 'node_modules/@types/node/fs.d.ts'],
  ['JavaScript', 'node_modules/commander/lib/command.js'],
  ['JavaScript', 'node_modules/cross-spawn/lib/parse.js'],
  ['JavaScript', 'node_modules/diff/lib/index.js'],
  ['JSON', 'package.json'],
  ['JSON', 'tsconfig.json'],
  ['JSON', 'node_modules/acorn/package.json'],
  ['Markdown', 'README.md'],
  ['Markdown', 'docs/architecture.md'],
  ['Markdown', 'node_modules/commander/Readme.md'],
  ['Python', 'node_modules/flatted/python/flatted.py'],
  ['Go', 'node_modules/flatted/golang/pkg/flatted/flatted.go'],
  ['C', 'node_modules/web-tree-sitter/lib/lexer.c'],
  ['CSS', 'node_modules/mocha/mocha.css'],
  ['Shell', 'scripts/vscode-host.sh'],
];

/** A way of numbering lines; `unambiguous` when every line's number can be read off it alone. */
interface Format {
  name: string;
  unambiguous: boolean;
  render(lines: readonly string[], first: number): string;
}

const padded = (sep: string): Format['render'] => (lines, first) => {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width)}${sep}${l}`).join('\n');
};
const plain = (sep: string): Format['render'] => (lines, first) => lines.map((l, i) => `${first + i}${sep}${l}`).join('\n');
const everyN = (n: number): Format['render'] => (lines, first) => lines.map((l, i) => ((first + i) % n === 0 || i === 0 ? `${first + i}\t${l}` : `\t${l}`)).join('\n');

/** The old gutter first, then the candidates; the numberless text is the floor. */
export const READ_FORMATS: Format[] = [
  { name: "'  12| ' (old)", unambiguous: true, render: padded('| ') },
  { name: "'12| '", unambiguous: true, render: plain('| ') },
  { name: "'12|'", unambiguous: true, render: plain('|') },
  { name: "'12:'", unambiguous: true, render: plain(':') },
  // The separator is indistinguishable from a line's own indentation.
  { name: "'12 '", unambiguous: false, render: plain(' ') },
  { name: "'12\\t' every line", unambiguous: true, render: plain('\t') },
  // A blank line's number is then only implied by its neighbours'.
  { name: "'12\\t', blank lines bare", unambiguous: false, render: (lines, first) => lines.map((l, i) => (l.trim() === '' && i > 0 ? l : `${first + i}\t${l}`)).join('\n') },
  // Every line keeps its tab column, so the text always starts after the first tab.
  { name: "'10\\t' every 5th, '\\t' (new)", unambiguous: true, render: (lines, first) => numberLines(lines, first) },
  { name: "'10\\t' every 10th, '\\t'", unambiguous: true, render: everyN(10) },
  { name: 'no numbers', unambiguous: false, render: (lines) => lines.join('\n') },
];

/** Tokens per read for one format over the corpus, and its overhead over the numberless text. */
export interface FormatFigures {
  name: string;
  unambiguous: boolean;
  tokensPerRead: number;
  overheadPct: number;
}

export interface ReadFormatFigures {
  files: Array<{ kind: string; file: string; lines: number; old: number; now: number }>;
  missing: string[];
  formats: FormatFigures[];
  /** Tokens of the real read_file results, old gutter vs the tool as it is, summed over the corpus. */
  oldTotal: number;
  newTotal: number;
}

/** The first read_file window of a file: its first 500 lines, CR dropped. */
function firstWindow(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(0, READ_FILE_MAX_LINES).map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * o200k tokens per read of each line-number format on the same first windows of the corpus, and
 * the real `read_file` tool's results on copies of those files (a footer and a cap included):
 * the old padded gutter rendered over the same lines it showed vs what the tool returns now.
 */
export async function benchReadFormat(): Promise<ReadFormatFigures> {
  const present = CORPUS.filter(([, file]) => existsSync(path.join(root, file)));
  const missing = CORPUS.filter(([, file]) => !existsSync(path.join(root, file))).map(([, file]) => file);
  const windows = present.map(([kind, file]) => ({ kind, file, lines: firstWindow(readFileSync(path.join(root, file), 'utf8')) }));
  const count = (text: string) => o200kCounter.count(text);
  const floor = windows.reduce((sum, w) => sum + count(w.lines.join('\n')), 0);
  const figures = (name: string, unambiguous: boolean, total: number) => ({ name, unambiguous, tokensPerRead: total / windows.length, overheadPct: (100 * (total - floor)) / floor });
  const formats = READ_FORMATS.map((format) => figures(format.name, format.unambiguous, windows.reduce((sum, w) => sum + count(format.render(w.lines, 1)), 0)));
  // No per-line number can cost less than one token a line: the best any unambiguous format could do.
  formats.push(figures('one token a line (floor of numbering every line)', true, floor + windows.reduce((sum, w) => sum + w.lines.length, 0)));

  const dir = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-readfmt-'));
  try {
    const registry = new ToolRegistry(builtinTools());
    const context: ToolContext = {
      workspace: new NodeWorkspace(dir), commands: new ExecaCommandRunner(), logger: silentLogger,
      signal: new AbortController().signal, callId: 'bench', asker: { ask: async () => undefined },
      requestApproval: async () => ({ approved: true }), emit: () => {},
      resultTokens: { max: 6_000, counter: o200kCounter },
    };
    const files: ReadFormatFigures['files'] = [];
    for (const [i, w] of windows.entries()) {
      const name = `f${i}${path.extname(w.file)}`;
      await writeFile(path.join(dir, name), readFileSync(path.join(root, w.file)));
      const result = await registry.execute('read_file', { path: name }, context);
      if (result.isError) throw new Error(result.content);
      // The old gutter over exactly the lines the tool showed (long lines cut as it cut them).
      const out = result.content.split('\n');
      const shown = out.findIndex((line) => !/^\d*\t/.test(line));
      const body = out.slice(0, shown < 0 ? out.length : shown).map((line) => line.slice(line.indexOf('\t') + 1));
      const old = [READ_FORMATS[0]!.render(body, 1), ...out.slice(body.length)].join('\n');
      files.push({ kind: w.kind, file: w.file, lines: body.length, old: count(old), now: count(result.content) });
    }
    const oldTotal = files.reduce((sum, f) => sum + f.old, 0);
    const newTotal = files.reduce((sum, f) => sum + f.now, 0);
    return { files, missing, formats, oldTotal, newTotal };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Prints the comparison for `npm run bench`; the target is the issue's: the new read at least 12% cheaper. */
export async function printReadFormat(): Promise<void> {
  const r = await benchReadFormat();
  const kinds = [...new Set(r.files.map((f) => f.kind))];
  console.log(`\n# read_file line numbers (o200k tokens per read; the first window of ${r.files.length} real files: ${kinds.join(', ')})`);
  if (r.missing.length > 0) console.log(`(not installed here, left out: ${r.missing.join(', ')})`);
  console.log('format, over the same lines              tokens/read   cost of the numbers');
  for (const f of r.formats) {
    console.log(`${f.name.padEnd(28)}${f.unambiguous ? '             ' : ' (ambiguous) '}${f.tokensPerRead.toFixed(0).padStart(6)}        +${f.overheadPct.toFixed(1)}%`);
  }
  console.log('the real read_file (the new gutter) vs the old gutter over the lines it showed, footer included:');
  console.log('kind        files  old/read  new/read  new/old');
  const row = (label: string, files: ReadFormatFigures['files']) => {
    const old = files.reduce((sum, f) => sum + f.old, 0);
    const now = files.reduce((sum, f) => sum + f.now, 0);
    return `${label.padEnd(12)}${String(files.length).padStart(5)}  ${(old / files.length).toFixed(0).padStart(8)}  ${(now / files.length).toFixed(0).padStart(8)}  ${(now / old).toFixed(3)}`;
  };
  for (const kind of kinds) console.log(row(kind, r.files.filter((f) => f.kind === kind)));
  const ratio = r.newTotal / r.oldTotal;
  console.log(`${row('all', r.files)} (${((1 - ratio) * 100).toFixed(1)}% cheaper)   target >= 12% cheaper: ${ratio <= 0.88 ? 'OK' : 'OVER TARGET'}`);
}
