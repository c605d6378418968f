import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { CancelledError, FileNotFoundError } from '../../../src/agent/errors';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { writeTree } from './fixtureTree';
import { makeTempDir } from './support';

describe('NodeWorkspace.listFiles', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let ws: NodeWorkspace;

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir('stepwise-list-'));
    writeTree(root, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/objects/ab/cdef': 'x',
      '.gitignore': 'build/\n*.log\n!keep.log\n/secret.txt\n',
      '.stepwiseignore': 'private/\n*.pem\n',
      'a.txt': 'a',
      'b/c.txt': 'c',
      'b/debug.log': 'ignored by *.log',
      'b/keep.log': 'kept by !keep.log',
      'build/out.js': 'ignored folder',
      'private/p.txt': 'ignored by .stepwiseignore',
      'key.pem': 'ignored by .stepwiseignore',
      'secret.txt': 'ignored (anchored)',
      'sub/secret.txt': 'kept: the anchored rule is for the root only',
      'nested/.gitignore': '*.tmp\n!important.tmp\ngenerated/\n!trace.log\n',
      'nested/n.txt': 'n',
      'nested/x.tmp': 'ignored by nested rule',
      'nested/important.tmp': 'kept by nested negation',
      'nested/generated/g.txt': 'ignored by nested rule',
      'nested/trace.log': 'root ignores *.log, the nested file re-includes it',
      'nested/deeper/d.tmp': 'ignored: nested rules apply below their folder',
      'nested/deeper/d.txt': 'd',
      'sub-b.txt': 'sorts after the sub folder contents',
    });
    ws = new NodeWorkspace(root);
  });
  afterEach(() => cleanup());

  const paths = (entries: { path: string; kind: string }[]) => entries.map((e) => (e.kind === 'dir' ? `${e.path}/` : e.path));

  it('lists recursively in tree order, honouring root and nested .gitignore, negations and .stepwiseignore, never .git', async () => {
    const { entries, truncated } = await ws.listFiles('.', { recursive: true, limit: 100 });
    assert.equal(truncated, false);
    assert.deepEqual(paths(entries), [
      '.gitignore',
      '.stepwiseignore',
      'a.txt',
      'b/',
      'b/c.txt',
      'b/keep.log',
      'nested/',
      'nested/.gitignore',
      'nested/deeper/',
      'nested/deeper/d.txt',
      'nested/important.tmp',
      'nested/n.txt',
      'nested/trace.log',
      'sub/',
      'sub/secret.txt',
      'sub-b.txt',
    ]);
  });

  it('lists one level when not recursive', async () => {
    const { entries } = await ws.listFiles('', { recursive: false, limit: 100 });
    assert.deepEqual(paths(entries), ['.gitignore', '.stepwiseignore', 'a.txt', 'b/', 'nested/', 'sub/', 'sub-b.txt']);
  });

  it('lists a subfolder with workspace-relative paths and the ignore rules of its parents', async () => {
    const { entries } = await ws.listFiles('nested', { recursive: true, limit: 100 });
    assert.deepEqual(paths(entries), [
      'nested/.gitignore',
      'nested/deeper/',
      'nested/deeper/d.txt',
      'nested/important.tmp',
      'nested/n.txt',
      'nested/trace.log',
    ]);
  });

  it('stops at the limit, keeps the shallow levels first and says it was truncated', async () => {
    const cut = await ws.listFiles('.', { recursive: true, limit: 5 });
    assert.equal(cut.truncated, true);
    assert.deepEqual(paths(cut.entries), ['.gitignore', '.stepwiseignore', 'a.txt', 'b/', 'nested/']);
    const exact = await ws.listFiles('.', { recursive: true, limit: 16 });
    assert.equal(exact.truncated, false);
    assert.equal(exact.entries.length, 16);
    const none = await ws.listFiles('.', { recursive: true, limit: 0 });
    assert.deepEqual(none, { entries: [], truncated: true });
  });

  it('lists a folder that is ignored when it is named explicitly', async () => {
    const { entries } = await ws.listFiles('build', { recursive: true, limit: 10 });
    assert.deepEqual(paths(entries), ['build/out.js']);
  });

  it('shows symlinks with their target kind without entering them', async () => {
    symlinkSync(path.join(root, 'b'), path.join(root, 'b-link'));
    const { entries } = await ws.listFiles('.', { recursive: true, limit: 100 });
    assert.ok(entries.some((e) => e.path === 'b-link' && e.kind === 'dir'));
    assert.ok(!entries.some((e) => e.path.startsWith('b-link/')));
  });

  it('reports a missing folder and lists a file path as itself', async () => {
    await assert.rejects(() => ws.listFiles('nope', { recursive: false, limit: 10 }), FileNotFoundError);
    assert.deepEqual(await ws.listFiles('a.txt', { recursive: false, limit: 10 }), {
      entries: [{ path: 'a.txt', kind: 'file' }],
      truncated: false,
    });
  });

  it('agrees with git on which files the .gitignore files exclude', async () => {
    rmSync(path.join(root, '.git'), { recursive: true });
    rmSync(path.join(root, '.stepwiseignore'));
    writeTree(root, {
      'logs/x/.gitignore': '!*.log\n',
      'logs/x/a.log': 'a',
      'logs/y/b.log': 'b',
      'docs/**/skip.md': 'odd name',
      'docs/guide/skip.md': 'kept',
      'Mixed.TXT': 'case-sensitive rules',
    });
    // No user or system git config: a global excludes file would change git's answer.
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('git', ['init', '-q'], { cwd: root, env });
    const fromGit = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], { cwd: root, env, encoding: 'utf8' })
      .split('\0')
      .filter((p) => p !== '')
      .sort();
    rmSync(path.join(root, '.git'), { recursive: true });
    const { entries } = await new NodeWorkspace(root).listFiles('.', { recursive: true, limit: 1000 });
    const ours = entries.filter((e) => e.kind === 'file').map((e) => e.path).sort();
    assert.ok(fromGit.includes('logs/x/a.log') && fromGit.includes('nested/trace.log'));
    assert.deepEqual(ours, fromGit);
  });

  it('honours the abort signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(() => ws.listFiles('.', { recursive: true, limit: 100, signal: controller.signal }), CancelledError);
  });
});
