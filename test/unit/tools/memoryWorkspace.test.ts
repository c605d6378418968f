import assert from 'node:assert/strict';
import { FileNotFoundError, PathOutsideWorkspaceError } from '../../../src/agent/errors';
import { globToRegExp, MemoryWorkspace } from '../../support/memoryWorkspace';

describe('MemoryWorkspace (test double)', () => {
  it('normalises paths and refuses ones outside the root', async () => {
    const ws = new MemoryWorkspace({ 'src/a.ts': 'x' });
    assert.equal(await ws.resolve('./src//b/../a.ts'), 'src/a.ts');
    assert.equal(await ws.resolve('/workspace/src\\a.ts'), 'src/a.ts');
    assert.equal(await ws.resolve(''), '.');
    await assert.rejects(ws.resolve('../x'), PathOutsideWorkspaceError);
    await assert.rejects(ws.resolve('src/../../x'), PathOutsideWorkspaceError);
    await assert.rejects(ws.resolve('/etc/passwd'), PathOutsideWorkspaceError);
    await assert.rejects(ws.readFile('src/none.ts'), FileNotFoundError);
  });

  it('implies folders from file paths and records writes', async () => {
    const ws = new MemoryWorkspace();
    await ws.writeFile('a/b/c.txt', 'hi');
    assert.deepEqual(await ws.stat('a/b'), { kind: 'dir', size: 0, mtimeMs: 0 });
    assert.deepEqual(ws.writes, [{ path: 'a/b/c.txt', content: 'hi' }]);
    await assert.rejects(ws.writeFile('a/b/c.txt/d', 'x'), /is a file/);
  });

  it('matches globs like ripgrep', () => {
    assert.ok(globToRegExp('*.ts').test('src/deep/a.ts'));
    assert.ok(!globToRegExp('*.ts').test('src/a.tsx'));
    assert.ok(globToRegExp('src/**/*.tsx').test('src/a.tsx'));
    assert.ok(globToRegExp('src/**/*.tsx').test('src/x/y/a.tsx'));
    assert.ok(!globToRegExp('src/*.tsx').test('src/x/a.tsx'));
  });
});
