import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { IgnoreRules } from '../../../src/node/ignoreRules';
import { writeTree } from './fixtureTree';
import { makeTempDir } from './support';

// The search walk judges a folder's entries with `folderMatcher` (the folder's share worked out
// once); listings use `isIgnored`. Over a tree of nested rule files, every entry gets the same
// verdict from both, including inside folders the rules ignore.
describe('IgnoreRules.folderMatcher agrees with isIgnored', () => {
  let root: string;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('stepwise-ignore-folder-'));
    writeTree(root, {
      '.stepwiseignore': 'secret*\n',
      '.gitignore': 'build/\n*.log\n!keep.log\n/rootonly.txt\ndocs/*.tmp\n',
      'rootonly.txt': 'x',
      'a.log': 'x',
      'keep.log': 'x',
      'secret.env': 'x',
      'build/out.js': 'x',
      'build/nested/deep.js': 'x',
      'docs/a.tmp': 'x',
      'docs/b.md': 'x',
      'src/.ignore': 'gen/\n!important.log\n',
      'src/important.log': 'x',
      'src/other.log': 'x',
      'src/rootonly.txt': 'x',
      'src/gen/g.ts': 'x',
      'src/lib/.rgignore': '*.ts\n!keep.ts\n',
      'src/lib/a.ts': 'x',
      'src/lib/keep.ts': 'x',
      'src/lib/a.js': 'x',
      'src/lib/secret-notes.md': 'x',
      '.git/config': 'x',
    });
  });
  after(() => cleanup());

  it('gives each entry of every folder the verdict isIgnored gives its path', async () => {
    const rules = new IgnoreRules(root);
    const checked: string[] = [];
    const visit = async (rel: string): Promise<void> => {
      const entries = readdirSync(path.join(root, rel), { withFileTypes: true });
      const matcher = await new IgnoreRules(root).folderMatcher(rel, new Set(entries.map((e) => e.name)));
      for (const entry of entries) {
        const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
        const isDir = entry.isDirectory();
        assert.equal(matcher(entry.name, isDir), await rules.isIgnored(child, isDir), child);
        checked.push(`${child}${matcher(entry.name, isDir) ? ' ignored' : ''}`);
        if (isDir) await visit(child);
      }
    };
    await visit('');
    for (const expected of ['build ignored', 'a.log ignored', 'keep.log', 'secret.env ignored', 'rootonly.txt ignored', 'src/rootonly.txt', 'docs/a.tmp ignored', 'src/important.log', 'src/other.log ignored', 'src/gen ignored', 'src/lib/a.ts ignored', 'src/lib/keep.ts', 'src/lib/secret-notes.md ignored', '.git ignored', 'build/nested/deep.js']) {
      assert.ok(checked.includes(expected), `${expected} in ${JSON.stringify(checked)}`);
    }
  });
});
