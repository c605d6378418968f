import { createInterface } from 'node:readline';
import type { SearchMatch, SearchResult } from '../../agent/ports';
import { CancelledError, InvalidPatternError, ToolError } from '../../agent/errors';
import { buildMatch, type SearchScope } from './searchCommon';
import { nodeChildEnvironment } from '../childEnv';

/** Inputs of one ripgrep search; the scope is already confined to the workspace. */
export interface RipgrepSearchInput {
  rgPath: string;
  root: string;
  scope: SearchScope;
  pattern: string;
  contextLines: number;
  maxMatches: number;
  /** Passed as `--ignore-file` (relative to the root) when present. */
  stepwiseIgnoreFile?: string;
  signal?: AbortSignal;
}

/** A file being read from rg's JSON stream: every line seen (matches and context) and its matches. */
interface FileState {
  path: string;
  lines: Map<number, string>;
  matchLines: number[];
}

/** ripgrep streams big files in bounded memory: it searches logs far past the JS engine's 2 MB. */
export const RG_MAX_FILESIZE = '256M';

/** Longest rg stderr kept for error messages. */
const MAX_STDERR_CHARS = 4000;

/**
 * Runs `rg --json` in the workspace with the settings that make it agree with the JS engine:
 * hidden files included, `.git` skipped, `.gitignore` honoured outside git repositories,
 * user-global ignore files and config not read, files in path order, 256 MB size cap. Reads until
 * one match past `maxMatches` (plus the context the last kept match needs), then stops rg.
 * Throws `InvalidPatternError` for a regex rg rejects, `CancelledError` on abort.
 */
export async function searchWithRipgrep(input: RipgrepSearchInput): Promise<SearchResult> {
  const { execa } = await import('execa');
  const args = [
    '--json', '--hidden', '--no-require-git', '--no-config', '--no-ignore-global', '--no-ignore-exclude',
    '--sort', 'path', '--max-filesize', RG_MAX_FILESIZE, '--context', String(input.contextLines),
  ];
  if (input.stepwiseIgnoreFile) args.push('--ignore-file', input.stepwiseIgnoreFile);
  if (input.scope.glob) args.push('--glob', input.scope.glob);
  args.push('--glob', '!.git', '--regexp', input.pattern, '--');
  if (input.scope.rel !== '') args.push(input.scope.rel);

  const child = execa(input.rgPath, args, {
    cwd: input.root,
    env: nodeChildEnvironment({ kind: 'tool' }),
    extendEnv: false,
    buffer: false,
    stdin: 'ignore',
    reject: false,
    stripFinalNewline: false,
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
  });
  const onAbort = () => child.kill();
  input.signal?.addEventListener('abort', onAbort, { once: true });

  const kept: SearchMatch[] = [];
  let total = 0;
  let sawOutput = false;
  let current: FileState | undefined;
  let stopAfterLine: number | undefined;
  const finish = (file: FileState | undefined) => {
    if (!file) return;
    for (const line of file.matchLines) {
      kept.push(buildMatch(file.path, line, input.contextLines, (n) => file.lines.get(n)));
    }
  };

  try {
    const reader = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    for await (const raw of reader) {
      const message = parseMessage(raw);
      if (!message) continue;
      sawOutput = true;
      if (message.type === 'begin') {
        current = { path: message.path, lines: new Map(), matchLines: [] };
        continue;
      }
      if (message.type === 'end') {
        finish(current);
        current = undefined;
        if (stopAfterLine !== undefined) break;
        continue;
      }
      if (!current) continue;
      if (stopAfterLine !== undefined && message.line > stopAfterLine) break;
      current.lines.set(message.line, message.text);
      if (message.type !== 'match') continue;
      total++;
      if (total <= input.maxMatches) {
        current.matchLines.push(message.line);
      } else if (stopAfterLine === undefined) {
        // One match too many: keep reading only for the after-context of the last kept match.
        const last = current.matchLines[current.matchLines.length - 1];
        stopAfterLine = last === undefined ? 0 : last + input.contextLines;
        if (message.line > stopAfterLine) break;
      }
    }
    finish(current);
    reader.close();
  } finally {
    child.kill();
    input.signal?.removeEventListener('abort', onAbort);
  }
  const result = await child;
  if (input.signal?.aborted) throw new CancelledError();
  if (result.exitCode === 2 && !sawOutput) throw rgError(stderr, input.pattern);
  return { matches: kept, truncated: total > input.maxMatches, engine: 'ripgrep' };
}

type RgMessage =
  | { type: 'begin'; path: string }
  | { type: 'end'; path: string }
  | { type: 'match'; path: string; line: number; text: string }
  | { type: 'context'; path: string; line: number; text: string };

interface RgData {
  path?: RgText;
  lines?: RgText;
  line_number?: number;
}
interface RgText {
  text?: string;
  bytes?: string;
}

function parseMessage(raw: string): RgMessage | undefined {
  let parsed: { type?: string; data?: RgData };
  try {
    parsed = JSON.parse(raw) as { type?: string; data?: RgData };
  } catch {
    return undefined;
  }
  const data = parsed.data;
  if (!data?.path) return undefined;
  const path = decodeText(data.path).replace(/^\.\//, '');
  if (parsed.type === 'begin') return { type: 'begin', path };
  if (parsed.type === 'end') return { type: 'end', path };
  if ((parsed.type === 'match' || parsed.type === 'context') && typeof data.line_number === 'number' && data.lines) {
    const type = parsed.type === 'match' ? 'match' : 'context';
    return { type, path, line: data.line_number, text: decodeText(data.lines) };
  }
  return undefined;
}

/** rg sends non-UTF-8 text as base64 `bytes`. */
function decodeText(value: RgText): string {
  if (typeof value.text === 'string') return value.text;
  return Buffer.from(value.bytes ?? '', 'base64').toString('utf8');
}

function rgError(stderr: string, pattern: string): Error {
  const message = stderr.trim();
  if (/regex parse error|error parsing regex|regex.*(too big|size limit)/i.test(message)) {
    return new InvalidPatternError(`Invalid regular expression ${JSON.stringify(pattern)} for ripgrep: ${message}`);
  }
  return new ToolError(`Search failed: ${message || 'ripgrep exited with status 2'}`);
}
