import { open, opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SearchMatch, SearchResult } from '../../agent/ports';
import { throwIfAborted } from '../../agent/errors';
import type { IgnoreRules } from '../ignoreRules';
import {
  BINARY_SNIFF_BYTES,
  MAX_SEARCH_FILE_BYTES,
  buildMatch,
  type SearchScope,
} from './searchCommon';

/** Inputs of one JS search; the scope is already confined to the workspace. */
export interface JsSearchInput {
  root: string;
  scope: SearchScope;
  regex: RegExp;
  contextLines: number;
  maxMatches: number;
  rules: IgnoreRules;
  signal?: AbortSignal;
}

/**
 * Searches like `rg --sort path` without ripgrep: files in tree order (names sorted per folder),
 * ignore rules and glob overrides as rg applies them, symlinks not followed, files over 2 MB and
 * binary files (a NUL in the first 8 KB) skipped. Stops after one match past `maxMatches`.
 * Regex classes differ on non-ASCII text: JavaScript's `\w`, `\d`, `\b` are ASCII, rg's Unicode.
 */
export async function searchWithJs(input: JsSearchInput): Promise<SearchResult> {
  const matches: SearchMatch[] = [];
  let truncated = false;
  for await (const rel of candidateFiles(input)) {
    throwIfAborted(input.signal);
    const lines = await readTextLines(path.join(input.root, rel), !input.scope.isFile);
    if (!lines) continue;
    for (let i = 0; i < lines.length; i++) {
      if (!input.regex.test(lines[i]!)) continue;
      if (matches.length === input.maxMatches) {
        truncated = true;
        break;
      }
      matches.push(buildMatch(rel, i + 1, input.contextLines, (n) => lines[n - 1]));
    }
    if (truncated) break;
  }
  return { matches, truncated, engine: 'js' };
}

async function* candidateFiles(input: JsSearchInput): AsyncGenerator<string> {
  if (input.scope.isFile) {
    yield input.scope.rel;
    return;
  }
  yield* walk(input, input.scope.rel);
}

async function* walk(input: JsSearchInput, folderRel: string): AsyncGenerator<string> {
  throwIfAborted(input.signal);
  const entries: { name: string; isDir: boolean }[] = [];
  let dir;
  try {
    dir = await opendir(path.join(input.root, folderRel));
  } catch {
    return; // unreadable folder: rg reports it on stderr and goes on
  }
  for await (const entry of dir) {
    // rg does not follow symlinks unless asked, and neither do we.
    if (entry.isDirectory()) entries.push({ name: entry.name, isDir: true });
    else if (entry.isFile()) entries.push({ name: entry.name, isDir: false });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const rel = folderRel === '' ? entry.name : `${folderRel}/${entry.name}`;
    if (!(await isSelected(input, rel, entry.isDir))) continue;
    if (entry.isDir) yield* walk(input, rel);
    else yield rel;
  }
}

async function isSelected(input: JsSearchInput, rel: string, isDir: boolean): Promise<boolean> {
  if (rel.split('/').includes('.git')) return false;
  const verdict = input.scope.compiledGlob?.verdict(rel, isDir);
  if (verdict === 'exclude') return false;
  if (verdict !== 'include' && (await input.rules.isIgnored(rel, isDir))) return false;
  if (isDir) return true;
  try {
    return (await stat(path.join(input.root, rel))).size <= MAX_SEARCH_FILE_BYTES;
  } catch {
    return false;
  }
}

/** The file's lines without terminators, or `undefined` for a binary file (when `skipBinary`). */
async function readTextLines(file: string, skipBinary: boolean): Promise<string[] | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const bytes = await handle.readFile();
    if (skipBinary && bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text === '') return [];
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  } finally {
    await handle.close();
  }
}
