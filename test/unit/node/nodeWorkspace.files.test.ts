import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CancelledError, FileNotFoundError, ToolError } from '../../../src/agent/errors';
import { atomicWrite } from '../../../src/node/atomicWrite';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { makeTempDir } from './support';

/**
 * Makes a folder refuse new entries, or a file refuse writes. chmod does not stop root, so as
 * root the path is made immutable instead; either way the precondition is checked, so the test
 * cannot pass vacuously. Returns the undo.
 */
function makeReadOnly(target: string): () => void {
  const asRoot = process.getuid?.() === 0;
  const isDir = statSync(target).isDirectory();
  const mode = statSync(target).mode & 0o7777;
  if (asRoot) execFileSync('chattr', ['+i', target]);
  else chmodSync(target, isDir ? 0o555 : 0o444);
  assert.throws(() => writeFileSync(isDir ? path.join(target, 'probe') : target, 'x'), 'the path should refuse writes');
  return () => {
    if (asRoot) execFileSync('chattr', ['-i', target]);
    else chmodSync(target, mode);
  };
}

const leftovers = (dir: string) => readdirSync(dir).filter((name) => name.includes('stepwise-tmp'));

describe('NodeWorkspace files', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let ws: NodeWorkspace;

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir('stepwise-files-'));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    ws = new NodeWorkspace(root);
  });
  afterEach(() => cleanup());

  it('reads bytes and stats files and folders', async () => {
    assert.equal(Buffer.from(await ws.readFile('src/a.ts')).toString(), 'export const a = 1;\n');
    const file = await ws.stat('src/a.ts');
    assert.equal(file?.kind, 'file');
    assert.equal(file?.size, 20);
    assert.equal((await ws.stat('src'))?.kind, 'dir');
    assert.equal(await ws.stat('nope.txt'), undefined);
    assert.equal(await ws.stat('src/a.ts/below'), undefined);
  });

  it('reports a missing file with FileNotFoundError that points to list_files', async () => {
    await assert.rejects(() => ws.readFile('src/missing.ts'), (error: unknown) => {
      assert.ok(error instanceof FileNotFoundError);
      assert.match(error.message, /src\/missing\.ts/);
      assert.match(error.message, /list_files/);
      return true;
    });
  });

  it('reports reading a folder as a ToolError, not a missing file', async () => {
    await assert.rejects(() => ws.readFile('src'), (error: unknown) => {
      assert.ok(error instanceof ToolError && !(error instanceof FileNotFoundError));
      assert.match(error.message, /folder/);
      return true;
    });
  });

  it('writes new files, creating the folders they need', async () => {
    await ws.writeFile('deep/er/new.md', '# hi\n');
    assert.equal(readFileSync(path.join(root, 'deep', 'er', 'new.md'), 'utf8'), '# hi\n');
    assert.deepEqual(leftovers(path.join(root, 'deep', 'er')), []);
  });

  it('replaces a file and keeps its mode', async () => {
    const script = path.join(root, 'run.sh');
    writeFileSync(script, '#!/bin/sh\necho old\n');
    // Group-writable: a umask of 022 would drop that bit from a freshly created file.
    chmodSync(script, 0o775);
    const umask = process.umask(0o022);
    try {
      await ws.writeFile('run.sh', '#!/bin/sh\necho new\n');
    } finally {
      process.umask(umask);
    }
    assert.equal(readFileSync(script, 'utf8'), '#!/bin/sh\necho new\n');
    assert.equal(statSync(script).mode & 0o7777, 0o775);
    assert.deepEqual(leftovers(root), []);
  });

  it('refuses to write over a folder', async () => {
    await assert.rejects(() => ws.writeFile('src', 'x'), ToolError);
    assert.ok(statSync(path.join(root, 'src')).isDirectory());
  });

  it('keeps the old content when the folder is read-only', async () => {
    const restore = makeReadOnly(path.join(root, 'src'));
    try {
      await assert.rejects(() => ws.writeFile('src/a.ts', 'export const a = 2;\n'), (error: unknown) => {
        assert.ok(error instanceof ToolError);
        assert.match(error.message, /Could not write "src\/a\.ts"/);
        return true;
      });
    } finally {
      restore();
    }
    assert.equal(readFileSync(path.join(root, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n');
    assert.deepEqual(readdirSync(path.join(root, 'src')), ['a.ts']);
  });

  it('does not replace a file the user made read-only', async () => {
    const restore = makeReadOnly(path.join(root, 'src', 'a.ts'));
    try {
      await assert.rejects(() => ws.writeFile('src/a.ts', 'export const a = 2;\n'), ToolError);
    } finally {
      restore();
    }
    assert.equal(readFileSync(path.join(root, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n');
    assert.deepEqual(readdirSync(path.join(root, 'src')), ['a.ts']);
  });

  it('keeps the old content and leaves no temp file when the write fails half-way (EFBIG)', async () => {
    const child = path.join(__dirname, 'fixtures', 'writeUnderFileSizeLimit.ts');
    const tsx = require.resolve('tsx/cjs');
    // 8 KB limit, 100 KB of content: the temp file's write fails part-way through.
    const script = `trap '' XFSZ; ulimit -f 8; exec "$0" --require "$1" "$2" "$3" src/a.ts 100000`;
    const out = execFileSync('bash', ['-c', script, process.execPath, tsx, child, root], { encoding: 'utf8' });
    const outcome = JSON.parse(out.trim().split('\n').pop()!) as { ok: boolean; name?: string; message?: string };
    assert.equal(outcome.ok, false);
    assert.equal(outcome.name, 'ToolError');
    assert.match(outcome.message!, /EFBIG/);
    assert.equal(readFileSync(path.join(root, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n');
    assert.deepEqual(readdirSync(path.join(root, 'src')), ['a.ts']);
  });

  it('removes its temp file and leaves the target alone when the rename fails', async () => {
    // A non-empty folder cannot be replaced by a file: rename() fails after the temp file was written.
    mkdirSync(path.join(root, 'target', 'inner'), { recursive: true });
    await assert.rejects(() => atomicWrite(path.join(root, 'target'), 'data'));
    assert.ok(statSync(path.join(root, 'target')).isDirectory());
    assert.deepEqual(readdirSync(path.join(root, 'target')), ['inner']);
    assert.deepEqual(leftovers(root), []);
  });

  it('does not write once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(() => ws.writeFile('src/a.ts', 'x', controller.signal), CancelledError);
    await assert.rejects(() => ws.readFile('src/a.ts', controller.signal), CancelledError);
    assert.equal(readFileSync(path.join(root, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n');
  });
});
