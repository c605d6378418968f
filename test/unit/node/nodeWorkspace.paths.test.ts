import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PathOutsideWorkspaceError, ToolError } from '../../../src/agent/errors';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { makeTempDir } from './support';

/** Every file and folder under `dir` with its content, to prove nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      const full = path.join(dir, child);
      if (statSync(full).isDirectory()) {
        out[`${child}/`] = '';
        walk(child);
      } else out[child] = readFileSync(full, 'utf8');
    }
  };
  walk('');
  return out;
}

describe('NodeWorkspace path confinement', () => {
  let base: string;
  let cleanup: () => Promise<void>;
  let root: string;
  let outside: string;
  let ws: NodeWorkspace;
  let outsideBefore: Record<string, string>;

  beforeEach(async () => {
    ({ dir: base, cleanup } = await makeTempDir('stepwise-paths-'));
    root = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.txt'), 'top secret\n');
    writeFileSync(path.join(root, 'a.txt'), 'inside\n');
    writeFileSync(path.join(root, 'sub', 'b.txt'), 'bee\n');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-file'));
    symlinkSync(outside, path.join(root, 'link-dir'));
    symlinkSync('../outside/new.txt', path.join(root, 'dangling'));
    symlinkSync('a.txt', path.join(root, 'inner-link'));
    symlinkSync('sub', path.join(root, 'inner-dir'));
    ws = new NodeWorkspace(root);
    outsideBefore = snapshot(outside);
  });
  afterEach(() => cleanup());

  const refused = async (action: () => Promise<unknown>, input: string) => {
    await assert.rejects(action, (error: unknown) => {
      assert.ok(error instanceof PathOutsideWorkspaceError, `expected PathOutsideWorkspaceError, got ${String(error)}`);
      assert.ok(error.message.includes(JSON.stringify(input)), error.message);
      assert.ok(error.message.includes(`inside ${ws.root}`), error.message);
      return true;
    });
    assert.deepEqual(snapshot(outside), outsideBefore, 'the outside folder must be untouched');
  };

  const escapes = ['../outside/secret.txt', 'a/../../outside/secret.txt', 'sub/../../outside/secret.txt', '/etc/passwd', '..'];

  for (const input of escapes) {
    it(`refuses ${JSON.stringify(input)} for every operation`, async () => {
      await refused(() => ws.resolve(input), input);
      await refused(() => ws.readFile(input), input);
      await refused(() => ws.stat(input), input);
      await refused(() => ws.writeFile(input, 'pwned'), input);
      await refused(() => ws.listFiles(input, { recursive: true, limit: 10 }), input);
      await refused(() => ws.searchFiles({ pattern: 'secret', path: input, contextLines: 0, maxMatches: 10 }), input);
    });
  }

  it('refuses an absolute path to a file outside', async () => {
    const target = path.join(outside, 'secret.txt');
    await refused(() => ws.readFile(target), target);
    await refused(() => ws.writeFile(target, 'pwned'), target);
  });

  it('refuses reading and writing through a symlink to a file outside', async () => {
    await refused(() => ws.readFile('link-file'), 'link-file');
    await refused(() => ws.writeFile('link-file', 'pwned'), 'link-file');
    await refused(() => ws.stat('link-file'), 'link-file');
    assert.ok(lstatSync(path.join(root, 'link-file')).isSymbolicLink(), 'the link itself stays');
  });

  it('refuses a symlinked folder pointing outside, and files under it', async () => {
    await refused(() => ws.readFile('link-dir/secret.txt'), 'link-dir/secret.txt');
    await refused(() => ws.writeFile('link-dir/secret.txt', 'pwned'), 'link-dir/secret.txt');
    await refused(() => ws.listFiles('link-dir', { recursive: false, limit: 10 }), 'link-dir');
    await refused(() => ws.searchFiles({ pattern: 'secret', path: 'link-dir', contextLines: 0, maxMatches: 5 }), 'link-dir');
  });

  it('refuses creating a new file (and folders) under a symlinked folder pointing outside', async () => {
    await refused(() => ws.writeFile('link-dir/new.txt', 'pwned'), 'link-dir/new.txt');
    await refused(() => ws.writeFile('link-dir/deeper/new.txt', 'pwned'), 'link-dir/deeper/new.txt');
    await refused(() => ws.writeFile('inner-dir/../link-dir/x.txt', 'pwned'), 'inner-dir/../link-dir/x.txt');
  });

  it('refuses writing through a dangling symlink whose target would be created outside', async () => {
    await refused(() => ws.writeFile('dangling', 'pwned'), 'dangling');
    assert.equal(readlinkSync(path.join(root, 'dangling')), '../outside/new.txt');
  });

  it('refuses NUL bytes without touching anything', async () => {
    await assert.rejects(() => ws.writeFile('a.txt\0.sh', 'x'), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.match(error.message, /NUL/);
      return true;
    });
    assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'inside\n');
  });

  it('accepts relative and inside-absolute paths and normalises them to workspace-relative POSIX', async () => {
    assert.equal(await ws.resolve('a.txt'), 'a.txt');
    assert.equal(await ws.resolve('./sub/../a.txt'), 'a.txt');
    assert.equal(await ws.resolve('sub/b.txt'), 'sub/b.txt');
    assert.equal(await ws.resolve(path.join(root, 'sub', 'b.txt')), 'sub/b.txt');
    assert.equal(await ws.resolve('.'), '');
    assert.equal(await ws.resolve(''), '');
    assert.equal(await ws.resolve(root), '');
    assert.equal(await ws.resolve('sub/new/deep.txt'), 'sub/new/deep.txt');
    assert.equal(await ws.resolve('..hidden-name'), '..hidden-name');
  });

  it('keeps the realpath as root and accepts absolute paths through the alias it was opened with', async () => {
    const alias = path.join(base, 'alias');
    symlinkSync(root, alias);
    const viaAlias = new NodeWorkspace(alias);
    assert.equal(viaAlias.root, ws.root);
    assert.equal(await viaAlias.resolve(path.join(alias, 'sub', 'b.txt')), 'sub/b.txt');
    assert.equal(Buffer.from(await viaAlias.readFile(path.join(alias, 'a.txt'))).toString(), 'inside\n');
  });

  it('follows symlinks that stay inside, and writes to their target without replacing the link', async () => {
    assert.equal(Buffer.from(await ws.readFile('inner-link')).toString(), 'inside\n');
    await ws.writeFile('inner-link', 'changed\n');
    assert.ok(lstatSync(path.join(root, 'inner-link')).isSymbolicLink());
    assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'changed\n');
    await ws.writeFile('inner-dir/c.txt', 'sea\n');
    assert.equal(readFileSync(path.join(root, 'sub', 'c.txt'), 'utf8'), 'sea\n');
  });
});
