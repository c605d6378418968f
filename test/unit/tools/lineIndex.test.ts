import assert from 'node:assert/strict';
import { mkdtemp, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { o200kCounter } from '../../../src/agent/context/tokenCounter';
import { CancelledError } from '../../../src/agent/errors';
import type { FileRange, Workspace } from '../../../src/agent/ports';
import { silentLogger } from '../../../src/agent/ports';
import { builtinTools } from '../../../src/agent/tools/builtins/index';
import { keptLineIndex, lineIndexFor, lineScansSettled } from '../../../src/agent/tools/builtins/lineIndex';
import type { ToolContext } from '../../../src/agent/tools/tool';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';

// The line index of big files (lineIndex.ts): built by one background scan, reused by every later
// window, dropped when the file changes. Counted in bytes read from the real file through a real
// NodeWorkspace, never in time.

/** A real NodeWorkspace that counts the bytes it reads and can hold the background scan back. */
class CountingWorkspace implements Workspace {
  readonly base: NodeWorkspace;
  bytesRead = 0;
  /** Called after each chunk the scan is given, with how many so far. */
  onChunk: ((count: number) => void) | undefined;
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  constructor(root: string) {
    this.base = new NodeWorkspace(root);
  }
  get root(): string {
    return this.base.root;
  }
  /** Holds every `readChunks` (the scan) before its first chunk until `release`. */
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open?.();
    this.gate = undefined;
  }
  resolve(p: string) {
    return this.base.resolve(p);
  }
  stat(p: string) {
    return this.base.stat(p);
  }
  readFile(p: string, signal?: AbortSignal) {
    return this.base.readFile(p, signal);
  }
  async readRange(p: string, range: { offset: number; length: number }, signal?: AbortSignal): Promise<FileRange> {
    const r = await this.base.readRange(p, range, signal);
    this.bytesRead += r.bytes.length;
    return r;
  }
  async *readChunks(p: string, offset: number, signal?: AbortSignal): AsyncIterable<FileRange> {
    await this.gate;
    let count = 0;
    for await (const chunk of this.base.readChunks(p, offset, signal)) {
      this.bytesRead += chunk.bytes.length;
      yield chunk;
      this.onChunk?.(++count);
    }
  }
  writeFile(p: string, content: string, signal?: AbortSignal) {
    return this.base.writeFile(p, content, signal);
  }
  listFiles(p: string, options: { recursive: boolean; limit: number; signal?: AbortSignal }) {
    return this.base.listFiles(p, options);
  }
  searchFiles(...args: Parameters<Workspace['searchFiles']>) {
    return this.base.searchFiles(...args);
  }
}

const MB = 1024 * 1024;
const registry = new ToolRegistry(builtinTools());
const context = (workspace: Workspace): ToolContext => ({
  workspace, commands: { sandboxMode: () => 'off', run: () => Promise.reject(new Error('no commands')) }, logger: silentLogger,
  signal: new AbortController().signal, callId: 'c', asker: { ask: async () => undefined },
  requestApproval: async () => ({ approved: true }), emit: () => undefined,
  resultTokens: { max: 6_000, counter: o200kCounter },
});

