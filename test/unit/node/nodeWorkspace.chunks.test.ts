import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CancelledError, FileNotFoundError, ToolError } from '../../../src/agent/errors';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { makeTempDir } from './support';

// NodeWorkspace.readChunks: the line index's whole-file scan. Chunks in order from the offset to
// the end through one handle, the same refusals as readFile, and no handle left open however the
// reader stops (counted in this process's open descriptors).

const openDescriptors = () => readdirSync('/proc/self/fd').length;

async function collect(chunks: AsyncIterable<{ bytes: Uint8Array; size: number }>): Promise<{ text: Buffer; count: number; sizes: Set<number> }> {
  const parts: Buffer[] = [];
  const sizes = new Set<number>();
  for await (const chunk of chunks) {
    // Copied: a chunk's buffer takes its turn again two chunks later.
    parts.push(Buffer.from(chunk.bytes));
    sizes.add(chunk.size);
  }
  return { text: Buffer.concat(parts), count: parts.length, sizes };
}

describe('NodeWorkspace.readChunks', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let ws: NodeWorkspace;
  const MB = 1024 * 1024;
  // 10.5 MB: three 4 MB reads, the last one short; bytes vary so a reused buffer would show.
  const content = Buffer.from(Array.from({ length: Math.floor(10.5 * MB) }, (_, i) => (i * 31 + (i >> 12)) % 251));

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir('stepwise-chunks-'));
    writeFileSync(path.join(root, 'big.bin'), content);
    mkdirSync(path.join(root, 'folder'));
    ws = new NodeWorkspace(root);
  });
  afterEach(() => cleanup());

  const cases: Array<[string, number, number]> = [
    ['from the start', 0, 3],
    ['from the middle of a read', 5 * MB + 17, 2],
    ['from the last byte', content.length - 1, 1],
    ['from the end', content.length, 0],
    ['past the end', content.length + 10, 0],
  ];
  for (const [name, offset, reads] of cases) {
    it(`${name}: the bytes from the offset on, in ${reads} read(s), and the handle closed`, async () => {
      const before = openDescriptors();
      const { text, count, sizes } = await collect(ws.readChunks('big.bin', offset));
      assert.ok(text.equals(content.subarray(offset)), 'the chunks are the file from the offset');
      assert.equal(count, reads);
      if (count > 0) assert.deepEqual([...sizes], [content.length]);
      assert.equal(openDescriptors(), before);
    });
  }

  it('a reader that stops early leaves no handle open', async () => {
    const before = openDescriptors();
    for await (const chunk of ws.readChunks('big.bin', 0)) {
      assert.equal(chunk.bytes.length, 4 * MB);
      break;
    }
    assert.equal(openDescriptors(), before);
  });

  it('an aborted signal stops the chunks with CancelledError and closes the handle', async () => {
    const before = openDescriptors();
    const controller = new AbortController();
    let seen = 0;
    await assert.rejects(async () => {
      for await (const chunk of ws.readChunks('big.bin', 0, controller.signal)) {
        seen += chunk.bytes.length;
        controller.abort();
      }
    }, CancelledError);
    assert.equal(seen, 4 * MB);
    assert.equal(openDescriptors(), before);
  });

  it('refuses a missing file, a folder and a FIFO before reading (the FIFO without waiting for a writer)', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const before = openDescriptors();
    await assert.rejects(collect(ws.readChunks('missing.txt', 0)), FileNotFoundError);
    await assert.rejects(collect(ws.readChunks('folder', 0)), (error: unknown) => error instanceof ToolError && /folder/.test(error.message));
    await assert.rejects(collect(ws.readChunks('pipe', 0)), (error: unknown) => error instanceof ToolError && /FIFO|not a regular file/.test(error.message));
    assert.equal(openDescriptors(), before);
  });
});
