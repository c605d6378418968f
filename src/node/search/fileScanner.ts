import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { SearchMatch } from '../../agent/ports';
import type { RegexMeter } from './regexMeter';
import { BINARY_SNIFF_BYTES, buildMatch } from './searchCommon';

/** What to look for in each file, the same in the search's own thread and in its workers. */
export interface ScanPlan {
  /** Text every match contains: a file (and a line) without it is passed over before any regex runs. */
  required?: string;
  /** The regex; absent when `required` is the whole pattern (a plain text matched with `includes`). */
  regex?: { source: string; flags: string };
  contextLines: number;
  /** Matches kept per batch of files at most (one past the search's limit says "truncated"). */
  limit: number;
  /** Binary files (a NUL in the first 8 KB) are skipped; false for a file named as the search path. */
  skipBinary: boolean;
  /** Larger files are skipped and reported. */
  maxBytes: number;
}

/** What one file gave: nothing, its matches, why it was skipped, or `'regex'` (the regex must run on it, elsewhere). */
export type FileScan =
  | undefined
  | { matches: SearchMatch[] }
  | { skipped: 'binary' | 'size'; size: number }
  | 'regex';

/** Work done, counted for tests and the bench. */
export interface ScanWork {
  /** Files opened and read. */
  filesRead: number;
  /** Lines the regex was run on (lines without the required text are not). */
  regexLines: number;
}

/**
 * Reads and matches files with blocking calls (it runs in a worker, or on small batches in the
 * search's thread): one open, fstat, read and close per file into a reused buffer; the binary
 * sniff and the required text are checked on the bytes, so a file that cannot match is never
 * decoded or split into lines. Special files (a FIFO put in place of a file) are opened
 * non-blocking and passed over.
 */
export class FileScanner {
  readonly work: ScanWork = { filesRead: 0, regexLines: 0 };
  private buffer = Buffer.allocUnsafe(256 * 1024);
  private readonly needle: Buffer | undefined;
  private readonly regex: RegExp | undefined;

  /** @param meter times the regex (workers only); @param slot this worker's place in it */
  constructor(
    private readonly plan: ScanPlan,
    private readonly meter?: RegexMeter,
    private readonly slot = 0,
  ) {
    // U+FFFD may stand for bytes that are not valid UTF-8: such a text cannot be looked for in bytes.
    this.needle = plan.required && !plan.required.includes('\uFFFD') ? Buffer.from(plan.required) : undefined;
    this.regex = plan.regex ? new RegExp(plan.regex.source, plan.regex.flags.replace(/[gy]/g, '')) : undefined;
  }

  /** Scans `files` (absolute paths, `rels` their names in results) in order; stops once the plan's limit of matches is reached. */
  scanAll(files: readonly string[], rels: readonly string[], regexHere: boolean): FileScan[] {
    const out: FileScan[] = [];
    let found = 0;
    for (let i = 0; i < files.length && found < this.plan.limit; i++) {
      const scan = this.scan(files[i]!, rels[i]!, regexHere, this.plan.limit - found);
      if (scan !== undefined && scan !== 'regex' && 'matches' in scan) found += scan.matches.length;
      out.push(scan);
    }
    return out;
  }

  /** One file; with `regexHere` false a file that needs the regex comes back as `'regex'`. */
  scan(file: string, rel: string, regexHere: boolean, limit: number): FileScan {
    const bytes = this.read(file);
    if (bytes === undefined || 'skipped' in bytes) return bytes;
    if (this.plan.skipBinary && bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { skipped: 'binary', size: bytes.length };
    if (this.needle && bytes.indexOf(this.needle) < 0) return undefined;
    if (this.regex && !regexHere) return 'regex';
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text === '') return undefined;
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const hits = this.hits(lines, limit);
    if (hits.length === 0) return undefined;
    return { matches: hits.map((i) => buildMatch(rel, i + 1, this.plan.contextLines, (n) => lines[n - 1])) };
  }

  /** Indices of matching lines, at most `limit`; the regex runs only on lines holding the required text, timed by the meter. */
  private hits(lines: readonly string[], limit: number): number[] {
    const hits: number[] = [];
    const required = this.plan.required;
    const regex = this.regex;
    if (!regex) {
      for (let i = 0; i < lines.length && hits.length < limit; i++) if (lines[i]!.includes(required!)) hits.push(i);
      return hits;
    }
    this.meter?.start(this.slot);
    try {
      for (let i = 0; i < lines.length && hits.length < limit; i++) {
        const line = lines[i]!;
        if (required !== undefined && !line.includes(required)) continue;
        this.work.regexLines++;
        if (regex.test(line)) hits.push(i);
      }
    } finally {
      this.meter?.stop(this.slot);
    }
    return hits;
  }

  /** The file's bytes (a view of the reused buffer), a size skip, or `undefined` when unreadable or not a regular file. */
  private read(file: string): Buffer | { skipped: 'size'; size: number } | undefined {
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch {
      return undefined;
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) return undefined;
      if (info.size > this.plan.maxBytes) return { skipped: 'size', size: info.size };
      this.work.filesRead++;
      // One byte more than the size: a file that grew since is read up to the limit, as far as it fits.
      if (this.buffer.length < info.size + 1) this.buffer = Buffer.allocUnsafe(Math.min(this.plan.maxBytes + 1, Math.max(info.size + 1, this.buffer.length * 2)));
      let filled = 0;
      for (let n = -1; n !== 0 && filled < this.buffer.length; filled += n) n = readSync(fd, this.buffer, filled, this.buffer.length - filled, null);
      return this.buffer.subarray(0, Math.min(filled, this.plan.maxBytes));
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }
}