/** Lines of varied length (some empty, some long), about `bytes` in all. */
function makeLines(bytes: number, tag: string): string[] {
  const lines: string[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const line = n % 97 === 0 ? '' : `${tag}${n} ${'x'.repeat((n * 7919) % (n % 1013 === 0 ? 1_900 : 90))}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines;
}

/** The window's lines as the file has them (gutter stripped), and the footer. */
async function window(workspace: Workspace, name: string, start: number): Promise<{ lines: string[]; footer: string }> {
  const result = await registry.execute('read_file', { path: name, start_line: start }, context(workspace));
  assert.equal(result.isError, undefined, result.content);
  const out = result.content.split('\n');
  return { lines: out.filter((l) => /^\d*\t/.test(l)).map((l) => l.slice(l.indexOf('\t') + 1)), footer: out.at(-1)! };
}

describe('read_file line index of big files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stepwise-lineindex-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a deep window without an index reads the file once (the scan serves it); with the index it reads only near the line', async () => {
    const lines = makeLines(12 * MB, 'a');
    const text = lines.join('\n') + '\n';
    await writeFile(path.join(dir, 'big.txt'), text);
    const deep = Math.floor(lines.length * 0.9);
    const deepOffset = Buffer.byteLength(lines.slice(0, deep - 1).join('\n')) + 1;

    const fresh = new CountingWorkspace(dir);
    const first = await window(fresh, 'big.txt', deep);
    assert.deepEqual(first.lines, lines.slice(deep - 1, deep - 1 + first.lines.length));
    assert.ok(fresh.bytesRead >= deepOffset, 'without an index the bytes before the line are read');
    await lineScansSettled(fresh);
    // One scan for the window and the index together, not one each.
    assert.ok(fresh.bytesRead <= text.length + 1 * MB, `${fresh.bytesRead} bytes read for a ${text.length}-byte file`);
    assert.equal(keptLineIndex(fresh, 'big.txt')?.totalLines, lines.length);

    for (const at of [0.31, 0.55, 0.77, 0.999]) {
      const start = Math.floor(lines.length * at);
      const before = fresh.bytesRead;
      const w = await window(fresh, 'big.txt', start);
      assert.deepEqual(w.lines, lines.slice(start - 1, start - 1 + w.lines.length), `window at line ${start}`);
      assert.match(w.footer, new RegExp(` of ${lines.length}\\b`));
      // The head sniff, a forward read from the nearest point (at most 256 KB apart) and the window.
      assert.ok(fresh.bytesRead - before <= 8192 + 2 * 256 * 1024, `${fresh.bytesRead - before} bytes read for the window at line ${start}`);
    }
  });

  it('the index is built off the call\'s path: the first window returns while the scan is held back', async () => {
    const lines = makeLines(10 * MB, 'b');
    await writeFile(path.join(dir, 'big.txt'), lines.join('\n') + '\n');
    const workspace = new CountingWorkspace(dir);
    workspace.hold();
    const top = await window(workspace, 'big.txt', 1);
    assert.deepEqual(top.lines, lines.slice(0, top.lines.length));
    assert.match(top.footer, /of a 10\.0 MB file \(lines not counted\)/);
    assert.ok(workspace.bytesRead <= 8192 + 256 * 1024, `${workspace.bytesRead} bytes read by the first window`);
    assert.equal(keptLineIndex(workspace, 'big.txt')?.totalLines, undefined);
    workspace.release();
    await lineScansSettled(workspace);
    assert.equal(keptLineIndex(workspace, 'big.txt')?.totalLines, lines.length);
    const next = await window(workspace, 'big.txt', top.lines.length + 1);
    assert.match(next.footer, new RegExp(`^\\[Lines ${top.lines.length + 1}-\\d+ of ${lines.length}\\.`));
  });

  it('a call cancelled while it waits for the scan stops it; the next call goes on from where it stopped, scanning each byte once', async () => {
    const lines = makeLines(20 * MB, 'f');
    const text = lines.join('\n') + '\n';
    await writeFile(path.join(dir, 'big.txt'), text);
    const workspace = new CountingWorkspace(dir);
    const controller = new AbortController();
    workspace.onChunk = (count) => count === 2 && controller.abort();
    const deep = lines.length - 10;
    await assert.rejects(registry.execute('read_file', { path: 'big.txt', start_line: deep }, { ...context(workspace), signal: controller.signal }), CancelledError);
    await lineScansSettled(workspace);
    const index = keptLineIndex(workspace, 'big.txt')!;
    assert.ok(!index.dropped && index.totalLines === undefined, 'a cancelled scan keeps what it found');
    assert.ok(index.scannedTo > 0 && index.scannedTo < text.length, `stopped at ${index.scannedTo}`);
    workspace.onChunk = undefined;
    const w = await window(workspace, 'big.txt', deep);
    assert.deepEqual(w.lines, lines.slice(deep - 1));
    await lineScansSettled(workspace);
    assert.equal(index.totalLines, lines.length);
    assert.equal(index.bytesScanned, text.length, 'every byte scanned once over the two scans');
  });

  const changes: Array<[string, (file: string, replacement: string) => Promise<void>]> = [
    ['rewritten in place, same size, new time', async (file, replacement) => {
      const { mtime } = await stat(file);
      await writeFile(file, replacement);
      await utimes(file, mtime, new Date(mtime.getTime() + 5_000));
    }],
    ['replaced by another file of the same size and time (only the inode differs)', async (file, replacement) => {
      // Whole seconds, so both files carry exactly the same time (as `cp -p` or `rsync -t` leave it).
      const { mtime } = await stat(file);
      const second = new Date(Math.floor(mtime.getTime() / 1000) * 1000);
      await writeFile(`${file}.new`, replacement);
      await utimes(`${file}.new`, second, second);
      await rename(`${file}.new`, file);
    }],
  ];
  for (const [name, change] of changes) {
    it(`a file ${name}: the index is dropped and the window shows the new text`, async () => {
      const old = makeLines(9 * MB, 'c');
      const file = path.join(dir, 'big.txt');
      await writeFile(file, old.join('\n') + '\n');
      const { mtime } = await stat(file);
      const second = new Date(Math.floor(mtime.getTime() / 1000) * 1000);
      await utimes(file, second, second);
      const workspace = new CountingWorkspace(dir);
      await window(workspace, 'big.txt', 1);
      await lineScansSettled(workspace);
      const built = keptLineIndex(workspace, 'big.txt')!;
      assert.equal(built.totalLines, old.length);
      // Same length per line, other text: the old offsets would still land on line starts.
      const replacement = old.map((l) => l.replace(/^c/, 'd'));
      await change(file, replacement.join('\n') + '\n');
      const deep = Math.floor(old.length * 0.8);
      const before = workspace.bytesRead;
      const w = await window(workspace, 'big.txt', deep);
      assert.deepEqual(w.lines, replacement.slice(deep - 1, deep - 1 + w.lines.length));
      assert.ok(built.dropped, 'the old index is dropped');
      assert.notEqual(keptLineIndex(workspace, 'big.txt'), built);
      // The new version is scanned again from the top.
      assert.ok(workspace.bytesRead - before >= Buffer.byteLength(replacement.slice(0, deep - 1).join('\n')), 'scanned again');
    });
  }

  it('an index over its point budget thins itself: at most the budget kept, strides doubled, every window still right and read from near its line', async () => {
    const lines = makeLines(9 * MB, 'g');
    await writeFile(path.join(dir, 'big.txt'), lines.join('\n') + '\n');
    const workspace = new CountingWorkspace(dir);
    const info = statSync(path.join(dir, 'big.txt'));
    // Small limits on the kept index of this version; read_file then goes through it.
    const index = lineIndexFor(workspace, 'big.txt', { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino }, 0, { lineStride: 10, byteStride: 4096, maxPoints: 64 });
    await window(workspace, 'big.txt', 1);
    await lineScansSettled(workspace);
    assert.equal(keptLineIndex(workspace, 'big.txt'), index);
    assert.equal(index.totalLines, lines.length);
    assert.ok(index.lines.length <= 64 && index.lines.length >= 32, `${index.lines.length} points`);
    assert.ok(index.lineStride > 10 && index.lineStride === index.byteStride * 10 / 4096, `strides ${index.lineStride}, ${index.byteStride}`);
    for (let k = 1; k < index.lines.length; k++) {
      const gap = index.lines[k]! - index.lines[k - 1]!;
      const bytes = index.offsets[k]! - index.offsets[k - 1]!;
      // A point is set at the first line start a stride past the last; thinning joins such gaps.
      assert.ok(gap <= index.lineStride && bytes <= 2 * index.byteStride, `points ${k - 1}-${k}: ${gap} lines, ${bytes} bytes`);
      assert.equal(index.offsets[k], Buffer.byteLength(lines.slice(0, index.lines[k]! - 1).join('\n')) + 1, `point ${k} is where its line starts`);
    }
    for (const at of [0.2, 0.5, 0.93]) {
      const start = Math.floor(lines.length * at);
      const before = workspace.bytesRead;
      const w = await window(workspace, 'big.txt', start);
      assert.deepEqual(w.lines, lines.slice(start - 1, start - 1 + w.lines.length), `window at ${start}`);
      assert.ok(workspace.bytesRead - before <= 8192 + 256 * 1024 + Math.ceil((2 * index.byteStride) / (256 * 1024)) * 256 * 1024, `${workspace.bytesRead - before} bytes for the window at ${start}`);
    }
  });

  it('every window of a big CRLF file with a byte-order mark matches the split file, during and after the scan', async () => {
    const lines = makeLines(9 * MB, 'e');
    await writeFile(path.join(dir, 'crlf.txt'), '\ufeff' + lines.join('\r\n'));
    const workspace = new CountingWorkspace(dir);
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let probe = 0; probe < 12; probe++) {
      if (probe === 6) await lineScansSettled(workspace);
      const start = probe === 0 ? 1 : 1 + Math.floor(random() * lines.length);
      const w = await window(workspace, 'crlf.txt', start);
      assert.deepEqual(w.lines, lines.slice(start - 1, start - 1 + w.lines.length).map((l) => l.slice(0, 2_000)), `window at ${start}`);
    }
    const past = await registry.execute('read_file', { path: 'crlf.txt', start_line: lines.length + 1 }, context(workspace));
    assert.equal(past.content, `start_line ${lines.length + 1} is past the end of crlf.txt, which has ${lines.length} lines.`);
  });
});
